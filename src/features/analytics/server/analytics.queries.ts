/**
 * The revenue-cycle KPI engine. Every number is aggregated by
 * PostgreSQL from stored facts; nothing is loaded into JavaScript to be counted. The formulas are written
 * beside each piece of SQL and, with the cohorts they use, in docs/kpis.md.
 *
 * A period of N days ends today (the server's calendar day) and starts N − 1 days earlier, both included.
 * A KPI whose denominator is zero is null ("No data"). Rates are percentages; KPIs are rounded to one
 * decimal, AR aging percentages to two.
 */
import { DENIAL_DESCRIPTIONS } from '@/features/claims/claims.schema';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { today } from '@/shared/api';
import { periodEndingToday, type Period } from '@/shared/period';
import { actorOf, listReadEntry, recordNow } from '@/features/audit/server/audit.queries';
import {
  billingProductivitySql,
  claimBalanceSql,
  claimChargeLeftSql,
  chargeCaptureAccuracySql,
  cleanClaimRateSql,
  daysInArSql,
  denialRateSql,
  firstPassResolutionRateSql,
  netCollectionRateSql,
  claimCollectibleSql,
  claimPatientBilledSql,
  operatingMarginSql,
  PAID_STATUSES_SQL,
  patientPaymentRateSql,
  percentSql,
} from '@/features/claims/server/claims.formulas';
import {
  capturedChargeSql,
  deniedClaimSql,
  denialReasonSql,
  notVoidedSql,
} from '@/features/claims/server/claims.summary.queries';
import { claims, payments } from '@/features/claims/server/claims.table';
import { providers } from '@/features/providers/server/providers.table';
import { appointments } from '@/features/appointments/server/appointments.table';
import { patients } from '@/features/patients/server/patients.table';
import {
  analyticsArDaily,
  analyticsArProvider,
  analyticsDaily,
  analyticsDenialsDaily,
  analyticsVisitsDaily,
} from './analytics.rollup.table';
import { billingStaffHours, operatingExpenses } from './analytics.table';
import type { RequestContext } from '@/server/context';
import type { Db, DbOrTx } from '@/server/db/types';
import {
  AR_AGING_BUCKETS,
  MISSED_CHARGE_VISITS_LIMIT,
  type MissedChargeVisit,
  type MissedChargeVisits,
  type ArAging,
  type DenialsByReason,
  type KpiExportAudit,
  type KpiResult,
  type ProviderAnalytics,
} from '../analytics.schema';

// ---------------------------------------------------------------------------------------------
// Definitions shared with other features. Each is written once, here.

/** Statuses of a claim that stands denied and still needs action (an appeal decision or a write-off). */
const OPEN_DENIAL_STATUSES = sql`('Denied', 'Appealed')`;

/**
 * OUTSTANDING A/R, defined once and used by Days in A/R, AR aging, provider Days in A/R and Revenue at
 * Risk. A claim is an open receivable when it has been submitted, is not resolved (resolved_on is null)
 * and is not Written Off: a submitted claim reopened as a Draft (to be corrected, or voided at the payer) is
 * still owed until the payer answers. Its outstanding amount is
 *
 *   what is left of its charge (claimChargeLeftSql) − patient payments received (patient and guest)
 *
 * never below 0: a visit billed to two policies counts once. Denied and appealed claims stay in A/R until
 * paid or written off; a patient share not yet paid is A/R too. Patient payments follow the balance rule
 * (claimBalanceSql).
 *
 * Returns a SELECT of (claim_id, provider_id, service_date, status, outstanding_cents), one row per open
 * receivable with something outstanding, for use as a CTE.
 */
export function outstandingArRowsSql(): SQL {
  const { patientPaidCents } = claimBalanceSql(claims.id, claims.patientResponsibilityCents);
  return sql`select claim_id, provider_id, service_date, status, outstanding_cents from (
    select ${claims.id} as claim_id, ${claims.providerId} as provider_id, ${claims.serviceDate} as service_date,
      ${claims.status} as status,
      greatest(0, ${claimChargeLeftSql()} - ${patientPaidCents})::bigint as outstanding_cents
    from ${claims}
    where ${claims.resolvedOn} is null and ${claims.submittedOn} is not null and ${notVoidedSql}
      and ${claims.status} <> 'Written Off'
  ) receivable where outstanding_cents > 0`;
}

/** Patient-side payments received on the claim of the current row, as a lateral join named `pp`. */
function patientPaidLateral(): SQL {
  const { patientPaidCents } = claimBalanceSql(claims.id, claims.patientResponsibilityCents);
  return sql`cross join lateral (select ${patientPaidCents} as patient_paid) pp`;
}

function between(column: AnyPgColumn, period: Period): SQL {
  return sql`${column} between ${period.start}::date and ${period.end}::date`;
}

/**
 * A completed visit's charges are captured when a claim bills the patient for that day (any claim: its
 * status and a void are not read). The claims of a patient are indexed by (patient, service date), so each
 * visit is one index probe. The visits rollup counts by the same rule (analytics_visits_daily_sql, migration
 * 0036); analytics.rollup.test.ts holds them equal.
 */
function visitBilledSql(): SQL {
  return sql`exists (select 1 from ${claims} where ${claims.patientId} = ${appointments.patientId}
    and ${claims.serviceDate} = ${appointments.date})`;
}

/**
 * Charge Capture Accuracy's counts from the raw tables: completed visits (appointments with status
 * Completed) dated in the period, and those billed (visitBilledSql). The raw reference; the endpoint reads
 * them from analytics_visits_daily (computeKpis).
 */
function chargeCaptureVisitsSql(period: Period): SQL {
  return sql`select count(*)::int as completed, (count(*) filter (where ${visitBilledSql()}))::int as captured
      from ${appointments} where ${appointments.status} = 'Completed' and ${between(appointments.date, period)}`;
}

/** Charge capture's counts per day, as the visits rollup holds them (days with any completed visit). */
export interface VisitsOfDay {
  day: string;
  completed: number;
  captured: number;
}

/**
 * Completed and billed visits per day counted from the raw tables by visitBilledSql: what the visits rollup
 * must hold, day by day (analytics.rollup.test.ts; a KPI's rounded percentage could hide a wrong count).
 */
export async function visitsByDayRaw(db: DbOrTx): Promise<VisitsOfDay[]> {
  const result = await db.execute<VisitsOfDay & Record<string, unknown>>(sql`
    select ${appointments.date}::text as day, count(*)::int as completed,
      (count(*) filter (where ${visitBilledSql()}))::int as captured
    from ${appointments} where ${appointments.status} = 'Completed'
    group by ${appointments.date} order by ${appointments.date}`);
  return result.rows;
}

/** The visits rollup's days with a completed visit (a day left with none keeps a row of zeros). */
export async function visitsByDay(db: DbOrTx): Promise<VisitsOfDay[]> {
  const v = analyticsVisitsDaily;
  const result = await db.execute<VisitsOfDay & Record<string, unknown>>(sql`
    select ${v.day}::text as day, ${v.completed}::int as completed, ${v.captured}::int as captured
    from ${v} where ${v.completed} <> 0 or ${v.captured} <> 0 order by ${v.day}`);
  return result.rows;
}

/** Completed visits of the period with no claim (missed charges), newest first: Charge Capture's drill-down. */
async function listMissedChargeVisits(db: DbOrTx, period: Period): Promise<MissedChargeVisit[]> {
  const rows = await db
    .select({
      appointmentId: appointments.id,
      date: appointments.date,
      time: appointments.time,
      patientId: appointments.patientId,
      patientName: patients.name,
      provider: providers.name,
      reason: appointments.reason,
    })
    .from(appointments)
    .innerJoin(patients, eq(patients.id, appointments.patientId))
    .innerJoin(providers, eq(providers.id, appointments.providerId))
    .where(and(eq(appointments.status, 'Completed'), between(appointments.date, period), sql`not ${visitBilledSql()}`))
    .orderBy(desc(appointments.date), desc(appointments.time), desc(appointments.id))
    .limit(MISSED_CHARGE_VISITS_LIMIT);
  return rows;
}

/** The drill-down names patients: read, then audited as a PHI read, then answered. */
export async function getMissedChargeVisits(
  db: Db,
  ctx: RequestContext,
  periodDays: number,
): Promise<MissedChargeVisits> {
  const period = periodEndingToday(ctx.now, periodDays);
  const visits = await listMissedChargeVisits(db, period);
  // Like every PHI list page (docs/audit.md): the query and the patients it showed.
  const entry = listReadEntry(
    'analytics.missed_charges.view',
    '/api/claims/analytics/kpis/charge-capture/missed',
    { periodDays },
    visits.map((visit) => visit.patientId),
  );
  await recordNow(db, { ...actorOf(ctx), ...entry });
  return { periodDays: period.days, periodStart: period.start, periodEnd: period.end, visits };
}

// ---------------------------------------------------------------------------------------------
// THE RAW REFERENCE. The endpoints answer from the rollups (further down in this file); these functions
// compute the same answers from the raw tables and are the definition the rollups are tested against.

// ---------------------------------------------------------------------------------------------
// KPI result

interface KpiRow {
  avg_days_ar: number | null;
  clean_claim_rate: number | null;
  denial_rate: number | null;
  net_collection_rate: number | null;
  first_pass_resolution_rate: number | null;
  charge_capture_accuracy: number | null;
  patient_payment_rate: number | null;
  operating_margin: number | null;
  billing_cycle_time: number | null;
  billing_productivity: number | null;
  total_claims: number;
  paid_claims: number;
  denied_claims: number;
  total_paid_cents: string;
  total_billed_cents: string;
  revenue_lost_cents: string;
  outstanding_ar_cents: string;
  open_denials_cents: string;
}

/**
 * Every KPI of the period in one statement (one consistent snapshot). Cohorts (docs/kpis.md):
 * - charges: claims with service_date in the period, each visit's charge once (capturedChargeSql);
 * - submitted: claims with submitted_on in the period;
 * - adjudicated: claims with adjudicated_on in the period (when the payer's answer, the contractual
 *   adjustment and the patient responsibility are known), with the payments received on them to date;
 * - collections: payments (payer, patient, guest) with received_on in the period;
 * - outstanding A/R: as of today (outstandingArRowsSql).
 */
export async function computeKpisRaw(db: DbOrTx, period: Period): Promise<KpiResult> {
  const n = period.days;
  const result = await db.execute<KpiRow & Record<string, unknown>>(sql`
    with
    open_ar as (${outstandingArRowsSql()}),
    -- Charges: every claim whose service date falls in the period, a visit billed to two policies once.
    -- Of those claims, how many stand paid (in full or in part) and how many were denied (docs/kpis.md).
    charges as (
      select count(*)::int as total_claims,
        count(*) filter (where ${claims.status} in (${PAID_STATUSES_SQL}, 'Partially Paid'))::int as paid_claims,
        count(*) filter (where ${deniedClaimSql})::int as denied_claims,
        coalesce(sum(${claims.billedCents}), 0)::bigint as billed_cents
      from ${claims} where ${between(claims.serviceDate, period)} and ${notVoidedSql} and ${capturedChargeSql}
    ),
    submitted as (
      select count(*)::int as submitted,
        count(*) filter (where ${claims.cleanSubmission})::int as clean,
        avg(${claims.submittedOn} - ${claims.serviceDate})::float8 as cycle_days
      from ${claims} where ${between(claims.submittedOn, period)} and ${notVoidedSql}
    ),
    adjudicated as (
      select count(*)::int as adjudicated,
        count(*) filter (where ${deniedClaimSql})::int as denied,
        -- Resolved on the first submission: accepted clean, not denied, and the adjudication accounted for
        -- the whole charge (payer paid + contractual adjustment + patient responsibility = billed).
        count(*) filter (where ${claims.cleanSubmission} and not ${deniedClaimSql}
          and ${claims.paidCents} + ${claims.contractualAdjustmentCents} + ${claims.patientResponsibilityCents}
              >= ${claims.billedCents})::int as first_pass,
        coalesce(sum(${claims.paidCents} + pp.patient_paid), 0)::bigint as collected,
        coalesce(sum(${claimCollectibleSql()}), 0)::bigint as collectible,
        coalesce(sum(least(pp.patient_paid, ${claimPatientBilledSql()})), 0)::bigint as patient_collected,
        coalesce(sum(${claimPatientBilledSql()}), 0)::bigint as patient_billed
      from ${claims} ${patientPaidLateral()}
      where ${between(claims.adjudicatedOn, period)} and ${notVoidedSql}
    ),
    -- Collections: every payment received in the period (payer remittances and patient payments).
    collections as (
      select coalesce(sum(${payments.amountCents}), 0)::bigint as collected
      from ${payments} where ${between(payments.receivedOn, period)}
    ),
    -- Expenses are stored per month: each month that overlaps the period counts for the share of its days
    -- inside the period (amount × days in period ÷ days in month). A month with no row makes the margin null.
    months as (
      select m::date as month,
        (least(${period.end}::date, (m + interval '1 month - 1 day')::date)
          - greatest(${period.start}::date, m::date) + 1)::numeric
        / ((m + interval '1 month')::date - m::date) as share
      from generate_series(date_trunc('month', ${period.start}::date), date_trunc('month', ${period.end}::date),
        interval '1 month') m
    ),
    expenses as (
      select count(*) filter (where e.amount_cents is null)::int as months_missing,
        coalesce(sum(e.amount_cents * months.share), 0)::float8 as prorated_cents
      from months left join ${operatingExpenses} e on e.month = months.month
    ),
    hours as (
      select coalesce(sum(${billingStaffHours.hours}), 0)::float8 as hours
      from ${billingStaffHours} where ${between(billingStaffHours.day, period)}
    ),
    visits as (${chargeCaptureVisitsSql(period)}),
    receivables as (
      select coalesce(sum(outstanding_cents), 0)::bigint as outstanding,
        coalesce(sum(outstanding_cents) filter (where status in ${OPEN_DENIAL_STATUSES}), 0)::bigint as open_denials
      from open_ar
    ),
    -- Revenue lost: what was written off on claims written off in the period (not contractual adjustments).
    written_off as (
      select coalesce(sum(greatest(0, ${claimChargeLeftSql()} - pp.patient_paid)), 0)::bigint as lost
      from ${claims} ${patientPaidLateral()}
      where ${claims.status} = 'Written Off' and ${between(claims.resolvedOn, period)} and ${notVoidedSql}
    )
    select
      -- Days in A/R = outstanding A/R ÷ (charges in the period ÷ N)
      ${daysInArSql(sql`receivables.outstanding`, sql`charges.billed_cents`, n)} as avg_days_ar,
      -- Clean Claim Rate = clean first submissions ÷ claims submitted in the period
      ${cleanClaimRateSql(sql`submitted.clean`, sql`submitted.submitted`)} as clean_claim_rate,
      -- Denial Rate = denied on first adjudication ÷ claims adjudicated in the period
      ${denialRateSql(sql`adjudicated.denied`, sql`adjudicated.adjudicated`)} as denial_rate,
      -- Net Collection Rate = (payer paid + patient payments received) ÷ (billed − contractual adjustment),
      -- claims adjudicated in the period
      ${netCollectionRateSql(sql`adjudicated.collected`, sql`adjudicated.collectible`)} as net_collection_rate,
      -- First Pass Resolution Rate = resolved on first submission ÷ claims adjudicated in the period
      ${firstPassResolutionRateSql(sql`adjudicated.first_pass`, sql`adjudicated.adjudicated`)} as first_pass_resolution_rate,
      -- Charge Capture Accuracy = completed visits billed ÷ completed visits in the period
      ${chargeCaptureAccuracySql(sql`visits.captured`, sql`visits.completed`)} as charge_capture_accuracy,
      -- Patient Payment Rate = patient payments received (at most each claim's share) ÷ patient
      -- responsibility, claims adjudicated in the period
      ${patientPaymentRateSql(sql`adjudicated.patient_collected`, sql`adjudicated.patient_billed`)} as patient_payment_rate,
      -- Operating Margin = (collections − prorated operating expenses) ÷ collections
      ${operatingMarginSql(sql`expenses.months_missing`, sql`collections.collected`, sql`expenses.prorated_cents`)} as operating_margin,
      -- Billing Cycle Time = average days from service date to submission, claims submitted in the period
      round(submitted.cycle_days::numeric, 1)::float8 as billing_cycle_time,
      -- Billing Productivity = claims submitted ÷ billing staff hours in the period
      ${billingProductivitySql(sql`submitted.submitted`, sql`hours.hours`)} as billing_productivity,
      charges.total_claims, charges.paid_claims, charges.denied_claims,
      collections.collected as total_paid_cents,
      charges.billed_cents as total_billed_cents,
      written_off.lost as revenue_lost_cents,
      receivables.outstanding as outstanding_ar_cents,
      receivables.open_denials as open_denials_cents
    from charges, submitted, adjudicated, collections, expenses, hours, visits, receivables, written_off
  `);
  const row = result.rows[0];
  if (!row) throw new Error('the KPI query returned no row');
  const outstandingArCents = Number(row.outstanding_ar_cents);
  return {
    periodDays: period.days,
    periodStart: period.start,
    periodEnd: period.end,
    avgDaysAR: row.avg_days_ar,
    cleanClaimRate: row.clean_claim_rate,
    denialRate: row.denial_rate,
    netCollectionRate: row.net_collection_rate,
    firstPassResolutionRate: row.first_pass_resolution_rate,
    chargeCaptureAccuracy: row.charge_capture_accuracy,
    patientPaymentRate: row.patient_payment_rate,
    operatingMargin: row.operating_margin,
    billingCycleTime: row.billing_cycle_time,
    billingProductivity: row.billing_productivity,
    totalClaims: row.total_claims,
    paidClaims: row.paid_claims,
    deniedClaims: row.denied_claims,
    totalPaidCents: Number(row.total_paid_cents),
    totalBilledCents: Number(row.total_billed_cents),
    revenueLostCents: Number(row.revenue_lost_cents),
    // Open denials are part of outstanding A/R, so they are counted once.
    revenueAtRiskCents: outstandingArCents,
    outstandingArCents,
    openDenialsCents: Number(row.open_denials_cents),
  };
}

// ---------------------------------------------------------------------------------------------
// AR aging

/**
 * Outstanding A/R as of today by age (days since the service date): 0–30, 31–60, 61–90, 91–120, 120+.
 * Each bucket's percentage is of the total outstanding (two decimals; all 0 when nothing is outstanding).
 */
export async function computeArAgingRaw(db: DbOrTx, now: Date): Promise<ArAging> {
  const asOf = today(now);
  const order = sql.join(
    AR_AGING_BUCKETS.map((bucket, i) => sql`(${bucket}, ${i})`),
    sql`, `,
  );
  const result = await db.execute<{ bucket: string; amount_cents: string; percent: number | null }>(sql`
    with open_ar as (${outstandingArRowsSql()}),
    aged as (
      select case
          when ${asOf}::date - service_date <= 30 then '0-30'
          when ${asOf}::date - service_date <= 60 then '31-60'
          when ${asOf}::date - service_date <= 90 then '61-90'
          when ${asOf}::date - service_date <= 120 then '91-120'
          else '120+' end as bucket,
        outstanding_cents
      from open_ar
    ),
    totals as (
      select b.bucket, b.ord, coalesce(sum(aged.outstanding_cents), 0)::bigint as amount_cents
      from (values ${order}) as b(bucket, ord) left join aged on aged.bucket = b.bucket
      group by b.bucket, b.ord
    )
    select bucket, amount_cents,
      ${percentSql(sql`amount_cents`, sql`sum(amount_cents) over ()`, 2)} as percent
    from totals order by ord
  `);
  const buckets = result.rows.map((row) => ({
    bucket: row.bucket as ArAging['buckets'][number]['bucket'],
    amountCents: Number(row.amount_cents),
    percent: row.percent ?? 0,
  }));
  return { asOf, totalCents: buckets.reduce((sum, b) => sum + b.amountCents, 0), buckets };
}

// ---------------------------------------------------------------------------------------------
// Provider analytics

/**
 * Per provider, the clinic's own formulas restricted to that provider's claims:
 * - claimCount: claims with a service date in the period;
 * - totalCollectionsCents: payments received in the period on the provider's claims;
 * - collectionRate: Net Collection Rate of the provider's claims adjudicated in the period;
 * - avgDaysAR: Days in A/R = the provider's outstanding A/R ÷ (its charges in the period ÷ N).
 * Sorted by collections, highest first (then by name).
 */
export async function computeProviderAnalyticsRaw(db: DbOrTx, period: Period): Promise<ProviderAnalytics> {
  const result = await db.execute<{
    provider: string;
    claim_count: number;
    total_collections_cents: string;
    collection_rate: number | null;
    avg_days_ar: number | null;
  }>(sql`
    with open_ar as (${outstandingArRowsSql()}),
    charges as (
      select ${claims.providerId} as provider_id, count(*)::int as claim_count,
        sum(${claims.billedCents})::bigint as billed_cents
      from ${claims} where ${between(claims.serviceDate, period)} and ${notVoidedSql} and ${capturedChargeSql}
      group by ${claims.providerId}
    ),
    collections as (
      select ${claims.providerId} as provider_id, sum(${payments.amountCents})::bigint as collected
      from ${payments} join ${claims} on ${claims.id} = ${payments.claimId}
      where ${between(payments.receivedOn, period)} group by ${claims.providerId}
    ),
    adjudicated as (
      select ${claims.providerId} as provider_id,
        sum(${claims.paidCents} + pp.patient_paid)::bigint as collected,
        sum(${claimCollectibleSql()})::bigint as collectible
      from ${claims} ${patientPaidLateral()}
      where ${between(claims.adjudicatedOn, period)} and ${notVoidedSql} group by ${claims.providerId}
    ),
    receivables as (
      select provider_id, sum(outstanding_cents)::bigint as outstanding from open_ar group by provider_id
    )
    select p.name as provider,
      coalesce(charges.claim_count, 0) as claim_count,
      coalesce(collections.collected, 0)::bigint as total_collections_cents,
      ${netCollectionRateSql(sql`adjudicated.collected`, sql`adjudicated.collectible`)} as collection_rate,
      ${daysInArSql(sql`coalesce(receivables.outstanding, 0)`, sql`charges.billed_cents`, period.days)} as avg_days_ar
    from ${providers} p
      left join charges on charges.provider_id = p.id
      left join collections on collections.provider_id = p.id
      left join adjudicated on adjudicated.provider_id = p.id
      left join receivables on receivables.provider_id = p.id
    order by total_collections_cents desc, p.name
  `);
  return result.rows.map((row) => ({
    provider: row.provider,
    claimCount: row.claim_count,
    totalCollectionsCents: Number(row.total_collections_cents),
    collectionRate: row.collection_rate,
    avgDaysAR: row.avg_days_ar,
  }));
}

// ---------------------------------------------------------------------------------------------
// Denials by reason

/**
 * Denied claims (first adjudication a denial) adjudicated in the period, counted by CARC reason, most
 * frequent first; CO-45 and PR-* are never listed. The counts add up to the Denial Rate's numerator
 * (when every denied claim carries its denial code).
 */
export async function computeDenialsByReasonRaw(db: DbOrTx, period: Period): Promise<DenialsByReason> {
  const result = await db.execute<{ reason: string; count: number; stored_description: string | null }>(sql`
    select ${claims.reasonCode} as reason, count(*)::int as count,
      mode() within group (order by ${claims.denialDescription}) as stored_description
    from ${claims}
    where ${deniedClaimSql} and ${denialReasonSql} and ${between(claims.adjudicatedOn, period)} and ${notVoidedSql}
    group by ${claims.reasonCode}
    order by count desc, reason
  `);
  return result.rows.map((row) => ({
    reason: row.reason,
    description: DENIAL_DESCRIPTIONS[row.reason] ?? row.stored_description ?? 'Other denial reason',
    count: row.count,
  }));
}

// ---------------------------------------------------------------------------------------------
// THE ENDPOINTS' ANSWERS, from the rollups (analytics.rollup.table.ts, kept exact in the same transaction
// as every write by the triggers of migration 0010). Each equals its raw reference above exactly: the same
// sums, grouped first by day (and provider), then added up over the period; the same formulas and rounding
// on the same types. Ages are computed at query time from the service-date buckets, so AR aging is exact
// on any day. Charge capture comes from the visits' per-day rollup (recomputed per day by its triggers,
// migration 0036); staff hours and expenses are small per-day and per-month tables, read as they are.

/** Recomputes every rollup from the raw tables (after bulk loads that bypassed triggers, and in tests). */
export async function rebuildRollups(db: DbOrTx): Promise<void> {
  await db.execute(sql`select analytics_rebuild_rollups()`);
}

const d = analyticsDaily;

/**
 * Payments received in the period, from the rollup the KPIs' Revenue Collected reads (the same figure as
 * computeKpis(…).totalPaidCents), for screens that show that one number.
 */
export async function collectionsInPeriod(db: DbOrTx, period: Period): Promise<number> {
  const result = await db.execute<{ collections: string }>(
    sql`select coalesce(sum(${analyticsDaily.collectionsCents}), 0)::bigint as collections
      from ${analyticsDaily} where ${between(analyticsDaily.day, period)}`,
  );
  return Number(result.rows[0]?.collections ?? 0);
}

/** Every KPI of the period from the rollups; equals computeKpisRaw. */
export async function computeKpis(db: DbOrTx, period: Period): Promise<KpiResult> {
  const n = period.days;
  const result = await db.execute<KpiRow & Record<string, unknown>>(sql`
    with
    cohorts as (
      select coalesce(sum(${d.chargeClaims}), 0)::int as total_claims,
        coalesce(sum(${d.chargePaidClaims}), 0)::int as paid_claims,
        coalesce(sum(${d.chargeDeniedClaims}), 0)::int as denied_claims,
        coalesce(sum(${d.chargeBilledCents}), 0)::bigint as billed_cents,
        coalesce(sum(${d.submittedClaims}), 0)::int as submitted,
        coalesce(sum(${d.submittedCleanClaims}), 0)::int as clean,
        -- avg() of integers is their sum ÷ their count as numerics: the same division here.
        (sum(${d.submittedCycleDays})::numeric / nullif(sum(${d.submittedClaims}), 0)::numeric)::float8 as cycle_days,
        coalesce(sum(${d.adjudicatedClaims}), 0)::int as adjudicated,
        coalesce(sum(${d.adjudicatedDeniedClaims}), 0)::int as denied,
        coalesce(sum(${d.adjudicatedFirstPassClaims}), 0)::int as first_pass,
        coalesce(sum(${d.adjudicatedCollectedCents}), 0)::bigint as collected,
        coalesce(sum(${d.adjudicatedCollectibleCents}), 0)::bigint as collectible,
        coalesce(sum(${d.adjudicatedPatientCollectedCents}), 0)::bigint as patient_collected,
        coalesce(sum(${d.adjudicatedPatientBilledCents}), 0)::bigint as patient_billed,
        coalesce(sum(${d.writtenOffLostCents}), 0)::bigint as lost,
        coalesce(sum(${d.collectionsCents}), 0)::bigint as collections
      from ${d} where ${between(d.day, period)}
    ),
    months as (
      select m::date as month,
        (least(${period.end}::date, (m + interval '1 month - 1 day')::date)
          - greatest(${period.start}::date, m::date) + 1)::numeric
        / ((m + interval '1 month')::date - m::date) as share
      from generate_series(date_trunc('month', ${period.start}::date), date_trunc('month', ${period.end}::date),
        interval '1 month') m
    ),
    expenses as (
      select count(*) filter (where e.amount_cents is null)::int as months_missing,
        coalesce(sum(e.amount_cents * months.share), 0)::float8 as prorated_cents
      from months left join ${operatingExpenses} e on e.month = months.month
    ),
    hours as (
      select coalesce(sum(${billingStaffHours.hours}), 0)::float8 as hours
      from ${billingStaffHours} where ${between(billingStaffHours.day, period)}
    ),
    -- Charge capture: the period's days of the visits rollup, summed (the raw answer counts the visits).
    visits as (
      select coalesce(sum(${analyticsVisitsDaily.completed}), 0)::int as completed,
        coalesce(sum(${analyticsVisitsDaily.captured}), 0)::int as captured
      from ${analyticsVisitsDaily} where ${between(analyticsVisitsDaily.day, period)}
    ),
    receivables as (
      select coalesce(sum(${analyticsArDaily.outstandingCents}), 0)::bigint as outstanding,
        coalesce(sum(${analyticsArDaily.openDenialsCents}), 0)::bigint as open_denials
      from ${analyticsArDaily}
    )
    select
      ${daysInArSql(sql`receivables.outstanding`, sql`cohorts.billed_cents`, n)} as avg_days_ar,
      ${cleanClaimRateSql(sql`cohorts.clean`, sql`cohorts.submitted`)} as clean_claim_rate,
      ${denialRateSql(sql`cohorts.denied`, sql`cohorts.adjudicated`)} as denial_rate,
      ${netCollectionRateSql(sql`cohorts.collected`, sql`cohorts.collectible`)} as net_collection_rate,
      ${firstPassResolutionRateSql(sql`cohorts.first_pass`, sql`cohorts.adjudicated`)} as first_pass_resolution_rate,
      ${chargeCaptureAccuracySql(sql`visits.captured`, sql`visits.completed`)} as charge_capture_accuracy,
      ${patientPaymentRateSql(sql`cohorts.patient_collected`, sql`cohorts.patient_billed`)} as patient_payment_rate,
      ${operatingMarginSql(sql`expenses.months_missing`, sql`cohorts.collections`, sql`expenses.prorated_cents`)} as operating_margin,
      round(cohorts.cycle_days::numeric, 1)::float8 as billing_cycle_time,
      ${billingProductivitySql(sql`cohorts.submitted`, sql`hours.hours`)} as billing_productivity,
      cohorts.total_claims, cohorts.paid_claims, cohorts.denied_claims,
      cohorts.collections as total_paid_cents,
      cohorts.billed_cents as total_billed_cents,
      cohorts.lost as revenue_lost_cents,
      receivables.outstanding as outstanding_ar_cents,
      receivables.open_denials as open_denials_cents
    from cohorts, expenses, hours, visits, receivables
  `);
  const row = result.rows[0];
  if (!row) throw new Error('the KPI query returned no row');
  const outstandingArCents = Number(row.outstanding_ar_cents);
  return {
    periodDays: period.days,
    periodStart: period.start,
    periodEnd: period.end,
    avgDaysAR: row.avg_days_ar,
    cleanClaimRate: row.clean_claim_rate,
    denialRate: row.denial_rate,
    netCollectionRate: row.net_collection_rate,
    firstPassResolutionRate: row.first_pass_resolution_rate,
    chargeCaptureAccuracy: row.charge_capture_accuracy,
    patientPaymentRate: row.patient_payment_rate,
    operatingMargin: row.operating_margin,
    billingCycleTime: row.billing_cycle_time,
    billingProductivity: row.billing_productivity,
    totalClaims: row.total_claims,
    paidClaims: row.paid_claims,
    deniedClaims: row.denied_claims,
    totalPaidCents: Number(row.total_paid_cents),
    totalBilledCents: Number(row.total_billed_cents),
    revenueLostCents: Number(row.revenue_lost_cents),
    revenueAtRiskCents: outstandingArCents,
    outstandingArCents,
    openDenialsCents: Number(row.open_denials_cents),
  };
}

/** AR aging from the outstanding-A/R rollup, aged today from each service date; equals computeArAgingRaw. */
export async function computeArAging(db: DbOrTx, now: Date): Promise<ArAging> {
  const asOf = today(now);
  const order = sql.join(
    AR_AGING_BUCKETS.map((bucket, i) => sql`(${bucket}, ${i})`),
    sql`, `,
  );
  const ar = analyticsArDaily;
  const result = await db.execute<{ bucket: string; amount_cents: string; percent: number | null }>(sql`
    with aged as (
      select case
          when ${asOf}::date - ${ar.serviceDate} <= 30 then '0-30'
          when ${asOf}::date - ${ar.serviceDate} <= 60 then '31-60'
          when ${asOf}::date - ${ar.serviceDate} <= 90 then '61-90'
          when ${asOf}::date - ${ar.serviceDate} <= 120 then '91-120'
          else '120+' end as bucket,
        ${ar.outstandingCents} as outstanding_cents
      from ${ar}
    ),
    totals as (
      select b.bucket, b.ord, coalesce(sum(aged.outstanding_cents), 0)::bigint as amount_cents
      from (values ${order}) as b(bucket, ord) left join aged on aged.bucket = b.bucket
      group by b.bucket, b.ord
    )
    select bucket, amount_cents,
      ${percentSql(sql`amount_cents`, sql`sum(amount_cents) over ()`, 2)} as percent
    from totals order by ord
  `);
  const buckets = result.rows.map((row) => ({
    bucket: row.bucket as ArAging['buckets'][number]['bucket'],
    amountCents: Number(row.amount_cents),
    percent: row.percent ?? 0,
  }));
  return { asOf, totalCents: buckets.reduce((sum, b) => sum + b.amountCents, 0), buckets };
}

/** Provider analytics from the rollups; equals computeProviderAnalyticsRaw. */
export async function computeProviderAnalytics(db: DbOrTx, period: Period): Promise<ProviderAnalytics> {
  const result = await db.execute<{
    provider: string;
    claim_count: number;
    total_collections_cents: string;
    collection_rate: number | null;
    avg_days_ar: number | null;
  }>(sql`
    with cohorts as (
      select ${d.providerId} as provider_id, sum(${d.chargeClaims})::int as claim_count,
        sum(${d.chargeBilledCents})::bigint as billed_cents,
        sum(${d.collectionsCents})::bigint as collections,
        sum(${d.adjudicatedCollectedCents})::bigint as collected,
        sum(${d.adjudicatedCollectibleCents})::bigint as collectible
      from ${d} where ${between(d.day, period)} group by ${d.providerId}
    ),
    receivables as (
      select ${analyticsArProvider.providerId} as provider_id, ${analyticsArProvider.outstandingCents} as outstanding
      from ${analyticsArProvider}
    )
    select p.name as provider,
      coalesce(cohorts.claim_count, 0) as claim_count,
      coalesce(cohorts.collections, 0)::bigint as total_collections_cents,
      -- No adjudicated claim: collectible is 0 (or null) and the rate null, as in the raw query.
      ${netCollectionRateSql(sql`cohorts.collected`, sql`cohorts.collectible`)} as collection_rate,
      -- No charge in the period: billed is 0 (or null) and Days in A/R null, as in the raw query.
      ${daysInArSql(sql`coalesce(receivables.outstanding, 0)`, sql`cohorts.billed_cents`, period.days)} as avg_days_ar
    from ${providers} p
      left join cohorts on cohorts.provider_id = p.id
      left join receivables on receivables.provider_id = p.id
    order by total_collections_cents desc, p.name
  `);
  return result.rows.map((row) => ({
    provider: row.provider,
    claimCount: row.claim_count,
    totalCollectionsCents: Number(row.total_collections_cents),
    collectionRate: row.collection_rate,
    avgDaysAR: row.avg_days_ar,
  }));
}

/**
 * Denials by reason from the rollup; equals computeDenialsByReasonRaw. The stored description is the
 * mode of the descriptions (as mode() picks it: the commonest non-null one, the first in sort order on a tie).
 */
export async function computeDenialsByReason(db: DbOrTx, period: Period): Promise<DenialsByReason> {
  const dd = analyticsDenialsDaily;
  const result = await db.execute<{ reason: string; count: number; stored_description: string | null }>(sql`
    with texts as (
      select ${dd.reasonCode} as reason, ${dd.denialDescription} as description, sum(${dd.claims}) as claims
      from ${dd} where ${between(dd.adjudicatedOn, period)}
      group by ${dd.reasonCode}, ${dd.denialDescription}
      having sum(${dd.claims}) > 0
    )
    select reason, sum(claims)::int as count,
      (select t.description from texts t where t.reason = texts.reason and t.description is not null
        order by t.claims desc, t.description limit 1) as stored_description
    from texts
    group by reason
    order by count desc, reason
  `);
  return result.rows.map((row) => ({
    reason: row.reason,
    description: DENIAL_DESCRIPTIONS[row.reason] ?? row.stored_description ?? 'Other denial reason',
    count: row.count,
  }));
}

// ---------------------------------------------------------------------------------------------
// Export audit

/** The KPIs CSV is built in the browser; this records that it was exported. */
export async function recordKpiExport(db: Db, ctx: RequestContext, input: KpiExportAudit): Promise<void> {
  await recordNow(db, {
    ...actorOf(ctx),
    action: 'export.csv',
    resource: 'kpis',
    detail: `kpis_${input.periodDays}d.csv: ${input.rows} KPIs over the last ${input.periodDays} days`,
  });
}
