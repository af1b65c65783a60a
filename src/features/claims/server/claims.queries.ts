import { and, asc, desc, eq, ilike, isNull, ne, or, sql } from 'drizzle-orm';
import type { RequestContext } from '@/server/context';
import type { Db, DbOrTx, Tx } from '@/server/db/types';
import { containsPattern } from '@/server/db/like';
import { payments } from '@/features/billing/server/billing.table';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';
import { claimStatusSchema } from '../claims.schema';
import { claims } from './claims.table';

/** Global search: claims whose patient name or account number contains the text, newest first. */
export async function searchClaimsBrief(db: Db, _ctx: RequestContext, text: string, limit: number) {
  const pattern = containsPattern(text);
  return db
    .select({ id: claims.id, patient: patients.name, accountNumber: claims.accountNumber, status: claims.status })
    .from(claims)
    .innerJoin(patients, eq(patients.id, claims.patientId))
    .where(or(ilike(patients.name, pattern), ilike(claims.accountNumber, pattern)))
    .orderBy(desc(claims.serviceDate), desc(claims.id))
    .limit(limit);
}

/**
 * Dashboard: revenue collected (the sum of what payers paid, claims.paid_cents, over every claim) and
 * the claims counted per status, both computed by the database.
 */
export async function summariseClaims(
  db: Db,
): Promise<{ collectedCents: number; byStatus: { status: string; count: number }[] }> {
  const [[totals], byStatus] = await Promise.all([
    db.select({ collectedCents: sql<string>`coalesce(sum(${claims.paidCents}), 0)::bigint` }).from(claims),
    db
      .select({ status: claims.status, count: sql<number>`count(*)::int` })
      .from(claims)
      .groupBy(claims.status)
      .orderBy(asc(claims.status)),
  ]);
  return { collectedCents: Number(totals?.collectedCents ?? 0), byStatus };
}

/** Dashboard critical alerts: the most recently adjudicated claims that stand denied, newest first. */
export async function listNewestDenials(db: Db, limit: number) {
  return db
    .select({
      id: claims.id,
      patient: patients.name,
      accountNumber: claims.accountNumber,
      payer: claims.payer,
      reasonCode: claims.reasonCode,
      denialDescription: claims.denialDescription,
      billedCents: claims.billedCents,
      serviceDate: claims.serviceDate,
    })
    .from(claims)
    .innerJoin(patients, eq(patients.id, claims.patientId))
    .where(eq(claims.status, 'Denied'))
    .orderBy(sql`${claims.adjudicatedOn} desc nulls last`, desc(claims.serviceDate), desc(claims.id))
    .limit(limit);
}

/**
 * The claim with this account number whose patient was born on `dob`, or null. Both must match in one
 * query, so an unknown account and a wrong date of birth take the same path (guest statements).
 * `forUpdate` locks the claim row for a payment against it.
 */
export async function findClaimByAccountAndDob(
  db: DbOrTx,
  accountNumber: string,
  dob: string,
  options: { forUpdate?: boolean } = {},
) {
  const query = db
    .select({
      id: claims.id,
      patientId: claims.patientId,
      accountNumber: claims.accountNumber,
      serviceDate: claims.serviceDate,
      procedureCode: claims.procedureCode,
      billedCents: claims.billedCents,
      paidCents: claims.paidCents,
      contractualAdjustmentCents: claims.contractualAdjustmentCents,
      patientResponsibilityCents: claims.patientResponsibilityCents,
    })
    .from(claims)
    .innerJoin(patients, eq(patients.id, claims.patientId))
    .where(and(eq(claims.accountNumber, accountNumber), eq(patients.dob, dob)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update', { of: claims }) : await query;
  return row ?? null;
}

/**
 * After a payment clears the patient's share: a Paid claim is resolved on `day`, and a self-pay claim
 * waiting on the patient (Pending) becomes Paid. The seed records settled claims the same way.
 */
export async function markPatientBalanceSettled(tx: Tx, claimId: number, day: string): Promise<void> {
  await tx
    .update(claims)
    .set({
      resolvedOn: day,
      status: sql`case when ${claims.payer} = 'Self-Pay' and ${claims.status} = 'Pending' then 'Paid' else ${claims.status} end`,
    })
    .where(
      and(
        eq(claims.id, claimId),
        isNull(claims.resolvedOn),
        or(eq(claims.status, 'Paid'), and(eq(claims.payer, 'Self-Pay'), eq(claims.status, 'Pending'))),
      ),
    );
}

/**
 * The signed-in patient's most recent claims (newest service date first) for the portal. The scope is the
 * session's linked patient, never anything the request carries; a user with no linked record gets none.
 * Paid counts the payer's payment and the patient's own payments on the claim.
 */
export async function listOwnRecentClaims(db: DbOrTx, ctx: RequestContext, limit: number) {
  const patientId = ctx.user.patientId;
  if (patientId === null) return [];
  const patientPaid = db
    .select({ claimId: payments.claimId, cents: sql<number>`sum(${payments.amountCents})::int`.as('cents') })
    .from(payments)
    .where(and(eq(payments.patientId, patientId), ne(payments.source, 'payer')))
    .groupBy(payments.claimId)
    .as('patient_paid');
  const rows = await db
    .select({
      id: claims.id,
      serviceDate: claims.serviceDate,
      procedure: claims.procedureCode,
      provider: providers.name,
      billedCents: claims.billedCents,
      paidCents: sql<number>`(${claims.paidCents} + coalesce(${patientPaid.cents}, 0))::int`,
      status: claims.status,
    })
    .from(claims)
    .innerJoin(providers, eq(providers.id, claims.providerId))
    .leftJoin(patientPaid, eq(patientPaid.claimId, claims.id))
    .where(eq(claims.patientId, patientId))
    .orderBy(desc(claims.serviceDate), desc(claims.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, status: claimStatusSchema.parse(row.status) }));
}
