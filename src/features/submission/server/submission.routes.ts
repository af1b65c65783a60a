import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import { acceptX12Body, X12_MEDIA_TYPES, x12BodyOf } from '@/server/plugins/x12-body';
import {
  ACKNOWLEDGEMENT_MAX_BYTES,
  acknowledgementResultSchema,
  claimBatchDetailSchema,
  claimBatchListSchema,
  createdClaimBatchesSchema,
  newClaimBatchSchema,
  readyPayerListSchema,
} from '../submission.schema';
import { batchScrubResultSchema, claimScrubResultSchema, scrubRequestSchema } from '@/features/claims/claims.schema';
import { scrubDraftClaims, scrubOneClaim } from './submission.scrub.queries';
import { applyAcknowledgement } from './submission.acks.queries';
import {
  claimBatch837Download,
  createClaimBatches,
  getClaimBatchDetail,
  listClaimBatches,
  listReadyPayers,
} from './submission.batches.queries';

const errors = { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema };

/**
 * Claim submission: scrubbing claims before they are sent (claims:write, from the claim form and the Claims list),
 * and claim batches and their acknowledgements (docs/x12-837.md): the Claims screen's Batches view, billing staff
 * only (`claims:submit`).
 */
export function submissionRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.post(
      '/api/claims/:id/scrub',
      {
        config: { permission: 'claims:write' },
        schema: {
          tags: ['claims'],
          description:
            'Runs the claim scrubber on a Draft or Ready claim: each finding with its code, severity and field. ' +
            'A clean claim becomes Ready; warnings need an override reason (audited); errors keep it Draft.',
          params: idParamsSchema,
          body: scrubRequestSchema,
          response: { 200: claimScrubResultSchema, ...errors },
        },
      },
      (request) =>
        scrubOneClaim(deps.db, requestContext(request, deps), request.params.id, request.body.overrideReason ?? null),
    );
    api.post(
      '/api/claims/scrub',
      {
        config: { permission: 'claims:write' },
        schema: {
          tags: ['claims'],
          description: 'Scrubs every Draft claim at once: the clean ones become Ready, the others stay Draft.',
          response: { 200: batchScrubResultSchema, ...errors },
        },
      },
      (request) => scrubDraftClaims(deps.db, requestContext(request, deps)),
    );
    api.get(
      '/api/claim-batches',
      {
        config: { permission: 'claims:submit' },
        schema: {
          tags: ['claims'],
          description:
            'The newest claim batches first: payer, claim count, total, created, status, what the 999 said and how many claims the 277CA accepted and rejected.',
          querystring: z.object({
            limit: z.coerce
              .number({ error: 'must be a number from 1 to 500' })
              .int('must be a whole number')
              .min(1, 'must be at least 1')
              .max(500, 'must be at most 500')
              .default(100),
          }),
          response: { 200: claimBatchListSchema, ...errors },
        },
      },
      async (request) => ({ items: await listClaimBatches(deps.db, request.query.limit) }),
    );
    api.get(
      '/api/claim-batches/ready',
      {
        config: { permission: 'claims:submit' },
        schema: {
          tags: ['claims'],
          description: 'The payers with Ready claims waiting to be sent: how many and their total.',
          response: { 200: readyPayerListSchema },
        },
      },
      async () => ({ items: await listReadyPayers(deps.db) }),
    );
    api.post(
      '/api/claim-batches',
      {
        config: { permission: 'claims:submit' },
        schema: {
          tags: ['claims'],
          description:
            'Sends Ready claims as X12 837P (005010X222A1): every Ready claim of `payer`, or the chosen `claimIds` ' +
            '(one batch per payer). Takes the next ISA/GS/ST control numbers, marks the claims Submitted and starts ' +
            'their timely-filing clock, all in one transaction; audited.',
          body: newClaimBatchSchema,
          response: { 201: createdClaimBatchesSchema, ...errors },
        },
      },
      async (request, reply) => {
        const created = await createClaimBatches(deps.db, requestContext(request, deps), request.body);
        return reply.code(201).send(created);
      },
    );
    api.get(
      '/api/claim-batches/:id',
      {
        config: { permission: 'claims:submit' },
        schema: {
          tags: ['claims'],
          description: 'One batch with its claims in file order and what was answered for each. Audited as a PHI read.',
          params: idParamsSchema,
          response: { 200: claimBatchDetailSchema, ...errors },
        },
      },
      (request) => getClaimBatchDetail(deps.db, requestContext(request, deps), request.params.id),
    );
    api.get(
      '/api/claim-batches/:id/837',
      {
        config: { permission: 'claims:submit' },
        schema: {
          tags: ['claims'],
          description:
            "The batch's 837P file as text, written again from what was kept when it was created (the same bytes " +
            'every time). Audited as an export.',
          params: idParamsSchema,
          produces: ['text/plain'],
          response: { 200: z.string(), ...errors },
        },
      },
      async (request, reply) => {
        const file = await claimBatch837Download(deps.db, requestContext(request, deps), request.params.id);
        return reply
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .header('cache-control', 'no-store')
          .type('text/plain; charset=utf-8')
          .send(file.text);
      },
    );

    // The acknowledgement is the file itself as the body: its own parsers, within this route only.
    await app.register(async (acks) => {
      acceptX12Body(acks, ACKNOWLEDGEMENT_MAX_BYTES);
      acks.withTypeProvider<ZodTypeProvider>().post(
        '/api/acknowledgements',
        {
          config: { permission: 'claims:submit' },
          bodyLimit: ACKNOWLEDGEMENT_MAX_BYTES,
          schema: {
            tags: ['claims'],
            description:
              'Applies a 999 (005010X231A1) or 277CA (005010X214) sent back for 837P batches: the body is the file ' +
              'as text/plain or application/edi-x12. A 999 accepts or rejects a batch; a 277CA accepts each claim ' +
              'or rejects it back to Draft with its reason. All or nothing; the same file twice is refused. Audited.',
            consumes: X12_MEDIA_TYPES,
            response: {
              200: acknowledgementResultSchema,
              415: errorEnvelopeSchema,
              422: errorEnvelopeSchema,
              ...errors,
            },
          },
        },
        (request) => applyAcknowledgement(deps.db, requestContext(request, deps), x12BodyOf(request.body)),
      );
    });
  };
}
