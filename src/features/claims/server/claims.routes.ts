import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import { serverTiming } from '@/server/server-timing';
import {
  CLAIM_IMPORT_MAX_BYTES,
  appealOutcomeRequestSchema,
  claimAppealSchema,
  IMPORT_ERRORS_SHOWN,
  claimExportQuerySchema,
  claimExportSchema,
  claimFilterSchema,
  claimImportRequestSchema,
  claimListQuerySchema,
  claimOverviewSchema,
  claimPageSchema,
  claimProviderSchema,
  claimRowSchema,
  importRejectedSchema,
  importResultSchema,
  chargeCeilingListSchema,
  chargeCeilingParamsSchema,
  chargeCeilingSchema,
  chargeCeilingUpdateSchema,
  newAppealSchema,
  voidClaimSchema,
  writeOffClaimSchema,
  correctClaimSchema,
  voidAtPayerSchema,
  claimDetailSchema,
  claimDraftSchema,
  type ImportRejected,
} from '../claims.schema';
import { getClaimDetail } from './claims.detail.queries';
import { listPatientNames } from '@/features/patients/server/patients.queries';
import { patientOptionSchema } from '@/features/patients/patients.schema';
import { createDraftClaim, updateDraftClaim } from './claims.draft.queries';
import {
  appealClaim,
  claimsOverview,
  exportClaims,
  importClaims,
  listChargeCeilings,
  listClaims,
  setChargeCeiling,
  voidClaim,
  writeOffClaim,
  correctClaim,
  voidClaimAtPayer,
  listClaimAppeals,
  recordAppealOutcome,
  listClaimProviders,
} from './claims.queries';

const errors = { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema };

/** JSON escapes (quotes, newlines) make the body larger than the CSV it carries. */
const IMPORT_BODY_LIMIT = 2 * CLAIM_IMPORT_MAX_BYTES;

export function claimsRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/api/claims',
      {
        config: { permission: 'claims:read', cacheable: true },
        schema: {
          tags: ['claims'],
          description:
            'One page of claims, filtered by payer, reason code, status, provider, service dates and search, sorted by any column.',
          querystring: claimListQuerySchema,
          response: { 200: claimPageSchema, ...errors },
        },
      },
      (request) => listClaims(deps.db, requestContext(request, deps), request.query),
    );
    api.get(
      '/api/claims/providers',
      {
        config: { permission: 'claims:read', cacheable: true },
        schema: {
          tags: ['claims'],
          description: 'The providers the claims can be filtered by.',
          response: { 200: z.array(claimProviderSchema) },
        },
      },
      () => listClaimProviders(deps.db),
    );
    api.get(
      '/api/claims/overview',
      {
        ...serverTiming,
        config: { permission: 'claims:read', cacheable: true },
        schema: {
          tags: ['claims'],
          description: 'Summary line and chart data of the Claims screen for the current filters.',
          querystring: claimFilterSchema,
          response: { 200: claimOverviewSchema, ...errors },
        },
      },
      (request) => claimsOverview(deps.db, requestContext(request, deps), request.query),
    );
    api.get(
      '/api/claims/export',
      {
        config: { permission: 'claims:read' },
        schema: {
          tags: ['claims'],
          description: 'Every claim matching the filters, for the CSV export; audited as an export.',
          querystring: claimExportQuerySchema,
          response: { 200: claimExportSchema, 422: errorEnvelopeSchema, ...errors },
        },
      },
      (request) => exportClaims(deps.db, requestContext(request, deps), request.query),
    );
    api.get(
      '/api/claims/:id',
      {
        config: { permission: 'claims:read' },
        schema: {
          tags: ['claims'],
          description:
            "One claim: header, coverage, diagnoses, service lines, the latest scrub and the claim's history. " +
            'Audited as a PHI read.',
          params: idParamsSchema,
          response: { 200: claimDetailSchema, ...errors },
        },
      },
      (request) => getClaimDetail(deps.db, requestContext(request, deps), request.params.id),
    );
    api.get(
      '/api/claims/patients',
      {
        // Billing staff choose the patient of a claim they enter without the Patients screen's access.
        config: { permission: 'claims:write' },
        schema: {
          tags: ['claims'],
          description: 'Patients by name for the claim form: id, name, and DOB and MRN as the role may see them.',
          querystring: z.object({
            search: z.string().trim().max(100).default(''),
            limit: z.coerce.number().int().min(1).max(50).default(20),
          }),
          response: { 200: z.array(patientOptionSchema), ...errors },
        },
      },
      (request) =>
        listPatientNames(
          deps.db,
          requestContext(request, deps),
          request.query.search,
          request.query.limit,
          '/api/claims/patients',
        ),
    );
    api.post(
      '/api/claims',
      {
        config: { permission: 'claims:write' },
        schema: {
          tags: ['claims'],
          description:
            'Creates a Draft claim entered by hand: patient, rendering provider, coverage (null: self-pay), ' +
            'place of service, frequency, ICD-10-CM diagnoses and 1-50 service lines. Audited.',
          body: claimDraftSchema,
          response: { 201: claimDetailSchema, ...errors },
        },
      },
      async (request, reply) => {
        const ctx = requestContext(request, deps);
        const id = await createDraftClaim(deps.db, ctx, request.body);
        return reply.code(201).send(await getClaimDetail(deps.db, ctx, id));
      },
    );
    api.put(
      '/api/claims/:id',
      {
        config: { permission: 'claims:write' },
        schema: {
          tags: ['claims'],
          description:
            'Rewrites a Draft or Ready claim (header, diagnoses, lines); it is Draft again until scrubbed. Audited.',
          params: idParamsSchema,
          body: claimDraftSchema,
          response: { 200: claimDetailSchema, ...errors },
        },
      },
      async (request) => {
        const ctx = requestContext(request, deps);
        await updateDraftClaim(deps.db, ctx, request.params.id, request.body);
        return getClaimDetail(deps.db, ctx, request.params.id);
      },
    );
    api.post(
      '/api/claims/:id/appeals',
      {
        config: { permission: 'claims:write' },
        schema: {
          tags: ['claims'],
          params: idParamsSchema,
          body: newAppealSchema,
          response: { 200: claimRowSchema, ...errors },
        },
      },
      (request) => appealClaim(deps.db, requestContext(request, deps), request.params.id, request.body),
    );
    api.get(
      '/api/claims/:id/appeals',
      {
        config: { permission: 'claims:read' },
        schema: {
          tags: ['claims'],
          description: "The claim's appeals, oldest first: level, deadline, reason and outcome.",
          params: idParamsSchema,
          response: { 200: z.array(claimAppealSchema), ...errors },
        },
      },
      (request) => listClaimAppeals(deps.db, requestContext(request, deps), request.params.id),
    );
    api.post(
      '/api/claims/:id/appeals/:appealId/outcome',
      {
        config: { permission: 'claims:write' },
        schema: {
          tags: ['claims'],
          description: "Records the payer's answer to an appeal: won, partly won or lost, with the amount it pays.",
          params: idParamsSchema.extend({ appealId: idParamsSchema.shape.id }),
          body: appealOutcomeRequestSchema,
          response: { 200: claimRowSchema, ...errors },
        },
      },
      (request) =>
        recordAppealOutcome(
          deps.db,
          requestContext(request, deps),
          request.params.id,
          request.params.appealId,
          request.body,
        ),
    );
    api.post(
      '/api/claims/:id/void',
      {
        config: { permission: 'claims:write' },
        schema: {
          tags: ['claims'],
          description:
            'Voids a claim entered by mistake: it stays listed as Voided and in the audit trail, and leaves every KPI and total. A claim with payments is refused.',
          params: idParamsSchema,
          body: voidClaimSchema,
          response: { 200: claimRowSchema, ...errors },
        },
      },
      (request) => voidClaim(deps.db, requestContext(request, deps), request.params.id, request.body),
    );
    api.post(
      '/api/claims/:id/write-off',
      {
        config: { permission: 'claims:write' },
        schema: {
          tags: ['claims'],
          description:
            "Writes off the rest of a Denied or Partially Paid claim's balance with a reason: the claim becomes Written Off and resolved, its open work-queue items are resolved as written off, and the patient's own share stays due. Audited.",
          params: idParamsSchema,
          body: writeOffClaimSchema,
          response: { 200: claimRowSchema, ...errors },
        },
      },
      (request) => writeOffClaim(deps.db, requestContext(request, deps), request.params.id, request.body),
    );
    api.post(
      '/api/claims/:id/correct',
      {
        config: { permission: 'claims:write' },
        schema: {
          tags: ['claims'],
          description:
            "Reopens a claim the payer has (Accepted, Pending, Paid, Partially Paid or Denied) as a Draft to be corrected and sent again as a replacement (frequency 7) of the payer's claim number, with a reason; its open denial and review items are resolved as corrected and resubmitted. Audited.",
          params: idParamsSchema,
          body: correctClaimSchema,
          response: { 200: claimRowSchema, ...errors },
        },
      },
      (request) => correctClaim(deps.db, requestContext(request, deps), request.params.id, request.body),
    );
    api.post(
      '/api/claims/:id/void-at-payer',
      {
        config: { permission: 'claims:write' },
        schema: {
          tags: ['claims'],
          description:
            "Reopens a claim the payer has and paid nothing on (Accepted, Pending or Denied) as a Draft void (frequency 8) of the payer's claim number, with a reason, to be scrubbed and sent; the claim is voided when the payer's 277CA accepts the void. Refused for a claim with payments or billed on to a next policy. Audited.",
          params: idParamsSchema,
          body: voidAtPayerSchema,
          response: { 200: claimRowSchema, ...errors },
        },
      },
      (request) => voidClaimAtPayer(deps.db, requestContext(request, deps), request.params.id, request.body),
    );
    // Settings → Charge ceilings: what the import flags, per procedure code (admin).
    api.get(
      '/api/admin/charge-ceilings',
      {
        config: { permission: 'system:admin' },
        schema: { tags: ['claims'], response: { 200: chargeCeilingListSchema } },
      },
      () => listChargeCeilings(deps.db),
    );
    api.put(
      '/api/admin/charge-ceilings/:code',
      {
        config: { permission: 'system:admin' },
        schema: {
          tags: ['claims'],
          description: "Sets a procedure code's charge ceiling: imported charges above it are flagged; audited.",
          params: chargeCeilingParamsSchema,
          body: chargeCeilingUpdateSchema,
          response: { 200: chargeCeilingSchema, ...errors },
        },
      },
      (request) => setChargeCeiling(deps.db, requestContext(request, deps), request.params.code, request.body),
    );
    api.post(
      '/api/claims/import',
      {
        config: { permission: 'claims:write' },
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: {
          tags: ['claims'],
          description:
            'Imports claims from CSV text. Every row is checked; any problem rejects the whole file with a row-by-row report.',
          body: claimImportRequestSchema,
          response: {
            200: importResultSchema,
            400: importRejectedSchema.or(errorEnvelopeSchema),
            409: errorEnvelopeSchema,
          },
        },
      },
      async (request, reply) => {
        const outcome = await importClaims(deps.db, requestContext(request, deps), request.body.csv);
        if (outcome.ok) return { imported: outcome.imported, warnings: outcome.warnings.slice(0, IMPORT_ERRORS_SHOWN) };
        const rowsWithProblems = new Set(outcome.errors.map((e) => e.row)).size;
        const body: ImportRejected = {
          error: {
            code: 'IMPORT_INVALID',
            message: `${outcome.errors.length} problem${outcome.errors.length === 1 ? '' : 's'} in ${rowsWithProblems} row${rowsWithProblems === 1 ? '' : 's'}: nothing was imported.`,
          },
          errors: outcome.errors.slice(0, IMPORT_ERRORS_SHOWN),
          errorCount: outcome.errors.length,
          warnings: outcome.warnings.slice(0, IMPORT_ERRORS_SHOWN),
        };
        return reply.code(400).send(body);
      },
    );
  };
}
