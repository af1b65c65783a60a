import { pgTable, date, integer, numeric } from 'drizzle-orm/pg-core';

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
