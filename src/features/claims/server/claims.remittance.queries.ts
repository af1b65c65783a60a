/**
 * What a remittance's posting writes on claims (docs/remittances.md): the claim's aggregate columns, set to the
 * sums of its ledger in the posting's transaction so that the rollup triggers keep A/R, the KPIs, statements and
 * the portal exact, and the payer payments that collections count. The remittances feature computes the figures;
 * claims owns the rows.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '@/server/db/types';
import type { ClaimStatus } from '../claims.schema';
import { claimBalanceLeftSql, PAID_STATUSES_SQL } from './claims.formulas';

export interface PostedClaimTotals {
  claimId: number;
  paidCents: number;
  contractualAdjustmentCents: number;
  patientResponsibilityCents: number;
  status: ClaimStatus;
  /** Group and CARC, e.g. CO-197; null when nothing but contractual or patient adjustments remain. */
  reasonCode: string | null;
  remarkCode: string | null;
  denialDescription: string | null;
  /** The remittance's day: becomes the claim's adjudication day if it has none yet. */
  adjudicatedOn: string;
  /** A first adjudication that is a denial (kept once set: later appeals do not change the fact). */
  deniedOnFirstAdjudication: boolean;
}

/**
 * Writes each claim's totals in one statement (the rollup triggers see one transition table), then dates the
 * claims whose balance reached zero as resolved on the remittance's day and reopens those a reversal left owing
 * (a paid claim resolved is Closed, docs/claims.md), and the claims they were billed after with them.
 */
export async function applyPostedClaimTotals(tx: Tx, totals: readonly PostedClaimTotals[], day: string): Promise<void> {
  if (totals.length === 0) return;
  const payload = JSON.stringify(totals);
  await tx.execute(sql`update claims c set paid_cents = x."paidCents",
      contractual_adjustment_cents = x."contractualAdjustmentCents",
      patient_responsibility_cents = x."patientResponsibilityCents", status = x.status, reason_code = x."reasonCode",
      remark_code = x."remarkCode", denial_description = x."denialDescription",
      adjudicated_on = coalesce(c.adjudicated_on, x."adjudicatedOn"),
      denied_on_first_adjudication = case when c.adjudicated_on is null then x."deniedOnFirstAdjudication"
        else c.denied_on_first_adjudication end
    from jsonb_to_recordset(${payload}::jsonb) as x("claimId" int, "paidCents" int, "contractualAdjustmentCents" int,
      "patientResponsibilityCents" int, status text, "reasonCode" text, "remarkCode" text, "denialDescription" text,
      "adjudicatedOn" date, "deniedOnFirstAdjudication" boolean)
    where c.id = x."claimId"`);
  const ids = sql`${`{${totals.map((t) => t.claimId).join(',')}}`}::int[]`;
  await tx.execute(sql`update claims set resolved_on = case when ${claimBalanceLeftSql()} = 0 then ${day}::date end
    where id = any(${ids})
      and (resolved_on is null) = (${claimBalanceLeftSql()} = 0)`);
  // A visit billed on to the patient's next policy (claims.primary_claim_id): the first claim handed its balance on,
  // so it is settled when the later claim is, resolved (Closed) on the same day, and reopened with it by a reversal.
  await tx.execute(sql`update claims set resolved_on = later.resolved_on
    from claims later
    where later.id = any(${ids}) and later.primary_claim_id = claims.id and later.voided_at is null
      and claims.voided_at is null and claims.status in (${PAID_STATUSES_SQL})
      and ${claimBalanceLeftSql()} = 0
      and (claims.resolved_on is null) = (later.resolved_on is not null)`);
}

export interface PayerPayment {
  claimId: number;
  patientId: number;
  /** Negative for a reversal. */
  amountCents: number;
  receivedOn: string;
  reference: string;
}

/** The payer's payments (source 'payer'), one per claim posting: collections and Payer Performance count them. */
export async function insertPayerPayments(
  tx: Tx,
  actor: { userId: number | null; now: Date },
  rows: readonly PayerPayment[],
): Promise<void> {
  const paying = rows.filter((r) => r.amountCents !== 0);
  if (paying.length === 0) return;
  // created_at from the app's clock, never the column's default (the database's now()).
  await tx.execute(sql`insert into payments (patient_id, claim_id, amount_cents, source, received_on, reference, created_by,
      created_at)
    select x."patientId", x."claimId", x."amountCents", 'payer', x."receivedOn", x.reference, ${actor.userId}::int,
      ${actor.now.toISOString()}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(paying)}::jsonb)
      as x("patientId" int, "claimId" int, "amountCents" int, "receivedOn" date, reference text)`);
}
