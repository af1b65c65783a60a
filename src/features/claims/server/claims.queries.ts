import { and, desc, eq, ilike, ne, or, sql } from 'drizzle-orm';
import type { RequestContext } from '@/server/context';
import type { Db, DbOrTx } from '@/server/db/types';
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
