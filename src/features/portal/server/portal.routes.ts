import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import { portalAppointmentSchema, portalClaimSchema } from '../portal.schema';
import { getPortalAppointments, getPortalClaims } from './portal.queries';

/**
 * The patient's own data. The routes read no parameters at all: the patient comes from the session
 * (docs/access.md), so an id in the path, query or body cannot widen the scope.
 */
export function portalRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/api/portal/appointments',
      {
        config: { permission: 'portal:read' },
        schema: {
          tags: ['portal'],
          description: "The signed-in patient's visits, cancelled ones hidden, by date ascending.",
          response: { 200: z.array(portalAppointmentSchema) },
        },
      },
      (request) => getPortalAppointments(deps.db, requestContext(request, deps)),
    );
    api.get(
      '/api/portal/claims',
      {
        config: { permission: 'portal:read' },
        schema: {
          tags: ['portal'],
          description: "The signed-in patient's 5 most recent claims, newest service date first.",
          response: { 200: z.array(portalClaimSchema) },
        },
      },
      (request) => getPortalClaims(deps.db, requestContext(request, deps)),
    );
  };
}
