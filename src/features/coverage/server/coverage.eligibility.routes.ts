import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, idParamsSchema, today } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import { acceptX12Body, X12_MEDIA_TYPES, x12BodyOf } from '@/server/plugins/x12-body';
import { HttpError, invalidField } from '@/server/plugins/errors';
import {
  ELIGIBILITY_RESPONSE_MAX_BYTES,
  coverageEligibilitySchema,
  newEligibilityCheckSchema,
  postedEligibilityResponseSchema,
  requestedEligibilitySchema,
} from '../coverage.eligibility.schema';
import {
  coverageExists,
  eligibilityInquiryFile,
  latestEligibility,
  post271,
  requestEligibility,
  type LoadEligibilitySender,
} from './coverage.eligibility.queries';

/**
 * The uploaded file's name, kept with it: sent URI-encoded in the X-File-Name header, since the body is the file
 * itself (a header, not the query, so that the file is the request's only input).
 */
const fileNameSchema = z
  .string()
  .trim()
  .min(1, 'must not be blank')
  .max(200, 'must be at most 200 characters')
  .refine((name) => !/[/\\]/.test(name) && ![...name].some((c) => c.charCodeAt(0) < 32), {
    message: 'must be a file name without slashes or control characters',
  });

function fileNameOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(Array.isArray(header) ? (header[0] ?? '') : header);
  } catch {
    throw invalidField('x-file-name', 'must be URI-encoded (encodeURIComponent)');
  }
  const parsed = fileNameSchema.safeParse(decoded);
  if (!parsed.success) throw invalidField('x-file-name', parsed.error.issues[0]?.message ?? 'is not a file name');
  return parsed.data;
}

/**
 * `loadSender`: the practice's billing identity and clearinghouse, from the settings feature (later than coverage
 * in the feature order, so server/app.ts passes it in).
 */
export function coverageEligibilityRoutes(deps: AppDeps, loadSender: LoadEligibilitySender) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const errors = {
      400: errorEnvelopeSchema,
      403: errorEnvelopeSchema,
      404: errorEnvelopeSchema,
      409: errorEnvelopeSchema,
    };
    api.post(
      '/api/coverages/:id/eligibility',
      {
        config: { permission: 'eligibility:check' },
        schema: {
          tags: ['coverage'],
          description:
            'Asks the payer whether the policy is in force on a day of service (default the practice’s today): ' +
            'writes an X12 270 (005010X279A1) for the mailbox to send and a check awaiting its 271; audited.',
          params: idParamsSchema,
          body: newEligibilityCheckSchema,
          response: { 201: requestedEligibilitySchema, ...errors },
        },
      },
      async (request, reply) => {
        const ctx = requestContext(request, deps);
        const id = request.params.id;
        if (!(await coverageExists(deps.db, id))) throw new HttpError(404, 'NOT_FOUND', 'No such coverage.');
        const result = await requestEligibility(
          deps.db,
          ctx,
          {
            coverageIds: [id],
            serviceDate: request.body.serviceDate ?? today(ctx.now),
            reason: 'manual',
            serviceTypes: request.body.serviceTypes ?? [],
          },
          await loadSender(deps.db),
        );
        return reply.code(201).send(result);
      },
    );
    api.get(
      '/api/coverages/:id/eligibility',
      {
        config: { permission: 'coverage:read' },
        schema: {
          tags: ['coverage'],
          description: "The policy's latest eligibility check and the 20 before it, newest first; an audited PHI read.",
          params: idParamsSchema,
          response: { 200: coverageEligibilitySchema, 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
        },
      },
      (request) => latestEligibility(deps.db, requestContext(request, deps), request.params.id),
    );
    api.get(
      '/api/eligibility/inquiries/:id/file',
      {
        config: { permission: 'eligibility:check' },
        schema: {
          tags: ['coverage'],
          description: 'The 270 file of an inquiry, as written and as the mailbox sends it. Audited as an export.',
          params: idParamsSchema,
          produces: ['text/plain'],
          response: { 200: z.string(), 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
        },
      },
      async (request, reply) => {
        const file = await eligibilityInquiryFile(deps.db, requestContext(request, deps), request.params.id);
        return reply
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .header('cache-control', 'no-store')
          .type('text/plain; charset=utf-8')
          .send(file.text);
      },
    );
    // The 271 is the file itself as the body: its own parsers, within this route only.
    await app.register(async (responses) => {
      acceptX12Body(responses, ELIGIBILITY_RESPONSE_MAX_BYTES);
      responses.withTypeProvider<ZodTypeProvider>().post(
        '/api/eligibility/responses',
        {
          config: { permission: 'eligibility:check' },
          bodyLimit: ELIGIBILITY_RESPONSE_MAX_BYTES,
          schema: {
            tags: ['coverage'],
            description:
              'Applies a 271 (005010X279A1) uploaded by hand: the body is the file as text/plain or ' +
              'application/edi-x12, its name URI-encoded in X-File-Name. Each answer must match a check awaiting it by trace number and member id; ' +
              'otherwise, or for a file seen before, the whole file is refused and nothing is written. Audited.',
            consumes: X12_MEDIA_TYPES,
            response: {
              200: postedEligibilityResponseSchema,
              415: errorEnvelopeSchema,
              422: errorEnvelopeSchema,
              ...errors,
            },
          },
        },
        (request) => {
          const ctx = requestContext(request, deps);
          const fileName = fileNameOf(request.headers['x-file-name']) ?? `271-upload-${today(ctx.now)}.txt`;
          return post271(deps.db, ctx, x12BodyOf(request.body), fileName);
        },
      );
    });
  };
}
