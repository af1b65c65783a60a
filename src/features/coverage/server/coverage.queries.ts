import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { actorOf, record, recordRead } from '@/features/audit/server/audit.queries';
import { patients } from '@/features/patients/server/patients.table';
import { payerNamed } from '@/features/payers/server/payers.queries';
import { maskMemberId, maskText, type Role } from '@/shared/access';
import { dobProblem, today } from '@/shared/api';
import { isValidMbi } from '@/shared/billing-identifiers';
import { formatDate } from '@/shared/dates';
import type { AfterPatientBillingChange, RequestContext } from '@/server/context';
import type { Db, DbOrTx, Tx } from '@/server/db/types';
import { HttpError, invalidField } from '@/server/plugins/errors';
import {
  coverageProblems,
  priorityLabel,
  type Coverage,
  type CoveragePatch,
  type MedicareSecondaryType,
  type NewCoverage,
} from '../coverage.schema';
import { coverages } from './coverage.table';
import { latestEligibilityOf } from './coverage.eligibility.queries';

const columns = {
  id: coverages.id,
  patientId: coverages.patientId,
  payer: coverages.payer,
  priority: coverages.priority,
  memberId: coverages.memberId,
  groupNumber: coverages.groupNumber,
  relationship: coverages.relationship,
  subscriberName: coverages.subscriberName,
  subscriberDob: coverages.subscriberDob,
  effectiveOn: coverages.effectiveOn,
  endOn: coverages.endOn,
  medicareSecondaryType: coverages.medicareSecondaryType,
};

/**
 * A coverage as the role may see it: the member id whole only for those who bill with it, and the
 * subscriber's birth date under the same rule as a patient's (docs/access.md).
 */
function shown(c: Coverage, role: Role): Coverage {
  return {
    ...c,
    memberId: maskMemberId(c.memberId, role),
    subscriberDob: c.subscriberDob === null ? null : maskText('dob', c.subscriberDob, role),
  };
}

/** A patient's policies, primary first (the claim form offers them); an audited PHI read. */
export async function listPatientCoverages(db: Db, ctx: RequestContext, patientId: number): Promise<Coverage[]> {
  const found = await db
    .select(columns)
    .from(coverages)
    .where(eq(coverages.patientId, patientId))
    .orderBy(asc(coverages.priority), asc(coverages.effectiveOn), asc(coverages.id));
  // Each policy's latest eligibility check, in one statement (coverage.eligibility.queries.ts).
  const checks = await latestEligibilityOf(
    db,
    ctx.user.role,
    found.map((c) => c.id),
  );
  await recordRead(db, ctx, {
    action: 'coverage.list.view',
    resource: `patient/${patientId}`,
    detail: `listed ${found.length} coverage${found.length === 1 ? '' : 's'}`,
    patientId,
  });
  return found.map((c) => ({ ...shown(c, ctx.user.role), eligibility: checks.get(c.id) ?? null }));
}

/** The coverage if it is this patient's, else null (a claim may only bill the patient's own policy). */
export async function patientCoverage(db: DbOrTx, patientId: number, coverageId: number) {
  const [found] = await db
    .select(columns)
    .from(coverages)
    .where(and(eq(coverages.id, coverageId), eq(coverages.patientId, patientId)))
    .limit(1);
  return found ?? null;
}

/**
 * Holds the patient's row until the transaction ends, so that two writes to the same patient's policies
 * check for an overlap one after the other. 'No key update' leaves other tables free to reference the row.
 */
async function lockPatient(tx: Tx, patientId: number): Promise<boolean> {
  const [found] = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(eq(patients.id, patientId))
    .for('no key update');
  return found !== undefined;
}

/** The payer of a new or changed policy: one the practice still bills. */
async function activePayer(tx: Tx, name: string) {
  const payer = await payerNamed(tx, name);
  if (!payer?.active) throw invalidField('payer', "is not one of the practice's active payers (Settings → Payers)");
  return payer;
}

/**
 * The member id as stored. CMS prints an MBI with dashes (1EG4-TE5-MK73) but an 837P carries it without,
 * and the claim scrubber checks the stored form, so a Medicare Part B policy's id is kept that way.
 */
function checkedMemberId(memberId: string, claimFilingIndicator: string): string {
  if (claimFilingIndicator !== 'MB') return memberId;
  const mbi = memberId.replace(/-/g, '').toUpperCase();
  if (!isValidMbi(mbi)) {
    throw invalidField(
      'memberId',
      'must be a Medicare Beneficiary Identifier (MBI): 11 letters and digits such as 1EG4TE5MK73',
    );
  }
  return mbi;
}

/**
 * Why Medicare pays second, kept only where an 837P sends it (X12 SBR05): on a Medicare Part B policy that is not
 * primary. Given for any other policy, it is refused, naming the rule.
 */
function checkedMedicareSecondaryType(
  type: MedicareSecondaryType | null,
  claimFilingIndicator: string,
  priority: number,
): MedicareSecondaryType | null {
  if (type === null) return null;
  if (claimFilingIndicator !== 'MB') throw invalidField('medicareSecondaryType', 'applies only to a Medicare policy');
  if (priority === 1) {
    throw invalidField('medicareSecondaryType', 'applies only when Medicare is not the primary payer');
  }
  return type;
}

function checkSubscriberDob(dob: string | null | undefined, ctx: RequestContext) {
  if (!dob) return;
  const problem = dobProblem(dob, today(ctx.now));
  if (problem) throw invalidField('subscriberDob', problem);
}

/**
 * One payer pays first, one second, one third on any day: two policies of the same priority in force on a
 * common day would leave the claim's order of payers (X12 SBR01) undecided.
 */
async function refuseOverlap(
  tx: Tx,
  patientId: number,
  c: { priority: number; effectiveOn: string; endOn: string | null },
  exceptId: number | null,
) {
  const [clash] = await tx
    .select({ payer: coverages.payer, effectiveOn: coverages.effectiveOn, endOn: coverages.endOn })
    .from(coverages)
    .where(
      and(
        eq(coverages.patientId, patientId),
        eq(coverages.priority, c.priority),
        exceptId === null ? undefined : ne(coverages.id, exceptId),
        // Both ends are days the policy is in force ('[]'); no end date is an open range.
        sql`daterange(${coverages.effectiveOn}, ${coverages.endOn}, '[]') && daterange(${c.effectiveOn}::date, ${c.endOn}::date, '[]')`,
      ),
    )
    .orderBy(asc(coverages.effectiveOn))
    .limit(1);
  if (!clash) return;
  const until = clash.endOn ? `to ${formatDate(clash.endOn)}` : 'with no end date';
  const message = `is already held by ${clash.payer} (${priorityLabel(c.priority)}) from ${formatDate(clash.effectiveOn)} ${until}: end that policy first or choose another priority`;
  throw new HttpError(409, 'COVERAGE_OVERLAP', `priority: ${message}`, { fields: [{ field: 'priority', message }] });
}

/** The audit log's readers need not see a member id: its last 4 characters tell policies apart. */
function memberIdTail(memberId: string): string {
  return memberId.length > 4 ? `ending ${memberId.slice(-4)}` : `of ${memberId.length} characters`;
}

function titleOf(c: { payer: string; priority: number }): string {
  return `${c.payer} ${priorityLabel(c.priority)}`;
}

export async function createCoverage(
  db: Db,
  ctx: RequestContext,
  patientId: number,
  input: NewCoverage,
  afterSaved?: AfterPatientBillingChange,
): Promise<Coverage> {
  return db.transaction(async (tx) => {
    if (!(await lockPatient(tx, patientId))) throw new HttpError(404, 'NOT_FOUND', 'No such patient.');
    const payer = await activePayer(tx, input.payer);
    const memberId = checkedMemberId(input.memberId, payer.claimFilingIndicator);
    const medicareSecondaryType = checkedMedicareSecondaryType(
      input.medicareSecondaryType,
      payer.claimFilingIndicator,
      input.priority,
    );
    // The patient is the subscriber: the 837P names no one else, so nothing else is kept.
    const holder =
      input.relationship === 'self'
        ? { subscriberName: null, subscriberDob: null }
        : { subscriberName: input.subscriberName, subscriberDob: input.subscriberDob };
    checkSubscriberDob(holder.subscriberDob, ctx);
    await refuseOverlap(tx, patientId, input, null);
    const [row] = await tx
      .insert(coverages)
      .values({ ...input, ...holder, memberId, medicareSecondaryType, patientId })
      .returning(columns);
    if (!row) throw new Error('coverage insert returned nothing');
    const parts = [
      `member id ${memberIdTail(row.memberId)}`,
      `group ${row.groupNumber ?? 'none'}`,
      `relationship ${row.relationship}`,
      `effective ${row.effectiveOn}`,
      row.endOn ? `ending ${row.endOn}` : 'no end date',
      ...(row.medicareSecondaryType ? [`Medicare secondary type ${row.medicareSecondaryType}`] : []),
    ];
    await record(tx, {
      ...actorOf(ctx),
      action: 'coverage.create',
      resource: `coverage/${row.id}`,
      detail: `${titleOf(row)}: added (${parts.join(', ')})`,
      patientId,
    });
    await afterSaved?.(tx, ctx, patientId);
    return shown(row, ctx.user.role);
  });
}

/** What changed, in words the audit log can show: values, but no member id and no subscriber's details. */
function changesOf(before: Coverage, after: Coverage): string[] {
  const changes: string[] = [];
  if (after.payer !== before.payer) changes.push(`payer ${before.payer} -> ${after.payer}`);
  if (after.priority !== before.priority) {
    changes.push(`priority ${priorityLabel(before.priority)} -> ${priorityLabel(after.priority)}`);
  }
  if (after.memberId !== before.memberId) {
    changes.push(`member id ${memberIdTail(before.memberId)} -> ${memberIdTail(after.memberId)}`);
  }
  if (after.groupNumber !== before.groupNumber) {
    changes.push(`group ${before.groupNumber ?? 'none'} -> ${after.groupNumber ?? 'none'}`);
  }
  if (after.relationship !== before.relationship) {
    changes.push(`relationship ${before.relationship} -> ${after.relationship}`);
  }
  if (after.subscriberName !== before.subscriberName) changes.push('subscriber name changed');
  if (after.subscriberDob !== before.subscriberDob) changes.push('subscriber birth date changed');
  if (after.effectiveOn !== before.effectiveOn) changes.push(`effective ${before.effectiveOn} -> ${after.effectiveOn}`);
  if (after.endOn !== before.endOn) changes.push(`end date ${before.endOn ?? 'none'} -> ${after.endOn ?? 'none'}`);
  if (after.medicareSecondaryType !== before.medicareSecondaryType) {
    changes.push(
      `Medicare secondary type ${before.medicareSecondaryType ?? 'none'} -> ${after.medicareSecondaryType ?? 'none'}`,
    );
  }
  return changes;
}

/** Corrects a policy or ends it (a patch of endOn); the rules of a new one apply to what it becomes. */
export async function updateCoverage(
  db: Db,
  ctx: RequestContext,
  id: number,
  patch: CoveragePatch,
  afterSaved?: AfterPatientBillingChange,
): Promise<Coverage> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select(columns).from(coverages).where(eq(coverages.id, id)).for('update');
    if (!current) throw new HttpError(404, 'NOT_FOUND', 'No such coverage.');
    await lockPatient(tx, current.patientId);
    const merged: Coverage = { ...current, ...patch };
    if (merged.relationship === 'self') Object.assign(merged, { subscriberName: null, subscriberDob: null });
    const problem = coverageProblems(merged)[0];
    if (problem) throw invalidField(problem.field, problem.message);
    // A policy of a payer since deactivated can still be corrected or ended; only a new payer must be active.
    const payer =
      patch.payer !== undefined && patch.payer !== current.payer
        ? await activePayer(tx, patch.payer)
        : await payerNamed(tx, current.payer);
    if (patch.payer !== undefined || patch.memberId !== undefined) {
      merged.memberId = checkedMemberId(merged.memberId, payer?.claimFilingIndicator ?? '');
    }
    if (patch.medicareSecondaryType !== undefined) {
      merged.medicareSecondaryType = checkedMedicareSecondaryType(
        merged.medicareSecondaryType,
        payer?.claimFilingIndicator ?? '',
        merged.priority,
      );
    } else if (
      merged.medicareSecondaryType !== null &&
      (payer?.claimFilingIndicator !== 'MB' || merged.priority === 1)
    ) {
      // The policy is no longer Medicare paying second: the reason it did is not kept (the change is audited).
      merged.medicareSecondaryType = null;
    }
    if (patch.subscriberDob !== undefined) checkSubscriberDob(merged.subscriberDob, ctx);
    if (patch.priority !== undefined || patch.effectiveOn !== undefined || patch.endOn !== undefined) {
      await refuseOverlap(tx, current.patientId, merged, id);
    }
    const { id: _id, patientId: _patientId, ...values } = merged;
    const [row] = await tx.update(coverages).set(values).where(eq(coverages.id, id)).returning(columns);
    if (!row) throw new Error('coverage update returned nothing');
    const changes = changesOf(current, row);
    await record(tx, {
      ...actorOf(ctx),
      action: 'coverage.update',
      resource: `coverage/${id}`,
      detail: `${titleOf(row)}: ${changes.length > 0 ? changes.join(', ') : 'no change'}`,
      patientId: row.patientId,
    });
    if (changes.length > 0) await afterSaved?.(tx, ctx, row.patientId);
    return shown(row, ctx.user.role);
  });
}
