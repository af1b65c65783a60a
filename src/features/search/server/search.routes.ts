import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { canOpen } from '@/shared/access';
import { errorEnvelopeSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import { searchAppointmentsBrief } from '@/features/appointments/server/appointments.queries';
import { searchClaimsBrief } from '@/features/claims/server/claims.summary.queries';
import { searchPatientsBrief } from '@/features/patients/server/patients.queries';
import { listReadEntry, recordRead } from '@/features/audit/server/audit.queries';
import { SEARCH_GROUP_LIMIT, searchQuerySchema, searchResultSchema } from '../search.schema';

export function searchRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/api/search',
      {
        config: { permission: 'authenticated' },
        schema: {
          tags: ['search'],
          querystring: searchQuerySchema,
          response: { 200: searchResultSchema, 400: errorEnvelopeSchema },
        },
      },
      async (request) => {
        const ctx = requestContext(request, deps);
        const { q } = request.query;
        const role = ctx.user.role;
        // Only the groups whose screens the role may open are queried at all.
        const [patients, appointments, claims] = await Promise.all([
          canOpen(role, '/patients') ? searchPatientsBrief(deps.db, ctx, q, SEARCH_GROUP_LIMIT) : null,
          canOpen(role, '/appointments') ? searchAppointmentsBrief(deps.db, ctx, q, SEARCH_GROUP_LIMIT) : null,
          canOpen(role, '/claims') ? searchClaimsBrief(deps.db, ctx, q, SEARCH_GROUP_LIMIT) : null,
        ]);
        // Every search that shows PHI is a read of it, audited before the answer; q only as its length.
        const patientIds = [
          ...(patients ?? []).map((p) => p.id),
          ...(appointments ?? []).map((a) => a.patientId),
          ...(claims ?? []).map((c) => c.patientId),
        ];
        if (patients !== null || appointments !== null || claims !== null) {
          await recordRead(deps.db, ctx, listReadEntry('search.view', '/api/search', { q }, patientIds));
        }
        return {
          patients,
          appointments: appointments?.map(({ patientId: _patientId, ...row }) => row) ?? null,
          claims: claims?.map(({ patientId: _patientId, ...row }) => row) ?? null,
        };
      },
    );
  };
}
