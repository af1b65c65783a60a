import { bigint, boolean, check, pgTable } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/**
 * How many patient records the clinic holds (the dashboard's figure), in one row kept exact in the same
 * transaction as every insert, delete and TRUNCATE of patients by the triggers of migration 0015, so the
 * dashboard reads one row instead of counting the table (docs/kpis.md "Rollups").
 */
export const patientsCountRollup = pgTable(
  'patients_count_rollup',
  {
    one: boolean('one').primaryKey().default(true),
    patients: bigint('patients', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('patients_count_rollup_one_row', sql`${t.one}`)],
);
