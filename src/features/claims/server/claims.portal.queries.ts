// A patient's own claims: the portal's list and the guest statement's lookup and settlement.
import { and, desc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { RequestContext } from '@/server/context';
import type { DbOrTx, Tx } from '@/server/db/types';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';
import { claimStatusSchema } from '../claims.schema';
import { claims, payments } from './claims.table';
import { notVoidedSql } from './claims.summary.queries';

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
    .where(and(eq(claims.accountNumber, accountNumber), eq(patients.dob, dob), notVoidedSql))
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
    .where(and(eq(claims.patientId, patientId), notVoidedSql))
    .orderBy(desc(claims.serviceDate), desc(claims.id))
    .limit(limit);
  // Each field named: a spread with the status added is V8's slow copy (docs/performance.md).
  return rows.map((row) => ({
    id: row.id,
    serviceDate: row.serviceDate,
    procedure: row.procedure,
    provider: row.provider,
    billedCents: row.billedCents,
    paidCents: row.paidCents,
    status: claimStatusSchema.parse(row.status),
  }));
}
