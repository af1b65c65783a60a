import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { acceptX12Body, x12BodyOf } from '@/server/plugins/x12-body';
import { requestContext } from '@/server/request-context';
import {
  remittanceDetailSchema,
  remittanceListQuerySchema,
  remittancePageSchema,
  remittanceSummarySchema,
} from '../remittances.schema';
import { importRemittance, listRemittances, remittanceDetail } from './remittances.queries';

/** The largest 835 accepted: about 100,000 claims of a typical remittance. */
export const ERA_BODY_LIMIT = 20 * 1024 * 1024;

/** Remittances (docs/remittances.md): import an 835, list the imports, open one, export it. */
export function remittancesRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    // An 835 is text: read as a string, up to ERA_BODY_LIMIT, on these routes only (the plugin's own context).
    acceptX12Body(app, ERA_BODY_LIMIT);
    const api = app.withTypeProvider<ZodTypeProvider>();
    const errors = {
      400: errorEnvelopeSchema,
      404: errorEnvelopeSchema,
      415: errorEnvelopeSchema,
      422: errorEnvelopeSchema,
    };
    api.post(
      '/api/remittances',
      {
        config: { permission: 'remittances:write' },
        bodyLimit: ERA_BODY_LIMIT,
        schema: {
          tags: ['remittances'],
          description:
            'Imports an X12 835 remittance (005010X221A1), sent as the body with Content-Type application/edi-x12 or ' +
            'text/plain: balances it, posts the claims that match and balance, and sends the rest to the work queue, ' +
            'in one transaction. 201 with the summary; 200 with the earlier summary when the same payer and trace ' +
            'number was imported before (nothing is posted again).',
          response: { 200: remittanceSummarySchema, 201: remittanceSummarySchema, ...errors },
        },
      },
      async (request, reply) => {
        const result = await importRemittance(deps.db, requestContext(request, deps), x12BodyOf(request.body));
        return reply.code(result.duplicate ? 200 : 201).send(result.summary);
      },
    );
    api.get(
      '/api/remittances',
      {
        config: { permission: 'remittances:read' },
        schema: {
          tags: ['remittances'],
          description: 'The imported remittances, newest first (keyset-paged).',
          querystring: remittanceListQuerySchema,
          response: { 200: remittancePageSchema, ...errors },
        },
      },
      (request) => listRemittances(deps.db, request.query),
    );
    api.get(
      '/api/remittances/:id',
      {
        config: { permission: 'remittances:read' },
        schema: {
          tags: ['remittances'],
          description: "One remittance with each claim's posting and adjustments; an audited PHI read.",
          params: idParamsSchema,
          response: { 200: remittanceDetailSchema, ...errors },
        },
      },
      (request) => remittanceDetail(deps.db, requestContext(request, deps), request.params.id),
    );
    api.get(
      '/api/remittances/:id/export',
      {
        config: { permission: 'remittances:read' },
        schema: {
          tags: ['remittances'],
          description: 'The same as the detail, for the CSV download; audited as export.csv.',
          params: idParamsSchema,
          response: { 200: remittanceDetailSchema, ...errors },
        },
      },
      (request) => remittanceDetail(deps.db, requestContext(request, deps), request.params.id, 'export.csv'),
    );
  };
}
