import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '@/features/auth/server/auth.table';
import { payers } from '@/features/payers/server/payers.table';
import { claims } from '@/features/claims/server/claims.table';

/**
 * One 276 claim status request file (ASC X12 005010X212) asking one payer about some sent claims
 * (docs/x12-claim-status.md, "In the product"). Its ISA13 and GS06 come from the same counters as the 837P
 * batches (x12_control_numbers), so they are unique across everything the practice sends. `mailed_at` is set by the
 * clearinghouse mailbox once the file is put there; null while it waits.
 */
export const claimStatusRequests = pgTable(
  'claim_status_requests',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    payer: text('payer')
      .notNull()
      .references(() => payers.name),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** Null when the scheduled rule asked, not a person. */
    createdBy: integer('created_by').references(() => users.id),
    interchangeControlNumber: integer('interchange_control_number').notNull().unique(),
    groupControlNumber: integer('group_control_number').notNull().unique(),
    claimCount: integer('claim_count').notNull(),
    /** The 276 as written: it is sent as is, and downloaded as is. */
    content: text('content').notNull(),
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
  },
  (t) => [
    check('claim_status_requests_count_check', sql`${t.claimCount} >= 1`),
    index('claim_status_requests_created_idx').on(t.createdAt.desc(), t.id.desc()),
    // The mailbox's queue: the few requests not yet put in the mailbox.
    index('claim_status_requests_unmailed_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.mailedAt} is null`),
  ],
);

/**
 * One 277 claim status response file (005010X212) as received. The same file twice (its SHA-256) is refused:
 * applying it again would write each claim's history twice.
 */
export const claimStatusResponses = pgTable('claim_status_responses', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  sha256: text('sha256').notNull().unique(),
  fileName: text('file_name').notNull(),
  content: text('content').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  receivedBy: integer('received_by').references(() => users.id),
  /** ISA06 and ISA13 of the file, to name it to a person. */
  senderId: text('sender_id').notNull(),
  interchangeControlNumber: text('interchange_control_number').notNull(),
  summary: text('summary').notNull(),
});

/**
 * One claim asked about in a 276 (loop 2200D) and the payer's answer once its 277 comes: the trace number (TRN02)
 * is what the 277 echoes, so it is unique. The answer's columns are the current status (STC01 of the status in
 * force) in codes and in words.
 */
export const claimStatusInquiries = pgTable(
  'claim_status_inquiries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    claimId: integer('claim_id')
      .notNull()
      .references(() => claims.id, { onDelete: 'cascade' }),
    requestId: integer('request_id')
      .notNull()
      .references(() => claimStatusRequests.id, { onDelete: 'cascade' }),
    traceNumber: text('trace_number').notNull().unique(),
    askedAt: timestamp('asked_at', { withTimezone: true }).notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    responseId: integer('response_id').references(() => claimStatusResponses.id),
    /** STC01-1, e.g. F1. */
    categoryCode: text('category_code'),
    /** STC01-2, e.g. 65. */
    statusCode: text('status_code'),
    /** STC01-3, e.g. PR; null when not sent. */
    entityCode: text('entity_code'),
    /** STC02: the day the status took effect. */
    effectiveOn: date('effective_on', { mode: 'string' }),
    /** REF*1K of the answer. */
    payerClaimNumber: text('payer_claim_number'),
    /** STC04 and STC05 (the payment may be negative: money taken back). */
    chargeCents: integer('charge_cents'),
    paidCents: integer('paid_cents'),
    /** The status in plain words, as read277 gives it. */
    message: text('message'),
    needsAction: boolean('needs_action'),
  },
  (t) => [
    index('claim_status_inquiries_claim_idx').on(t.claimId, t.askedAt.desc()),
    index('claim_status_inquiries_request_idx').on(t.requestId),
    check('claim_status_inquiries_answer_check', sql`(${t.answeredAt} is null) = (${t.responseId} is null)`),
  ],
);
