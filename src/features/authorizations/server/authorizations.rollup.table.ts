import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Authorizations counted per status (the dashboard's figures), kept exact in the same transaction as every
 * write to authorizations by the triggers of migration 0015, so the dashboard reads a few rows instead of
 * counting the table (docs/kpis.md "Rollups").
 */
export const authorizationsStatusRollup = pgTable('authorizations_status_rollup', {
  status: text('status').primaryKey(),
  authorizations: bigint('authorizations', { mode: 'number' }).notNull().default(0),
  // What the Authorizations screen's Avg Age needs without reading every row: a decided request's age is
  // fixed (decided − requested), an undecided one's is today − requested, so the sum of ages is
  // decidedAgeDays + undecided × today − undecidedRequestedDays (days counted from 2000-01-01).
  decidedAgeDays: bigint('decided_age_days', { mode: 'number' }).notNull().default(0),
  undecided: bigint('undecided', { mode: 'number' }).notNull().default(0),
  undecidedRequestedDays: bigint('undecided_requested_days', { mode: 'number' }).notNull().default(0),
});
