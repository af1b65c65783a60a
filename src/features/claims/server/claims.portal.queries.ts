// A patient's own claims: the portal's list and the guest statement's lookup and settlement.
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { RequestContext } from '@/server/context';
import { executePrepared, literalLimit } from '@/server/db/prepared';
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
  // One named statement, its LIMIT in the text (docs/performance.md, "Planning the hot reads once"): planning
  // it took several times as long as running it, on every portal visit.
  const { rows } = await executePrepared<{
    id: number;
    serviceDate: string;
    procedure: string;
    provider: string;
    billedCents: number;
    paidCents: number;
    status: string;
  }>(
    db,
    sql`select c.id, c.service_date::text as "serviceDate", c.procedure_code as procedure, v.name as provider,
        c.billed_cents as "billedCents", (c.paid_cents + coalesce(patient_paid.cents, 0))::int as "paidCents", c.status
      from ${claims} c
      join ${providers} v on v.id = c.provider_id
      left join (select claim_id, sum(amount_cents)::int as cents from ${payments}
          where patient_id = ${patientId} and source <> 'payer' group by claim_id) patient_paid
        on patient_paid.claim_id = c.id
      where c.patient_id = ${patientId} and c.voided_at is null
      order by c.service_date desc, c.id desc ${literalLimit(limit)}`,
  );
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
