import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * The payers the clinic bills (docs/payers.md). Claims store the payer's name, so the name is fixed once
 * created; the admin maintains the electronic payer id, the timely-filing limit and whether it is in use.
 */
export const payers = pgTable(
  'payers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull().unique(),
    /** The electronic (EDI) payer id claims are sent to; null where none applies (self-pay) or not yet known. */
    payerId: text('payer_id'),
    /** Days after the service date within which the payer accepts a claim. */
    timelyFilingDays: integer('timely_filing_days').notNull().default(365),
    active: boolean('active').notNull().default(true),
  },
  (t) => [
    uniqueIndex('payers_payer_id_unique')
      .on(t.payerId)
      .where(sql`${t.payerId} is not null`),
    check('payers_timely_filing_check', sql`${t.timelyFilingDays} between 1 and 3650`),
  ],
);
