import { bigint, boolean, date, pgTable, text, unique } from 'drizzle-orm/pg-core';

/**
 * Rollups of the claims table for the Claims overview and the dashboard (docs/kpis.md "Rollups"), kept exact in
 * the same transaction as every claim write by the triggers of migration 0010_analytics_rollup_triggers.sql.
 * See docs/kpis.md "Rollups".
 */
const count = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

/** Every claim, by payer × status × reason code × first-pass denial: all-time totals in a few hundred rows. */
export const claimsStatusRollup = pgTable(
  'claims_status_rollup',
  {
    payer: text('payer').notNull(),
    status: text('status').notNull(),
    reasonCode: text('reason_code'),
    deniedOnFirstAdjudication: boolean('denied_on_first_adjudication').notNull(),
    claims: count('claims'),
    billedCents: count('billed_cents'),
    paidCents: count('paid_cents'),
  },
  (t) => [
    unique('claims_status_rollup_key')
      .on(t.payer, t.status, t.reasonCode, t.deniedOnFirstAdjudication)
      .nullsNotDistinct(),
  ],
);

/** Claims by service date × payer × reason code, for the weekly trend: claims, Paid ones, first-pass denials. */
export const claimsDailyRollup = pgTable(
  'claims_daily_rollup',
  {
    serviceDate: date('service_date', { mode: 'string' }).notNull(),
    payer: text('payer').notNull(),
    reasonCode: text('reason_code'),
    claims: count('claims'),
    paidClaims: count('paid_claims'),
    deniedClaims: count('denied_claims'),
  },
  (t) => [unique('claims_daily_rollup_key').on(t.serviceDate, t.payer, t.reasonCode).nullsNotDistinct()],
);
