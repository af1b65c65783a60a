import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Authorizations counted per status (the dashboard's figures), kept exact in the same transaction as every
 * write to authorizations by the triggers of migration 0015, so the dashboard reads a few rows instead of
 * counting the table (docs/kpis.md "Rollups").
 */
export const authorizationsStatusRollup = pgTable('authorizations_status_rollup', {
  status: text('status').primaryKey(),
  authorizations: bigint('authorizations', { mode: 'number' }).notNull().default(0),
});
