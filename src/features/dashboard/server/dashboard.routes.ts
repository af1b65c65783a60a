import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import { serverTiming } from '@/server/server-timing';
import { dashboardSummarySchema } from '../dashboard.schema';
import { getDashboardSummary } from './dashboard.queries';

export function dashboardRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/api/dashboard/summary',
      {
        ...serverTiming,
        config: { permission: 'dashboard:read', cacheable: true },
        schema: { tags: ['dashboard'], response: { 200: dashboardSummarySchema } },
      },
      (request) => getDashboardSummary(deps.db, requestContext(request, deps)),
    );
  };
}
