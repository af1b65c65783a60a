/**
 * The KPI formulas (docs/kpis.md), written once as SQL over figures a query has already summed: the KPI
 * engine's raw and rollup answers (analytics) and Payer Performance (billing) both compute them; and the
 * balance rule, which statements (billing) and outstanding A/R (analytics) both apply. They live in claims,
 * below both, because every figure they use is a count or sum of claims and their payments.
 *
 * A rate is a percentage rounded to one decimal; a ratio is rounded to one decimal; either is null when
 * its denominator is 0 ("No data").
 */
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { qualified } from '@/server/db/sql-helpers';
import { PAID_STATUSES, type PaymentSource } from '../claims.schema';
import { claims, payments } from './claims.table';

/** 100 × part ÷ whole, `decimals` decimals (one for KPIs); null when whole is 0. */
export function percentSql(part: SQL, whole: SQL, decimals = 1): SQL<number | null> {
  return sql<
    number | null
  >`round((100.0 * (${part}) / nullif(${whole}, 0))::numeric, ${sql.raw(String(decimals))})::float8`;
}

/** numerator ÷ denominator, one decimal; null when the denominator is 0. */
export function ratioSql(numerator: SQL, denominator: SQL): SQL<number | null> {
  return sql<number | null>`round(((${numerator})::numeric / nullif(${denominator}, 0))::numeric, 1)::float8`;
}

/** Days in A/R = outstanding A/R ÷ (charges billed in the period ÷ its days). */
export const daysInArSql = (outstanding: SQL, billed: SQL, days: number) =>
  ratioSql(outstanding, sql`(${billed}::numeric / ${days})`);

/** Clean Claim Rate = clean first submissions ÷ claims submitted in the period. */
export const cleanClaimRateSql = (clean: SQL, submitted: SQL) => percentSql(clean, submitted);

/** Denial Rate = claims denied on first adjudication ÷ claims adjudicated in the period. */
export const denialRateSql = (denied: SQL, adjudicated: SQL) => percentSql(denied, adjudicated);

/**
 * Net Collection Rate = (payer paid + patient payments received) ÷ (billed − contractual adjustment), over
 * the claims adjudicated in the period.
 */
export const netCollectionRateSql = (collected: SQL, collectible: SQL) => percentSql(collected, collectible);

/** First Pass Resolution Rate = claims resolved on their first submission ÷ claims adjudicated in the period. */
export const firstPassResolutionRateSql = (firstPass: SQL, adjudicated: SQL) => percentSql(firstPass, adjudicated);

/** Charge Capture Accuracy = encounters with charges captured ÷ completed encounters in the period. */
export const chargeCaptureAccuracySql = (captured: SQL, completed: SQL) => percentSql(captured, completed);

/**
 * Patient Payment Rate = patient payments received (at most each claim's share) ÷ patient responsibility,
 * over the claims adjudicated in the period.
 */
export const patientPaymentRateSql = (patientCollected: SQL, patientBilled: SQL) =>
  percentSql(patientCollected, patientBilled);

/** Operating Margin = (collections − operating expenses) ÷ collections; null while a month's expenses are missing. */
export const operatingMarginSql = (monthsMissing: SQL, collections: SQL, expenses: SQL) =>
  sql<number | null>`case when ${monthsMissing} > 0 then null
        else ${percentSql(sql`${collections} - ${expenses}`, collections)} end`;

/** Billing Productivity = claims submitted ÷ billing staff hours in the period. */
export const billingProductivitySql = (submitted: SQL, hours: SQL) => ratioSql(submitted, hours);

/** Payments that pay down the patient's own share; payer remittances are already in claims.paid_cents. */
export const PATIENT_SIDE_SOURCES = ['patient', 'guest'] as const satisfies readonly PaymentSource[];

/**
 * The patient-side sources written into the text rather than bound: constants of the code, and bound values
 * would leave a prepared list's generic plan guessing at their share of the payments (executePrepared).
 */
export const PATIENT_SIDE_SOURCES_SQL = sql.raw(PATIENT_SIDE_SOURCES.map((source) => `'${source}'`).join(', '));

/**
 * THE BALANCE RULE, defined here once for every screen that shows what a patient owes:
 *
 *   amount due of a claim = claims.patient_responsibility_cents
 *                           − the sum of its payments whose source is 'patient' or 'guest'
 *                           never below 0; and 0 while the claim's balance is billed to the patient's next
 *                           policy (then that share is insurance pending, billedToNextPolicySql below).
 *
 * patient_responsibility_cents is what the payer moved to the patient (deductible, coinsurance, copay:
 * PR-1/2/3), or for self-pay the charge less the self-pay discount. Payer payments (source 'payer') are
 * reflected in claims.paid_cents and never reduce the patient's share. An overpayment does not make the
 * balance negative (it would be a refund, not a credit on this claim).
 *
 * Returns both parts as SQL over a claim's id and responsibility columns (or values), so lists can
 * compute balances in the database.
 */
export function claimBalanceSql(claimId: AnyPgColumn | number, responsibility: AnyPgColumn | number) {
  const ref = (v: AnyPgColumn | number) => (typeof v === 'number' ? sql`${v}::int` : qualified(v));
  const patientPaid = sql<number>`(select coalesce(sum(${payments.amountCents}), 0)::int from ${payments}
    where ${payments.claimId} = ${ref(claimId)}
    and ${payments.source} in (${PATIENT_SIDE_SOURCES_SQL}))`;
  const share = sql`greatest(0, ${ref(responsibility)} - ${patientPaid})`;
  const handedOn = billedToNextPolicySql(claimId);
  return {
    patientPaidCents: patientPaid,
    amountDueCents: sql<number>`(case when ${handedOn} then 0 else ${share} end)::int`,
    /** The patient's share billed to the patient's next policy instead (docs/statements.md): 0 for other claims. */
    billedToNextPolicyCents: sql<number>`(case when ${handedOn} then ${share} else 0 end)::int`,
  };
}

/**
 * Whether the claim's balance was billed to the patient's next policy: a claim not voided bills after it
 * (claims.primary_claim_id, docs/x12-837.md "After another payer"). The patient's share then waits for that payer,
 * and what the patient owes in the end is that claim's own patient responsibility: asking for this one's as well
 * would bill the patient twice. One probe of the small partial index on primary_claim_id.
 */
function billedToNextPolicySql(claimId: AnyPgColumn | number): SQL {
  const ref = typeof claimId === 'number' ? sql`${claimId}::int` : qualified(claimId);
  return sql`exists (select 1 from claims later where later.primary_claim_id = ${ref} and later.voided_at is null)`;
}

/** Statuses in which the payer is done with a claim: what it neither paid nor moved to the patient is adjusted off. */
export const PAYER_SETTLED_STATUSES = [...PAID_STATUSES, 'Written Off'] as const;

/** PAID_STATUSES as an SQL list, for `status in (…)`: constants, so a prepared statement's plan sees them. */
export const PAID_STATUSES_SQL = sql.raw(PAID_STATUSES.map((status) => `'${status}'`).join(', '));

/**
 * THE STATEMENT BREAKDOWN (docs/statements.md): every billed dollar of a claim is in exactly one column,
 *
 *   billed = insurance paid + contractual adjustment + other adjustment + insurance pending
 *            + patient paid + amount due
 *
 * insurance paid and the contractual adjustment (billed − allowed, CO-45; the self-pay discount) are stored
 * on the claim; patient paid and amount due come from the balance rule above. What is left of the charge,
 * billed − insurance paid − contractual − patient responsibility, is an other adjustment once the payer is
 * done with the claim (a denial written off, a payer reduction on a paid claim) and insurance pending while
 * it is not (not yet submitted or adjudicated, denied and being worked, appealed, partially paid).
 */
export function claimStatementSql(claim: {
  id: AnyPgColumn;
  billedCents: AnyPgColumn;
  paidCents: AnyPgColumn;
  contractualAdjustmentCents: AnyPgColumn;
  patientResponsibilityCents: AnyPgColumn;
  status: AnyPgColumn;
}) {
  const remainder = sql`(${qualified(claim.billedCents)} - ${qualified(claim.paidCents)} - ${qualified(
    claim.contractualAdjustmentCents,
  )} - ${qualified(claim.patientResponsibilityCents)})`;
  const settled = sql`${qualified(claim.status)} in (${sql.join(
    PAYER_SETTLED_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  )})`;
  // A patient's share billed to their next policy is that payer's to answer: insurance pending, not due.
  const { billedToNextPolicyCents } = claimBalanceSql(claim.id, claim.patientResponsibilityCents);
  return {
    otherAdjustmentCents: sql<number>`(case when ${settled} then ${remainder} else 0 end)::int`,
    insurancePendingCents: sql<number>`((case when ${settled} then 0 else ${remainder} end) + ${billedToNextPolicyCents})::int`,
  };
}

/**
 * WHAT IS LEFT OF A CLAIM'S CHARGE for its payer and the patient to settle, before patient payments:
 *
 *   billed − paid by the payer − the larger of (contractual adjustment, the earlier payers' part)
 *          − the part handed on to the patient's next policy
 *
 * A visit billed to two policies is two claims with the same charge (docs/x12-837.md "After another payer"); this
 * counts what is owed on it once. The first claim's balance, once the next policy is billed for it, is that
 * claim's (handed_on_cents); the new claim owes only what the earlier payers left (prior_payers_cents is what they
 * settled), until its own payer answers and reports that part as CARC 23 in its contractual adjustment: hence the
 * larger of the two, not their sum. Both are 0 on a claim billed to one policy, where this is billed − paid −
 * contractual. The rollups' SQL (analytics_rollup_delta_sql) writes the same expression over its rows' columns.
 */
export function claimChargeLeftSql(): SQL<number> {
  return sql<number>`(${claims.billedCents} - ${claims.paidCents}
    - greatest(${claims.contractualAdjustmentCents}, ${claims.priorPayersCents}) - ${claims.handedOnCents})`;
}

/**
 * What of a claim's charge its payer and patient are expected to pay (Net Collection Rate's collectible, docs/kpis.md):
 * the charge less the contractual adjustment, or what the earlier payers settled if more, and less what it handed on
 * to the patient's next policy, whose claim counts that part: billed − max(contractual, earlier payers') − handed on.
 */
export function claimCollectibleSql(): SQL<number> {
  return sql<number>`(${claims.billedCents} - greatest(${claims.contractualAdjustmentCents}, ${claims.priorPayersCents})
    - ${claims.handedOnCents})`;
}

/**
 * The patient's share a claim asks of the patient (Patient Payment Rate's patient billed, docs/kpis.md): its patient
 * responsibility, less what it handed on to the patient's next policy (the last payer's claim then says the share).
 */
export function claimPatientBilledSql(): SQL<number> {
  return sql<number>`greatest(0, ${claims.patientResponsibilityCents} - ${claims.handedOnCents})`;
}

/**
 * A CLAIM'S BALANCE (the Claims list's "Balance"): what is still owed on it by anyone,
 *
 *   what is left of its charge (claimChargeLeftSql) − patient payments received (patient and guest)
 *
 * never below 0, and 0 once the claim is resolved (resolved_on set), written off or voided. It is the claim's
 * share of outstanding A/R (analytics), counted for Drafts too, which are owed once submitted.
 * Columns are written as "claims"."…", so use it in a query over the claims table (not an alias).
 */
export function claimOpenBalanceSql(): SQL<number> {
  return sql<number>`(case when ${claims.resolvedOn} is not null then 0 else ${claimBalanceLeftSql()} end)::int`;
}

/**
 * claimOpenBalanceSql before the claim's resolved day is taken into account: what its ledger and payments leave
 * owed. Whether a claim is resolved is decided from it (a posting's resolve and a reversal's reopen), which the
 * open balance, 0 for a resolved claim, cannot tell.
 */
export function claimBalanceLeftSql(): SQL<number> {
  const { patientPaidCents } = claimBalanceSql(claims.id, claims.patientResponsibilityCents);
  return sql<number>`(case when ${claims.status} = 'Written Off' or ${claims.voidedAt} is not null then 0
    else greatest(0, ${claimChargeLeftSql()} - ${patientPaidCents}) end)::int`;
}
