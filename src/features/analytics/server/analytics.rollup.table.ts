import { bigint, date, integer, pgTable, primaryKey, text, unique } from 'drizzle-orm/pg-core';

/**
 * Rollups the KPI engine reads instead of scanning claims (docs/kpis.md "Rollups"). They are kept exact by the
 * database itself, in the same transaction as every write to claims or payments (triggers in migration
 * 0010_analytics_rollup_triggers.sql); `rebuildRollups` recomputes them from the raw tables. Design and
 * formulas: docs/kpis.md "Rollups".
 */
const cents = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

/**
 * One row per calendar day × provider (provider 0: payments on no claim). Each claim adds to the row of
 * the day each cohort dates it by: charges on its service date, submitted on submitted_on, adjudicated on
 * adjudicated_on, written off on resolved_on; each payment to its received_on day.
 */
export const analyticsDaily = pgTable(
  'analytics_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    providerId: integer('provider_id').notNull(),
    chargeClaims: cents('charge_claims'),
    chargePaidClaims: cents('charge_paid_claims'),
    chargeDeniedClaims: cents('charge_denied_claims'),
    chargeBilledCents: cents('charge_billed_cents'),
    submittedClaims: cents('submitted_claims'),
    submittedCleanClaims: cents('submitted_clean_claims'),
    submittedCycleDays: cents('submitted_cycle_days'),
    adjudicatedClaims: cents('adjudicated_claims'),
    adjudicatedDeniedClaims: cents('adjudicated_denied_claims'),
    adjudicatedFirstPassClaims: cents('adjudicated_first_pass_claims'),
    adjudicatedCollectedCents: cents('adjudicated_collected_cents'),
    adjudicatedCollectibleCents: cents('adjudicated_collectible_cents'),
    adjudicatedPatientCollectedCents: cents('adjudicated_patient_collected_cents'),
    adjudicatedPatientBilledCents: cents('adjudicated_patient_billed_cents'),
    writtenOffLostCents: cents('written_off_lost_cents'),
    collectionsCents: cents('collections_cents'),
  },
  (t) => [primaryKey({ columns: [t.day, t.providerId] })],
);

/**
 * Outstanding A/R now, by service date: aged at query time from the dates, so AR aging is exact on any
 * day. A few hundred rows, whatever the number of claims.
 */
export const analyticsArDaily = pgTable('analytics_ar_daily', {
  serviceDate: date('service_date', { mode: 'string' }).primaryKey(),
  outstandingCents: cents('outstanding_cents'),
  openDenialsCents: cents('open_denials_cents'),
});

/** Outstanding A/R now, by provider (each provider's Days in A/R). */
export const analyticsArProvider = pgTable('analytics_ar_provider', {
  providerId: integer('provider_id').primaryKey(),
  outstandingCents: cents('outstanding_cents'),
});

/** Claims denied on first adjudication (denial reasons only), by adjudication day × reason × stored description. */
export const analyticsDenialsDaily = pgTable(
  'analytics_denials_daily',
  {
    adjudicatedOn: date('adjudicated_on', { mode: 'string' }).notNull(),
    reasonCode: text('reason_code').notNull(),
    denialDescription: text('denial_description'),
    claims: cents('claims'),
  },
  (t) => [
    unique('analytics_denials_daily_key').on(t.adjudicatedOn, t.reasonCode, t.denialDescription).nullsNotDistinct(),
  ],
);

/**
 * Encounters by encounter date: completed visits and those whose charges were captured (Charge Capture
 * Accuracy), kept exact by the encounters triggers of migration 0015.
 */
export const analyticsEncountersDaily = pgTable('analytics_encounters_daily', {
  encounterDate: date('encounter_date', { mode: 'string' }).primaryKey(),
  encounters: cents('encounters'),
  chargesCaptured: cents('charges_captured'),
});

/**
 * Charge Capture Accuracy by day: completed visits (appointments with status Completed) and, of them, those
 * billed by a claim of the same patient with that service date (the raw rule, visitBilledSql in
 * analytics.queries.ts). Whether a visit is billed depends on other rows (any claim of the patient that
 * day), so the triggers of migration 0036 recompute each day a write touches from the raw tables rather
 * than adding deltas; a day holds a few hundred completed visits.
 */
export const analyticsVisitsDaily = pgTable('analytics_visits_daily', {
  day: date('day', { mode: 'string' }).primaryKey(),
  completed: cents('completed'),
  captured: cents('captured'),
});
