import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import type { AfterPatientBillingChange, AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import { coveragePatchSchema, coverageSchema, newCoverageSchema } from '../coverage.schema';
import { createCoverage, listPatientCoverages, updateCoverage } from './coverage.queries';

/** `afterBillingChange`: what a later feature does when a policy is added or changed (server/app.ts). */
export function coverageRoutes(deps: AppDeps, afterBillingChange?: AfterPatientBillingChange) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const errors = {
      400: errorEnvelopeSchema,
      403: errorEnvelopeSchema,
      404: errorEnvelopeSchema,
      409: errorEnvelopeSchema,
    };
    api.get(
      '/api/patients/:id/coverages',
      {
        // The member id is whole only for those who bill with it; the subscriber's birth date is masked as a dob.
        config: { permission: 'coverage:read' },
        schema: {
          tags: ['coverage'],
          description: "The patient's insurance policies, primary first: what a claim can be billed to.",
          params: idParamsSchema,
          response: { 200: z.array(coverageSchema), 400: errorEnvelopeSchema },
        },
      },
      (request) => listPatientCoverages(deps.db, requestContext(request, deps), request.params.id),
    );
    api.post(
      '/api/patients/:id/coverages',
      {
        config: { permission: 'coverage:write' },
        schema: {
          tags: ['coverage'],
          description:
            "Registers a policy of the patient: an active payer, a Medicare member id that is an MBI, and no other policy of the same priority in force on a common day; audited. Scrubs the patient's held claims again.",
          params: idParamsSchema,
          body: newCoverageSchema,
          response: { 201: coverageSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(
            await createCoverage(
              deps.db,
              requestContext(request, deps),
              request.params.id,
              request.body,
              afterBillingChange,
            ),
          ),
    );
    api.patch(
      '/api/coverages/:id',
      {
        config: { permission: 'coverage:write' },
        schema: {
          tags: ['coverage'],
          description:
            'Corrects a policy, or ends it with endOn; the rules of a new policy apply to what it becomes; audited. ' +
            "A change scrubs the patient's held claims again.",
          params: idParamsSchema,
          body: coveragePatchSchema,
          response: { 200: coverageSchema, ...errors },
        },
      },
      (request) =>
        updateCoverage(deps.db, requestContext(request, deps), request.params.id, request.body, afterBillingChange),
    );
  };
}
