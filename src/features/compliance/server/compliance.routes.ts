import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import { actorOf, recordNow } from '@/features/audit/server/audit.queries';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import {
  complianceOverviewSchema,
  gapPatchSchema,
  gapsResponseSchema,
  hipaaItemsResponseSchema,
  securityCheckParamsSchema,
  securityCheckResultSchema,
  securityChecksResponseSchema,
  wcagChecksResponseSchema,
} from '../compliance.schema';
import { SECURITY_CHECKS, runSecurityCheck } from './compliance.checks';
import { getOverview, listGaps, listHipaaItems, listWcagChecks, updateGapStatus } from './compliance.queries';

const errors = { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema };

export function complianceRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['compliance'];

    api.get(
      '/api/compliance/overview',
      { config: { permission: 'compliance:read' }, schema: { tags, response: { 200: complianceOverviewSchema } } },
      // The registry is complete once the app is ready, which it is by the time a request arrives.
      () => getOverview(deps.db, deps.config, app.routeRegistry),
    );
    api.get(
      '/api/compliance/hipaa-items',
      { config: { permission: 'compliance:read' }, schema: { tags, response: { 200: hipaaItemsResponseSchema } } },
      async () => ({ items: await listHipaaItems(deps.db) }),
    );
    api.get(
      '/api/compliance/wcag-checks',
      { config: { permission: 'compliance:read' }, schema: { tags, response: { 200: wcagChecksResponseSchema } } },
      async () => ({ checks: await listWcagChecks(deps.db) }),
    );
    api.get(
      '/api/compliance/gaps',
      { config: { permission: 'system:admin' }, schema: { tags, response: { 200: gapsResponseSchema } } },
      () => listGaps(deps.db),
    );
    api.patch(
      '/api/compliance/gaps/:id',
      {
        config: { permission: 'system:admin' },
        schema: {
          tags,
          params: idParamsSchema,
          body: gapPatchSchema,
          response: { 200: gapsResponseSchema, ...errors },
        },
      },
      (request) => updateGapStatus(deps.db, requestContext(request, deps), request.params.id, request.body),
    );
    api.get(
      '/api/compliance/security-checks',
      { config: { permission: 'system:admin' }, schema: { tags, response: { 200: securityChecksResponseSchema } } },
      () => ({ checks: SECURITY_CHECKS.map(({ checkId, name, description }) => ({ checkId, name, description })) }),
    );
    api.post(
      '/api/compliance/security-checks/:checkId',
      {
        config: { permission: 'system:admin' },
        schema: { tags, params: securityCheckParamsSchema, response: { 200: securityCheckResultSchema, ...errors } },
      },
      async (request) => {
        const ctx = requestContext(request, deps);
        const result = await runSecurityCheck(request.params.checkId, { app, deps, request });
        await recordNow(deps.db, {
          ...actorOf(ctx),
          action: 'security.check',
          resource: `security_check/${result.checkId}`,
          detail: `${result.status}: ${result.message}`,
          at: ctx.now,
        });
        return result;
      },
    );
  };
}
