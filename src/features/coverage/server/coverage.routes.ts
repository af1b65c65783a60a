import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import { coverageSchema } from '../coverage.schema';
import { listPatientCoverages } from './coverage.queries';

export function coverageRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/api/patients/:id/coverages',
      {
        // Those who read claims see what a claim bills; the member id is masked for those who do not bill.
        config: { permission: 'claims:read' },
        schema: {
          tags: ['coverage'],
          description: "The patient's insurance policies, primary first: what a claim can be billed to.",
          params: idParamsSchema,
          response: { 200: z.array(coverageSchema), 400: errorEnvelopeSchema },
        },
      },
      (request) => listPatientCoverages(deps.db, requestContext(request, deps), request.params.id),
    );
  };
}
