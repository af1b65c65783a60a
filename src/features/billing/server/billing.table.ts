import { sql } from 'drizzle-orm';
import { pgTable, integer, text, date, timestamp, numeric, index, check } from 'drizzle-orm/pg-core';
import { oneOf } from '@/server/db/sql-helpers';
import { PAYMENT_SOURCES } from '../billing.schema';
import { patients } from '@/features/patients/server/patients.table';
import { claims } from '@/features/claims/server/claims.table';
import { users } from '@/features/auth/server/auth.table';

export const payments = pgTable(
  'payments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    patientId: integer('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    claimId: integer('claim_id').references(() => claims.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    source: text('source').notNull(),
    receivedOn: date('received_on', { mode: 'string' }).notNull(),
    reference: text('reference').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('payments_amount_check', sql`${t.amountCents} > 0`),
    check('payments_source_check', oneOf(t.source, PAYMENT_SOURCES)),
    index('payments_patient_idx').on(t.patientId),
    index('payments_received_idx').on(t.receivedOn),
    // Payments per claim: balances and the KPI engine sum a claim's patient payments.
    index('payments_claim_idx').on(t.claimId),
    // The balance rule sums a claim's patient-side payments for every open claim (outstanding A/R): this
    // partial covering index answers each sum from the index alone.
    index('payments_patient_side_idx')
      .on(t.claimId, t.amountCents)
      .where(sql`${t.source} in ('patient', 'guest')`),
  ],
);

/** Operating expenses per month, for Operating Margin. */
export const operatingExpenses = pgTable('operating_expenses', {
  month: date('month', { mode: 'string' }).primaryKey(),
  amountCents: integer('amount_cents').notNull(),
});

/** Billing staff hours per day, for Billing Productivity. */
export const billingStaffHours = pgTable('billing_staff_hours', {
  day: date('day', { mode: 'string' }).primaryKey(),
  hours: numeric('hours', { precision: 6, scale: 2 }).notNull(),
});
