import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { oneOf } from '@/server/db/sql-helpers';
import {
  ELIGIBILITY_REASONS,
  ELIGIBILITY_STATUSES,
  type EligibilityReason,
  type EligibilityStatus,
  type EligibilitySummary,
} from '../coverage.eligibility.schema';
import { coverages } from './coverage.table';

/**
 * ISA13 and GS06 of the 270s. Their own counter (the 837P's are the submission feature's, later in the feature
 * order): it starts at 500,000,001 so that a 270's interchange number is never one the 837P counter, starting at
 * 1, will reach, and the clearinghouse's duplicate check (ISA13 unique per sender) never trips. A rolled-back
 * inquiry leaves a gap, which X12 allows; only a repeat is wrong.
 */
export const eligibilityControlNumbers = pgSequence('eligibility_control_number_seq', {
  startWith: 500_000_001,
  minValue: 500_000_001,
  maxValue: 999_999_999,
});

/** One 270 file: the inquiry as written, byte for byte, and when the mailbox sent it. */
export const eligibilityInquiries = pgTable(
  'eligibility_inquiries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /**
     * The user who asked; null for the evening batch, which no one asked for. No foreign key: users belong to the
     * auth feature, later than coverage in the feature order (the audit entry names the user too).
     */
    createdBy: integer('created_by'),
    reason: text('reason').$type<EligibilityReason>().notNull(),
    text: text('text').notNull(),
    interchangeControlNumber: integer('interchange_control_number').notNull().unique(),
    groupControlNumber: integer('group_control_number').notNull().unique(),
    serviceDate: date('service_date', { mode: 'string' }).notNull(),
    checkCount: integer('check_count').notNull(),
    /** Set by the clearinghouse mailbox once the file is put in its outbox. */
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
  },
  (t) => [
    check('eligibility_inquiries_reason_check', oneOf(t.reason, ELIGIBILITY_REASONS)),
    check('eligibility_inquiries_control_check', sql`${t.interchangeControlNumber} between 1 and 999999999`),
    // The mailbox's "not yet sent" scan.
    index('eligibility_inquiries_unmailed_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.mailedAt} is null`),
  ],
);

/** One 271 file as received: kept whole, once (its SHA-256 refuses the same file twice). */
export const eligibilityResponses = pgTable(
  'eligibility_responses',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    /** The user who uploaded it; null when the mailbox fetched it (no foreign key, as created_by above). */
    receivedBy: integer('received_by'),
    sha256: text('sha256').notNull().unique(),
    fileName: text('file_name').notNull(),
    text: text('text').notNull(),
    /** The patients answered for, and of them Active, Inactive and Rejected. */
    answeredCount: integer('answered_count').notNull(),
    activeCount: integer('active_count').notNull(),
    inactiveCount: integer('inactive_count').notNull(),
    rejectedCount: integer('rejected_count').notNull(),
  },
  (t) => [check('eligibility_responses_sha256_check', sql`${t.sha256} ~ '^[0-9a-f]{64}$'`)],
);

/** One policy asked about in an inquiry for one day of service, and the payer's answer once it comes. */
export const eligibilityChecks = pgTable(
  'eligibility_checks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    coverageId: integer('coverage_id')
      .notNull()
      .references(() => coverages.id, { onDelete: 'cascade' }),
    inquiryId: integer('inquiry_id')
      .notNull()
      .references(() => eligibilityInquiries.id, { onDelete: 'cascade' }),
    serviceDate: date('service_date', { mode: 'string' }).notNull(),
    /** TRN02 of the 270, echoed in the 271's TRN*2: how an answer finds its question. */
    traceNumber: text('trace_number').notNull(),
    /** NM109 of loop 2100C as sent: the 271's must agree. */
    memberId: text('member_id').notNull(),
    status: text('status').$type<EligibilityStatus>().notNull().default('Awaiting'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    summary: jsonb('summary').$type<EligibilitySummary>(),
    responseId: integer('response_id').references(() => eligibilityResponses.id),
  },
  (t) => [
    uniqueIndex('eligibility_checks_trace_uq').on(t.traceNumber),
    check('eligibility_checks_status_check', oneOf(t.status, ELIGIBILITY_STATUSES)),
    check(
      'eligibility_checks_answer_check',
      sql`(${t.status} = 'Awaiting') = (${t.answeredAt} is null) and (${t.status} = 'Awaiting') = (${t.responseId} is null)`,
    ),
    // The latest check of a coverage, and the latest for one day of service (the scrubber, the schedule).
    index('eligibility_checks_coverage_idx').on(t.coverageId, t.requestedAt, t.id),
    index('eligibility_checks_coverage_day_idx').on(t.coverageId, t.serviceDate, t.id),
    index('eligibility_checks_service_date_idx').on(t.serviceDate, t.coverageId),
    index('eligibility_checks_inquiry_idx').on(t.inquiryId),
  ],
);
