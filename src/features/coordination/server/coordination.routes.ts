import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import { claimDetailSchema } from '@/features/claims/claims.schema';
import { getClaimDetail } from '@/features/claims/server/claims.detail.queries';
import { billNextPolicy } from './coordination.queries';

const errors = { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema };

/** Coordination of benefits: billing a claim's balance to the patient's next policy (docs/x12-837.md). */
export function coordinationRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.post(
      '/api/claims/:id/next-policy',
      {
        config: { permission: 'claims:write' },
        schema: {
          tags: ['claims'],
          description:
            "Bills the claim's balance to the patient's next policy in force on the service date (secondary after " +
            'primary): a new Draft claim with its diagnoses and lines, linked to it, whose 837P reports the earlier ' +
            "payer's adjudication. 409 when the payer has not adjudicated it, left nothing, forwarded it itself, or " +
            'it is billed there already. Audited.',
          params: idParamsSchema,
          response: { 201: claimDetailSchema, ...errors },
        },
      },
      async (request, reply) => {
        const ctx = requestContext(request, deps);
        const id = await billNextPolicy(deps.db, ctx, request.params.id);
        return reply.code(201).send(await getClaimDetail(deps.db, ctx, id));
      },
    );
  };
}
