import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import {
  auditActionsSchema,
  auditExportSchema,
  auditFilterSchema,
  auditPageSchema,
  auditQuerySchema,
  auditStatsSchema,
  chainVerificationSchema,
} from '../audit.schema';
import { auditStats, exportAuditEntries, listAuditActions, listAuditEntries, verifyAuditChain } from './audit.queries';

const errors = { 400: errorEnvelopeSchema };

export function auditRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/api/audit',
      {
        config: { permission: 'audit:read' },
        schema: {
          tags: ['audit'],
          description:
            'The audit trail, newest first, filtered by actor (contains, any case), action (exact) and day range ' +
            '(from/to inclusive); 200 per page by default (at most 500), then `cursor` = the previous nextCursor.',
          querystring: auditQuerySchema,
          response: { 200: auditPageSchema, ...errors },
        },
      },
      (request) => listAuditEntries(deps.db, request.query),
    );
    api.get(
      '/api/audit/export',
      {
        config: { permission: 'audit:read' },
        schema: {
          tags: ['audit'],
          description: 'The newest matching entries (at most 10,000) for the CSV export; audited as an export.',
          querystring: auditFilterSchema,
          response: { 200: auditExportSchema, ...errors },
        },
      },
      (request) => exportAuditEntries(deps.db, requestContext(request, deps), request.query),
    );
    api.get(
      '/api/audit/stats',
      {
        config: { permission: 'audit:read' },
        schema: { tags: ['audit'], description: 'Six counts over the trail.', response: { 200: auditStatsSchema } },
      },
      (request) => auditStats(deps.db, requestContext(request, deps)),
    );
    api.get(
      '/api/audit/actions',
      {
        config: { permission: 'audit:read' },
        schema: { tags: ['audit'], description: 'Every distinct action.', response: { 200: auditActionsSchema } },
      },
      async () => ({ actions: await listAuditActions(deps.db) }),
    );
    api.get(
      '/api/audit/verify',
      {
        config: { permission: 'audit:verify' },
        schema: {
          tags: ['audit'],
          description: 'Recomputes the whole hash chain; reports the first entry that does not verify.',
          response: { 200: chainVerificationSchema },
        },
      },
      (request) => verifyAuditChain(deps.db, requestContext(request, deps)),
    );
  };
}
