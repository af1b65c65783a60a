import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { oneOf } from '@/server/db/sql-helpers';
import { users } from '@/features/auth/server/auth.table';
import { claimLines, claims } from '@/features/claims/server/claims.table';
import { LEDGER_BUCKETS, LEDGER_KINDS, REMITTANCE_CLAIM_OUTCOMES } from '../remittances.schema';
import { practiceNow } from '@/shared/practice-zone';

/**
 * One imported 835 (ASC X12 005010X221A1): the payment (BPR), its trace (TRN) and what the import did. The
 * same payer and trace number is one remittance: importing the file again posts nothing (docs/remittances.md).
 */
export const remittances = pgTable(
  'remittances',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** TRN03 (the payer's identifier) when given, else the payer's name (N1*PR): with the trace, the file's identity. */
    payerKey: text('payer_key').notNull(),
    /** TRN02: the check number or the EFT trace number. */
    traceNumber: text('trace_number').notNull(),
    /** The practice's payer (payers.name) the file was matched to, else N1*PR's name as sent. */
    payer: text('payer').notNull(),
    payerNameSent: text('payer_name_sent').notNull(),
    /** BPR02, signed by BPR03 (a debit is negative). */
    paymentCents: bigint('payment_cents', { mode: 'number' }).notNull(),
    /** BPR04: ACH, CHK, NON, … */
    method: text('method').notNull(),
    paymentDate: date('payment_date', { mode: 'string' }),
    productionDate: date('production_date', { mode: 'string' }),
    /** The day postings are dated: BPR16, else DTM*405, else the import's day. */
    postedOn: date('posted_on', { mode: 'string' }).notNull(),
    claimsPosted: integer('claims_posted').notNull(),
    claimsExceptions: integer('claims_exceptions').notNull(),
    /** Claims of posted ones billed on to the patients' next policies by the import (docs/remittances.md). */
    claimsBilledNext: integer('claims_billed_next').notNull().default(0),
    /** ΣCLP04 of the claims posted. */
    postedCents: bigint('posted_cents', { mode: 'number' }).notNull(),
    /** ΣCLP04 of the claims sent to the work queue instead. */
    exceptionCents: bigint('exception_cents', { mode: 'number' }).notNull(),
    /** ΣPLB amounts (positive reduces the payment). */
    providerAdjustmentCents: bigint('provider_adjustment_cents', { mode: 'number' }).notNull(),
    fileSha256: text('file_sha256').notNull(),
    fileBytes: integer('file_bytes').notNull(),
    importedBy: integer('imported_by').references(() => users.id),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow().$defaultFn(practiceNow),
  },
  (t) => [
    uniqueIndex('remittances_payer_trace_uq').on(t.payerKey, t.traceNumber),
    index('remittances_imported_idx').on(t.importedAt.desc(), t.id.desc()),
  ],
);

/**
 * Each claim payment (CLP loop 2100) of a remittance as received, and what became of it: posted to the ledger, or
 * sent to the work queue (an exception) with nothing posted. Amounts are signed: a reversal (CLP02 22) is negative.
 */
export const remittanceClaims = pgTable(
  'remittance_claims',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    remittanceId: integer('remittance_id')
      .notNull()
      .references(() => remittances.id),
    /** Order in the file, from 1. */
    seq: integer('seq').notNull(),
    /** The CLP segment's position in the file. */
    segmentPosition: integer('segment_position').notNull(),
    claimId: integer('claim_id').references(() => claims.id),
    patientControlNumber: text('patient_control_number').notNull(),
    statusCode: text('status_code').notNull(),
    chargeCents: integer('charge_cents').notNull(),
    paidCents: integer('paid_cents').notNull(),
    patientResponsibilityCents: integer('patient_responsibility_cents').notNull(),
    payerClaimNumber: text('payer_claim_number').notNull(),
    outcome: text('outcome').notNull(),
    /** For an exception: the work queue's source (balancing, unmatched_claim, unmatched_line) and why. */
    exceptionSource: text('exception_source'),
    exceptionReason: text('exception_reason'),
    /** A reversal (CLP02 22): the posting it negates. Each posting is reversed at most once. */
    reversesId: integer('reverses_id'),
  },
  (t) => [
    check('remittance_claims_outcome_check', oneOf(t.outcome, REMITTANCE_CLAIM_OUTCOMES)),
    uniqueIndex('remittance_claims_seq_uq').on(t.remittanceId, t.seq),
    uniqueIndex('remittance_claims_reverses_uq')
      .on(t.reversesId)
      .where(sql`${t.reversesId} is not null`),
    index('remittance_claims_claim_idx').on(t.claimId, t.id),
    // A replacement or void entered by hand is checked against the claims the payer knows by its number.
    index('remittance_claims_payer_number_idx').on(t.payerClaimNumber),
  ],
);

/**
 * The posting ledger: every amount posted to a claim, append-only (a trigger refuses UPDATE and DELETE). Payments
 * per service line, adjustments by CAS group and CARC, and the opening figures a claim had before its first
 * posting. A claim's paid, contractual adjustment and patient responsibility are the sums of its entries by
 * bucket (docs/remittances.md, "The ledger").
 */
export const remittanceLedger = pgTable(
  'remittance_ledger',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    claimId: integer('claim_id')
      .notNull()
      .references(() => claims.id),
    claimLineId: integer('claim_line_id').references(() => claimLines.id),
    remittanceId: integer('remittance_id').references(() => remittances.id),
    remittanceClaimId: integer('remittance_claim_id').references(() => remittanceClaims.id),
    kind: text('kind').notNull(),
    /** CAS01 (CO, PI, OA, PR, CR) of an adjustment; null for a payment or an opening figure. */
    groupCode: text('group_code'),
    /** The CARC of an adjustment (e.g. 45, 1, 2, 3, 197). */
    reasonCode: text('reason_code'),
    bucket: text('bucket').notNull(),
    /** Signed: a reversal posts the negation of what it reverses. */
    amountCents: integer('amount_cents').notNull(),
    postedOn: date('posted_on', { mode: 'string' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow().$defaultFn(practiceNow),
  },
  (t) => [
    check('remittance_ledger_kind_check', oneOf(t.kind, LEDGER_KINDS)),
    check('remittance_ledger_bucket_check', oneOf(t.bucket, LEDGER_BUCKETS)),
    check('remittance_ledger_amount_check', sql`${t.amountCents} <> 0`),
    index('remittance_ledger_claim_idx').on(t.claimId),
    index('remittance_ledger_posting_idx').on(t.remittanceClaimId),
    index('remittance_ledger_remittance_idx').on(t.remittanceId),
  ],
);

/**
 * Provider-level adjustments (PLB): amounts of the payment that belong to no claim (WO overpayment recovery,
 * FB forwarding balance, L6 interest, …). Append-only like the ledger.
 */
export const providerAdjustments = pgTable(
  'provider_adjustments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    remittanceId: integer('remittance_id')
      .notNull()
      .references(() => remittances.id),
    /** PLB01: the provider identifier (NPI). */
    providerIdentifier: text('provider_identifier').notNull(),
    fiscalPeriod: date('fiscal_period', { mode: 'string' }),
    /** PLB03-1, the adjustment reason code. */
    reason: text('reason').notNull(),
    /** PLB03-2. */
    reference: text('reference').notNull(),
    /** As sent: positive reduces the payment, negative adds to it. */
    amountCents: integer('amount_cents').notNull(),
    postedOn: date('posted_on', { mode: 'string' }).notNull(),
  },
  (t) => [index('provider_adjustments_remittance_idx').on(t.remittanceId)],
);
