import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import { acceptX12Body, X12_MEDIA_TYPES, x12BodyOf } from '@/server/plugins/x12-body';
import {
  ACKNOWLEDGEMENT_MAX_BYTES,
  claimStatusRequestListSchema,
  claimStatusRequestResultSchema,
  claimStatusResponseResultSchema,
  claimStatusViewSchema,
  newClaimStatusRequestSchema,
} from '../submission.schema';
import {
  claimStatusOf,
  claimStatusRequestDownload,
  listClaimStatusRequests,
  post277,
  requestClaimStatus,
} from './submission.claim-status.queries';

const errors = { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema };

/**
 * Claim status requests and responses (ASC X12 005010X212, docs/x12-claim-status.md "In the product"): asking the
 * payers where sent claims stand and applying their 277 answers; billing staff only (`claims:submit`).
 */
export function claimStatusRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.post(
      '/api/claims/status-requests',
      {
        config: { permission: 'claims:submit' },
        schema: {
          tags: ['claims'],
          description:
            'Asks payers where claims stand (276, 005010X212): without `claimIds`, every sent claim its payer has had ' +
            'for its claim_status_after_days without a decision and not asked about within them; with `claimIds`, ' +
            'those claims now. One 276 per payer, all in one transaction; audited.',
          body: newClaimStatusRequestSchema,
          response: { 201: claimStatusRequestResultSchema, ...errors },
        },
      },
      async (request, reply) => {
        const result = await requestClaimStatus(deps.db, requestContext(request, deps), {
          claimIds: request.body.claimIds,
        });
        return reply.code(201).send(result);
      },
    );
    api.get(
      '/api/claims/status-requests',
      {
        config: { permission: 'claims:submit' },
        schema: {
          tags: ['claims'],
          description: 'The newest claim status requests (276) first: payer, claims asked about and answered, mailed.',
          querystring: z.object({
            limit: z.coerce
              .number({ error: 'must be a number from 1 to 500' })
              .int('must be a whole number')
              .min(1, 'must be at least 1')
              .max(500, 'must be at most 500')
              .default(100),
          }),
          response: { 200: claimStatusRequestListSchema, ...errors },
        },
      },
      async (request) => ({ items: await listClaimStatusRequests(deps.db, request.query.limit) }),
    );
    api.get(
      '/api/claims/status-requests/:id/file',
      {
        config: { permission: 'claims:submit' },
        schema: {
          tags: ['claims'],
          description: 'The 276 file as it was written and sent. Audited as an export.',
          params: idParamsSchema,
          produces: ['text/plain'],
          response: { 200: z.string(), ...errors },
        },
      },
      async (request, reply) => {
        const file = await claimStatusRequestDownload(deps.db, requestContext(request, deps), request.params.id);
        return reply
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .header('cache-control', 'no-store')
          .type('text/plain; charset=utf-8')
          .send(file.text);
      },
    );
    api.get(
      '/api/claims/:id/status',
      {
        config: { permission: 'claims:submit' },
        schema: {
          tags: ['claims'],
          description: "The claim's latest status inquiry and the payer's answer, and whether it can be asked now.",
          params: idParamsSchema,
          response: { 200: claimStatusViewSchema, ...errors },
        },
      },
      (request) => claimStatusOf(deps.db, request.params.id),
    );

    // The 277 is the file itself as the body: its own parsers, within this route only.
    await app.register(async (responses) => {
      acceptX12Body(responses, ACKNOWLEDGEMENT_MAX_BYTES);
      responses.withTypeProvider<ZodTypeProvider>().post(
        '/api/claims/status-responses',
        {
          config: { permission: 'claims:submit' },
          bodyLimit: ACKNOWLEDGEMENT_MAX_BYTES,
          schema: {
            tags: ['claims'],
            description:
              'Applies a 277 claim status response (005010X212): the body is the file as text/plain or ' +
              'application/edi-x12, `fileName` its name. Each answer must match a 276 inquiry by trace number; a ' +
              '277CA, a file applied before or an unknown trace number is refused whole. Audited.',
            consumes: X12_MEDIA_TYPES,
            querystring: z.object({
              fileName: z
                .string()
                .trim()
                .min(1, 'must not be empty')
                .max(255, 'must be at most 255 characters')
                .regex(
                  /^[\w .()-]+$/,
                  'must be a file name: letters, digits, spaces, dots, dashes, underscores and parentheses',
                )
                .default('277'),
            }),
            response: {
              200: claimStatusResponseResultSchema,
              415: errorEnvelopeSchema,
              422: errorEnvelopeSchema,
              ...errors,
            },
          },
        },
        (request) => post277(deps.db, requestContext(request, deps), x12BodyOf(request.body), request.query.fileName),
      );
    });
  };
}
