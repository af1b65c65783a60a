/**
 * Claims entered by hand: a new Draft claim, and edits to a claim not yet sent (Draft or Ready, which goes
 * back to Draft: an edited claim is scrubbed again). The body was checked by claimDraftSchema; here what
 * needs the database: the patient, an active provider, a coverage of this patient, service dates not after
 * the practice's today. Lines are rewritten whole; the claim's total follows them (claims_totals_from_lines).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { actorOf, record } from '@/features/audit/server/audit.queries';
import { patientCoverage } from '@/features/coverage/server/coverage.queries';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';
import { formatDollars, today } from '@/shared/api';
import type { RequestContext } from '@/server/context';
import type { Db, Tx } from '@/server/db/types';
import { HttpError, invalidField } from '@/server/plugins/errors';
import { qualified } from '@/server/db/sql-helpers';
import { lineControlNumber, type ClaimDraft, type ClaimStatus } from '../claims.schema';
import { claimKnownByPayerNumber } from './claims.queries';
import { claimLines, claims } from './claims.table';

/** Only a claim not yet sent can be edited. */
const EDITABLE: readonly ClaimStatus[] = ['Draft', 'Ready'];

/** The payer the claim bills: the coverage's, or the patient (self-pay) without one. */
async function checkReferences(tx: Tx, ctx: RequestContext, draft: ClaimDraft): Promise<{ payer: string }> {
  const [patient] = await tx.select({ id: patients.id }).from(patients).where(eq(patients.id, draft.patientId));
  if (!patient) throw invalidField('patientId', 'is not a patient of the practice');
  const [provider] = await tx
    .select({ id: providers.id })
    .from(providers)
    .where(and(eq(providers.id, draft.providerId), eq(providers.active, true)));
  if (!provider) throw invalidField('providerId', 'is not an active provider');
  const day = today(ctx.now);
  draft.lines.forEach((line, i) => {
    if (line.serviceDate > day) throw invalidField(`lines.${i}.serviceDate`, 'cannot be after today');
  });
  if (draft.coverageId === null) return { payer: 'Self-Pay' };
  const coverage = await patientCoverage(tx, draft.patientId, draft.coverageId);
  if (!coverage) throw invalidField('coverageId', "is not one of this patient's coverages");
  return coverage;
}

/**
 * A replacement or void (frequency 7 or 8) entered by hand names the payer's number of a claim billed before
 * this practice used the app. One the payer knows here is corrected or voided from its own view instead: a new
 * claim beside it would leave the first one owed too, billed twice in A/R and the KPIs.
 */
async function checkOriginalNotHere(tx: Tx, draft: ClaimDraft, payer: string, claimId: number | null): Promise<void> {
  if (draft.frequencyCode === '1' || !draft.originalClaimNumber) return;
  const known = await claimKnownByPayerNumber(tx, payer, draft.originalClaimNumber, claimId);
  if (known) {
    throw invalidField(
      'originalClaimNumber',
      `is ${payer}'s number for claim ${known.accountNumber} (${known.status}): use Correct or Void at payer on ` +
        'that claim instead, so that it is not owed twice',
    );
  }
}

function headerOf(draft: ClaimDraft, payer: string) {
  const serviceDate = draft.lines.map((l) => l.serviceDate).reduce((a, b) => (b < a ? b : a));
  return {
    providerId: draft.providerId,
    payer,
    coverageId: draft.coverageId,
    placeOfService: draft.placeOfService,
    frequencyCode: draft.frequencyCode,
    originalClaimNumber: draft.frequencyCode === '1' ? draft.originalClaimNumber || null : draft.originalClaimNumber,
    referringProviderName: draft.referringProvider?.name ?? null,
    referringProviderNpi: draft.referringProvider?.npi ?? null,
    diagnoses: draft.diagnoses,
    serviceDate,
    // Derived from the lines once they are written (claims_totals_from_lines).
    procedureCode: draft.lines[0]?.procedureCode ?? '',
  };
}

async function writeLines(tx: Tx, claimId: number, accountNumber: string, draft: ClaimDraft): Promise<void> {
  await tx.delete(claimLines).where(eq(claimLines.claimId, claimId));
  await tx.insert(claimLines).values(
    draft.lines.map((line, i) => ({
      claimId,
      lineNumber: i + 1,
      procedureCode: line.procedureCode,
      modifiers: line.modifiers,
      units: line.units,
      chargeCents: line.chargeCents,
      diagnosisPointers: line.diagnosisPointers,
      serviceDate: line.serviceDate,
      lineControlNumber: lineControlNumber(accountNumber, i + 1),
    })),
  );
}

/** A claim's billed total: the sum of its lines' charges. */
export const totalOf = (draft: ClaimDraft) => draft.lines.reduce((sum, l) => sum + l.chargeCents, 0);

function summary(draft: ClaimDraft, payer: string): string {
  const n = draft.lines.length;
  return `${n} line${n === 1 ? '' : 's'} (${draft.lines.map((l) => l.procedureCode).join(', ')}), ${formatDollars(totalOf(draft))}, diagnoses ${draft.diagnoses.join(', ')}, ${payer}`;
}

/** `POST /api/claims`: a new Draft claim; its patient control number is ACC-<year>-M<id>. */
export async function createDraftClaim(db: Db, ctx: RequestContext, draft: ClaimDraft): Promise<number> {
  return db.transaction((tx) => insertDraftClaim(tx, ctx, draft));
}

/**
 * A new Draft claim in the caller's transaction, audited. `after` makes it the claim of the patient's next policy
 * for an adjudicated one (its primary claim), said so in the audit entry.
 */
export async function insertDraftClaim(
  tx: Tx,
  ctx: RequestContext,
  draft: ClaimDraft,
  after?: { primaryClaimId: number; primaryAccountNumber: string; primaryPayer: string; priorPayersCents: number },
): Promise<number> {
  const { payer } = await checkReferences(tx, ctx, draft);
  await checkOriginalNotHere(tx, draft, payer, null);
  const header = headerOf(draft, payer);
  const [created] = await tx
    .insert(claims)
    .values({
      ...header,
      patientId: draft.patientId,
      accountNumber: `PENDING-${randomUUID()}`,
      billedCents: 0,
      status: 'Draft',
      primaryClaimId: after?.primaryClaimId ?? null,
      priorPayersCents: after?.priorPayersCents ?? 0,
    })
    .returning({ id: claims.id });
  if (!created) throw new Error('claim insert returned nothing');
  const accountNumber = `ACC-${header.serviceDate.slice(0, 4)}-M${String(created.id).padStart(7, '0')}`;
  await tx.update(claims).set({ accountNumber }).where(eq(claims.id, created.id));
  await writeLines(tx, created.id, accountNumber, draft);
  const billedAfter = after
    ? `, billed after ${after.primaryPayer}'s adjudication of ${after.primaryAccountNumber}`
    : '';
  await record(tx, {
    ...actorOf(ctx),
    action: 'claim.create',
    resource: `claim/${created.id}`,
    patientId: draft.patientId,
    detail: `created ${accountNumber} as Draft${billedAfter}: ${summary(draft, payer)}`,
  });
  return created.id;
}

/** `PUT /api/claims/:id`: a Draft or Ready claim rewritten; it is Draft again until scrubbed. */
export async function updateDraftClaim(db: Db, ctx: RequestContext, id: number, draft: ClaimDraft): Promise<number> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        patientId: claims.patientId,
        status: claims.status,
        voidedAt: claims.voidedAt,
        accountNumber: claims.accountNumber,
        billedCents: claims.billedCents,
        diagnoses: claims.diagnoses,
        // Qualified: bare, the claim's id would name the line's own id inside the subquery.
        lines: sql<number>`(select count(*)::int from claim_lines l where l.claim_id = ${qualified(claims.id)})`,
      })
      .from(claims)
      .where(eq(claims.id, id))
      .for('update');
    if (!current) throw new HttpError(404, 'NOT_FOUND', 'No such claim.');
    const status = current.voidedAt ? 'Voided' : current.status;
    if (!(EDITABLE as readonly string[]).includes(status)) {
      throw new HttpError(409, 'NOT_EDITABLE', `status: a ${status} claim cannot be edited; only Draft and Ready`, {
        fields: [{ field: 'status', message: `is ${status}, not Draft or Ready` }],
      });
    }
    if (current.patientId !== draft.patientId) {
      throw invalidField('patientId', "cannot change: a claim is the patient's; create a new claim instead");
    }
    const { payer } = await checkReferences(tx, ctx, draft);
    await checkOriginalNotHere(tx, draft, payer, id);
    await tx
      .update(claims)
      .set({ ...headerOf(draft, payer), status: 'Draft' })
      .where(eq(claims.id, id));
    await writeLines(tx, id, current.accountNumber, draft);
    await record(tx, {
      ...actorOf(ctx),
      action: 'claim.update',
      resource: `claim/${id}`,
      patientId: current.patientId,
      detail:
        `edited ${current.accountNumber} (was ${status}: ${current.lines} line${current.lines === 1 ? '' : 's'}, ` +
        `${formatDollars(current.billedCents)}, diagnoses ${current.diagnoses.join(', ') || 'none'}); now Draft: ${summary(draft, payer)}`,
    });
    return id;
  });
}
