import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { oneOf } from '@/server/db/sql-helpers';
import { CLAIM_FILING_INDICATORS, type ClaimFilingIndicator } from '../payers.schema';

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
    /** X12 claim filing indicator (SBR09 of an 837P): MB Medicare Part B, MC Medicaid, CI commercial, … */
    claimFilingIndicator: text('claim_filing_indicator').$type<ClaimFilingIndicator>().notNull().default('CI'),
    active: boolean('active').notNull().default(true),
    /**
     * Days after a remittance within which the payer takes an appeal of it (Medicare's redetermination: 120); the
     * work queue's due date is the earlier of this and timely filing (docs/work-queue.md).
     */
    appealDays: integer('appeal_days').notNull().default(180),
    /**
     * Days after a claim is sent with no adjudication before the payer is asked where it stands (an ASC X12
     * 005010X212 276), and again as long as it stays unanswered; null: never ask (docs/payers.md).
     */
    claimStatusAfterDays: integer('claim_status_after_days').default(30),
  },
  (t) => [
    uniqueIndex('payers_payer_id_unique')
      .on(t.payerId)
      .where(sql`${t.payerId} is not null`),
    check('payers_timely_filing_check', sql`${t.timelyFilingDays} between 1 and 3650`),
    check('payers_appeal_days_check', sql`${t.appealDays} between 1 and 3650`),
    check(
      'payers_claim_status_after_days_check',
      sql`${t.claimStatusAfterDays} is null or ${t.claimStatusAfterDays} between 1 and 365`,
    ),
    check('payers_claim_filing_indicator_check', oneOf(t.claimFilingIndicator, CLAIM_FILING_INDICATORS)),
  ],
);
