import { bigint, date, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * Payer Performance from a rollup instead of the claims and payments tables (docs/kpis.md "Rollups"), kept exact in
 * the same transaction as every write to claims or payments by the triggers of migrations 0010 and 0015
 * (docs/kpis.md "Rollups"). One row per day × payer: the claims adjudicated that day (and of them the ones
 * denied on first adjudication), and the payer payments received that day on the payer's claims.
 */
const count = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

export const billingPayerDaily = pgTable(
  'billing_payer_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    payer: text('payer').notNull(),
    adjudicatedClaims: count('adjudicated_claims'),
    deniedClaims: count('denied_claims'),
    payerCollectionsCents: count('payer_collections_cents'),
  },
  (t) => [primaryKey({ columns: [t.day, t.payer] })],
);
