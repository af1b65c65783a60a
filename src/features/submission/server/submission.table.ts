import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '@/features/auth/server/auth.table';
import { payers } from '@/features/payers/server/payers.table';
import { oneOf } from '@/server/db/sql-helpers';
import { CLAIM_BATCH_STATUSES, CLAIM_OUTCOMES } from '../submission.schema';
import { claims } from '@/features/claims/server/claims.table';

/**
 * The last ISA13, GS06 and ST02 control numbers written (ASC X12 005010: unique per sender, so the clearinghouse's
 * 999 and 277CA can name what they answer). A batch takes the next ones by updating these rows in its own
 * transaction: the row lock makes a concurrent batch wait and take the numbers after, and a batch rolled back
 * gives its numbers back. Not emptied by the demo reset: a number once sent is never sent again.
 */
export const x12ControlNumbers = pgTable(
  'x12_control_numbers',
  {
    /** 'ISA', 'GS' or 'ST'. */
    name: text('name').primaryKey(),
    lastValue: integer('last_value').notNull().default(0),
  },
  (t) => [
    check('x12_control_numbers_name_check', sql`${t.name} in ('ISA', 'GS', 'ST')`),
    check('x12_control_numbers_range_check', sql`${t.lastValue} between 0 and 999999999`),
  ],
);

/**
 * One 837P file sent to a payer: its control numbers, the moment it was written and everything its envelope and
 * billing provider loop said (`envelope`), so the file can be written again byte for byte from stored data
 * (docs/x12-837.md).
 */
export const claimBatches = pgTable(
  'claim_batches',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    payer: text('payer')
      .notNull()
      .references(() => payers.name),
    status: text('status').notNull().default('Submitted'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    createdBy: integer('created_by').references(() => users.id),
    interchangeControlNumber: integer('interchange_control_number').notNull().unique(),
    groupControlNumber: integer('group_control_number').notNull().unique(),
    /** ST02 of the first transaction set; the others follow it (one set per 5,000 claims). */
    firstSetControlNumber: integer('first_set_control_number').notNull(),
    setCount: integer('set_count').notNull(),
    claimCount: integer('claim_count').notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    /** The envelope, submitter, receiver, billing provider and payer as written (features/x12/x12.837p.ts Batch837). */
    envelope: jsonb('envelope').notNull(),
    /** The 999: when it came, its IK5/AK9 code and its errors in words. */
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgementCode: text('acknowledgement_code'),
    acknowledgementErrors: jsonb('acknowledgement_errors')
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** When the clearinghouse mailbox put the file in its outbound folder; null while it has not (or by hand). */
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
  },
  (t) => [
    check('claim_batches_status_check', oneOf(t.status, CLAIM_BATCH_STATUSES)),
    check('claim_batches_counts_check', sql`${t.setCount} >= 1 and ${t.claimCount} >= 1 and ${t.totalCents} >= 0`),
    index('claim_batches_created_idx').on(t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * The claims of a batch, in file order, each as it was written (`sent`, features/x12/x12.837p.ts Claim837), and the answer
 * the clearinghouse or payer gave it. A claim's rows over its batches are its filing history: a rejected
 * submission stays here but does not count as filed (claims.submitted_on is cleared).
 */
export const claimBatchClaims = pgTable(
  'claim_batch_claims',
  {
    batchId: integer('batch_id')
      .notNull()
      .references(() => claimBatches.id, { onDelete: 'cascade' }),
    claimId: integer('claim_id')
      .notNull()
      .references(() => claims.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** ST02 of the transaction set the claim is in: a 999 accepts or rejects sets. */
    setControlNumber: text('set_control_number').notNull(),
    /** CLM01 as sent: the 277CA answers by it. */
    accountNumber: text('account_number').notNull(),
    billedCents: integer('billed_cents').notNull(),
    sent: jsonb('sent').notNull(),
    outcome: text('outcome'),
    /** '999' or '277CA'. */
    answeredBy: text('answered_by'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    /** STC01 or the IK5 code. */
    outcomeCode: text('outcome_code'),
    outcomeMessage: text('outcome_message'),
    /** REF*1K of the 277CA: the payer's claim number, which a replacement or void quotes. */
    payerClaimNumber: text('payer_claim_number'),
    /** The last received-or-forwarded note (277CA A0/A1) while no answer has come. */
    note: text('note'),
  },
  (t) => [
    primaryKey({ columns: [t.batchId, t.claimId] }),
    uniqueIndex('claim_batch_claims_position_uq').on(t.batchId, t.position),
    index('claim_batch_claims_claim_idx').on(t.claimId, t.batchId),
    // The 277CA's TRN02 finds the claim's open submission by its account number.
    index('claim_batch_claims_account_idx').on(t.accountNumber, t.batchId),
    // A replacement or void entered by hand is checked against the claims the payer knows by its number.
    index('claim_batch_claims_payer_number_idx')
      .on(t.payerClaimNumber)
      .where(sql`${t.payerClaimNumber} is not null`),
    check('claim_batch_claims_outcome_check', sql`${t.outcome} is null or ${oneOf(t.outcome, CLAIM_OUTCOMES)}`),
  ],
);

/**
 * Every acknowledgement file received, as received. The same file twice (by its SHA-256, or by its kind, sender
 * and interchange control number) is refused: applying it again would answer claims twice.
 */
export const claimAcknowledgements = pgTable(
  'claim_acknowledgements',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    receivedBy: integer('received_by').references(() => users.id),
    sha256: text('sha256').notNull().unique(),
    senderId: text('sender_id').notNull(),
    interchangeControlNumber: text('interchange_control_number').notNull(),
    summary: text('summary').notNull(),
    content: text('content').notNull(),
  },
  (t) => [
    check('claim_acknowledgements_kind_check', sql`${t.kind} in ('999', '277CA')`),
    uniqueIndex('claim_acknowledgements_interchange_uq').on(t.kind, t.senderId, t.interchangeControlNumber),
  ],
);
