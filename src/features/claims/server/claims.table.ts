import { sql } from 'drizzle-orm';
import { pgTable, integer, text, date, timestamp, boolean, index, check } from 'drizzle-orm/pg-core';
import { oneOf } from '@/server/db/sql-helpers';
import { CLAIM_STATUSES, PAYERS } from '../claims.schema';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';
import { users } from '@/features/auth/server/auth.table';

/**
 * One professional claim (one service line, as a small clinic bills most visits). Money is integer
 * cents. The dates and flags are the stored facts the KPI engine computes from.
 */
export const claims = pgTable(
  'claims',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    patientId: integer('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    accountNumber: text('account_number').notNull().unique(),
    procedureCode: text('procedure_code').notNull(),
    payer: text('payer').notNull(),
    serviceDate: date('service_date', { mode: 'string' }).notNull(),
    submittedOn: date('submitted_on', { mode: 'string' }),
    adjudicatedOn: date('adjudicated_on', { mode: 'string' }),
    /** When the balance reached zero (paid, written off, or fully moved to and paid by the patient). */
    resolvedOn: date('resolved_on', { mode: 'string' }),
    billedCents: integer('billed_cents').notNull(),
    /** Paid by the payer. */
    paidCents: integer('paid_cents').notNull().default(0),
    /** CO-45 style contractual adjustment: written off by contract, not a loss. */
    contractualAdjustmentCents: integer('contractual_adjustment_cents').notNull().default(0),
    /** PR-1/2/3: deductible, coinsurance, copay moved to the patient. */
    patientResponsibilityCents: integer('patient_responsibility_cents').notNull().default(0),
    status: text('status').notNull(),
    /** The denial (or main adjustment) CARC code, e.g. CO-197; null when nothing was adjusted. */
    reasonCode: text('reason_code'),
    remarkCode: text('remark_code'),
    denialDescription: text('denial_description'),
    /** Accepted by the clearinghouse/payer on first submission without edits (clean claim). */
    cleanSubmission: boolean('clean_submission').notNull().default(true),
    /** The first adjudication was a denial (later appeals do not change this fact). */
    deniedOnFirstAdjudication: boolean('denied_on_first_adjudication').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('claims_status_check', oneOf(t.status, CLAIM_STATUSES)),
    check('claims_payer_check', oneOf(t.payer, PAYERS)),
    check(
      'claims_money_check',
      sql`${t.billedCents} >= 0 and ${t.paidCents} >= 0 and ${t.contractualAdjustmentCents} >= 0 and ${t.patientResponsibilityCents} >= 0`,
    ),
    check('claims_reason_check', sql`${t.reasonCode} is null or ${t.reasonCode} ~ '^(CO|PR|OA|PI|CR)-[A-Z0-9]{1,4}$'`),
    index('claims_service_date_idx').on(t.serviceDate),
    index('claims_patient_idx').on(t.patientId, t.serviceDate),
    index('claims_payer_idx').on(t.payer, t.serviceDate),
    index('claims_status_idx').on(t.status),
    index('claims_provider_idx').on(t.providerId),
    // KPI engine (features/analytics): period cohorts by submission and adjudication day, and the open
    // receivables (outstanding A/R) without scanning resolved claims.
    index('claims_analytics_submitted_idx').on(t.submittedOn),
    index('claims_analytics_adjudicated_idx').on(t.adjudicatedOn),
    index('claims_analytics_open_ar_idx').on(t.serviceDate).where(sql.raw('resolved_on is null')),
  ],
);

export const claimAppeals = pgTable('claim_appeals', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  claimId: integer('claim_id')
    .notNull()
    .references(() => claims.id, { onDelete: 'cascade' }),
  reason: text('reason').notNull(),
  note: text('note').notNull().default(''),
  createdBy: integer('created_by').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
