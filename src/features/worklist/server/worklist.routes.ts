import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import {
  overdueFollowUpListSchema,
  overdueFollowUpPageSchema,
  worklistFilterSchema,
  worklistPageQuerySchema,
  worklistSummarySchema,
} from '../worklist.schema';
import { exportOverdueFollowUps, pageOverdueFollowUps, summariseOverdueFollowUps } from './worklist.queries';

export function worklistRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/api/worklist/overdue-followups',
      {
        config: { permission: 'worklist:read' },
        schema: {
          tags: ['worklist'],
          description:
            'One page of overdue follow-ups (one per patient), filtered by priority and provider, keyset-paged ' +
            'by priority or days overdue; total comes with a first page. The read is audited.',
          querystring: worklistPageQuerySchema,
          response: { 200: overdueFollowUpPageSchema, 400: errorEnvelopeSchema },
        },
      },
      (request) => pageOverdueFollowUps(deps.db, requestContext(request, deps), request.query),
    );
    api.get(
      '/api/worklist/overdue-followups/summary',
      {
        config: { permission: 'worklist:read' },
        schema: {
          tags: ['worklist'],
          description: "The tiles' counts over the whole unfiltered worklist, and its providers for the filter.",
          response: { 200: worklistSummarySchema },
        },
      },
      (request) => summariseOverdueFollowUps(deps.db, requestContext(request, deps)),
    );
    api.post(
      '/api/worklist/overdue-followups/exports',
      {
        config: { permission: 'worklist:read' },
        schema: {
          tags: ['worklist'],
          description: 'Every row the filters select, for the CSV the browser builds; the export is audited.',
          body: worklistFilterSchema,
          response: { 200: overdueFollowUpListSchema, 400: errorEnvelopeSchema },
        },
      },
      (request) => exportOverdueFollowUps(deps.db, requestContext(request, deps), request.body),
    );
  };
}
