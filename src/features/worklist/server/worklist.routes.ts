import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import { overdueFollowUpListSchema, worklistExportAuditSchema } from '../worklist.schema';
import { listOverdueFollowUps, recordWorklistExport } from './worklist.queries';

export function worklistRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/api/worklist/overdue-followups',
      {
        config: { permission: 'worklist:read' },
        schema: {
          tags: ['worklist'],
          description: 'Overdue follow-ups, one per patient, by priority; the read is audited.',
          response: { 200: overdueFollowUpListSchema },
        },
      },
      (request) => listOverdueFollowUps(deps.db, requestContext(request, deps)),
    );
    api.post(
      '/api/worklist/overdue-followups/exports',
      {
        config: { permission: 'worklist:read' },
        schema: {
          tags: ['worklist'],
          description: 'Records that the browser exported the (filtered) worklist as CSV.',
          body: worklistExportAuditSchema,
          response: { 204: z.null(), 400: errorEnvelopeSchema },
        },
      },
      async (request, reply) => {
        await recordWorklistExport(deps.db, requestContext(request, deps), request.body);
        return reply.code(204).send(null);
      },
    );
  };
}
