import { sql } from 'drizzle-orm';
import {
  pgTable,
  integer,
  text,
  date,
  timestamp,
  boolean,
  index,
  check,
  jsonb,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { oneOf } from '@/server/db/sql-helpers';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { APPEAL_LEVELS, APPEAL_OUTCOMES, CLAIM_STATUSES, PAYMENT_SOURCES } from '../claims.schema';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';
import { users } from '@/features/auth/server/auth.table';
import { coverages } from '@/features/coverage/server/coverage.table';
import { practiceNow } from '@/shared/practice-zone';

/**
 * The claim's own searchable codes: account number, procedure and reason code, one per line so a search
 * never matches across two fields. The Claims search and its trigram index use this one expression, so
 * the index serves the search. (The payer is a fixed list, matched by name before the query is built.)
 */
export function claimSearchText(c: {
  accountNumber: AnyPgColumn;
  procedureCode: AnyPgColumn;
  reasonCode: AnyPgColumn;
}) {
  return sql`(${c.accountNumber} || E'\\n' || ${c.procedureCode} || E'\\n' || coalesce(${c.reasonCode}, ''))`;
}

/**
 * One professional claim (X12 837P): its header here, its service lines in claim_lines. Money is integer
 * cents; billed_cents and procedure_code are derived from the lines (the total, and the first line's code)
 * by the database (claims_totals_from_lines). The dates and flags are the stored facts the KPI engine
 * computes from.
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
    /** The patient control number (X12 CLM01): the practice's own number for the claim, echoed by payers. */
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
    /**
     * Clean on first submission: the first scrub found no error (claims scrubbed here, first_scrub_clean), or
     * accepted by the payer on first submission without edits (claims imported with their history).
     */
    cleanSubmission: boolean('clean_submission').notNull().default(true),
    /** The first adjudication was a denial (later appeals do not change this fact). */
    deniedOnFirstAdjudication: boolean('denied_on_first_adjudication').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow().$defaultFn(practiceNow),
    /**
     * A claim entered by mistake (a bad import) is voided, not deleted: it stays in the list as Voided and in
     * the audit trail, and no KPI, rollup or balance counts it (docs/payers.md).
     */
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidedBy: integer('voided_by').references(() => users.id),
    voidReason: text('void_reason'),
    /** The policy billed (null on claims from before coverages were recorded, and on self-pay). */
    coverageId: integer('coverage_id').references(() => coverages.id),
    /** CMS place-of-service code (X12 CLM05-1), e.g. 11 office, 10 telehealth in the patient's home. */
    placeOfService: text('place_of_service').notNull().default('11'),
    /** X12 claim frequency (CLM05-3): 1 original, 7 replacement, 8 void of an earlier claim. */
    frequencyCode: text('frequency_code').notNull().default('1'),
    /** The payer's number of the claim a replacement or void refers to (X12 REF*F8). */
    originalClaimNumber: text('original_claim_number'),
    /**
     * The provider who referred the patient for the service (X12 loop 2310A), usually from another practice, so
     * kept by name and NPI rather than as one of the practice's providers; both or neither.
     */
    referringProviderName: text('referring_provider_name'),
    referringProviderNpi: text('referring_provider_npi'),
    /**
     * For a claim billed to a later policy of the patient (secondary, tertiary): the claim the earlier policy's payer
     * adjudicated, whose posted remittance the 837P reports to this claim's payer (loops 2320 and 2430).
     */
    primaryClaimId: integer('primary_claim_id').references((): AnyPgColumn => claims.id),
    /**
     * The part of this claim's charge its payer left and the patient's next policy was billed for (a claim billing
     * after this one, primary_claim_id): that payer's to answer now, so not this claim's balance or A/R any more.
     * 0 for other claims, and again once that claim is voided (docs/x12-837.md "After another payer").
     */
    handedOnCents: integer('handed_on_cents').notNull().default(0),
    /**
     * On a claim billed after another payer's adjudication: the part of the charge the earlier payers settled (paid
     * and adjusted), which this payer does not owe; its remittance reports it as CARC 23. 0 for other claims.
     */
    priorPayersCents: integer('prior_payers_cents').notNull().default(0),
    /** ICD-10-CM codes in order, the first the principal one (X12 HI ABK, then ABF); at most 12. */
    diagnoses: text('diagnoses')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Whether the claim's first scrub found no error: the clean claim rate counts it (docs/kpis.md). */
    firstScrubClean: boolean('first_scrub_clean'),
  },
  (t) => [
    check('claims_status_check', oneOf(t.status, CLAIM_STATUSES)),
    // The payer is one of the payers table's names (checked where claims are written: the import), not a
    // fixed list, so an admin can add a payer (docs/payers.md).
    check(
      'claims_money_check',
      sql`${t.billedCents} >= 0 and ${t.paidCents} >= 0 and ${t.contractualAdjustmentCents} >= 0 and ${t.patientResponsibilityCents} >= 0`,
    ),
    check('claims_other_payers_check', sql`${t.handedOnCents} >= 0 and ${t.priorPayersCents} >= 0`),
    // A CARC group, a hyphen and 1–4 capital letters or digits (the pattern '^(CO|PR|OA|PI|CR)-[A-Z0-9]{1,4}$'),
    // and two digits, written without regular expressions: every claim written is checked, and the two
    // expressions cost ~1.3 s of the scale seed's million claims, these ~0.5 s (docs/performance.md). ltrim
    // leaves nothing exactly when every character is one of those listed.
    check(
      'claims_reason_check',
      sql`${t.reasonCode} is null or (left(${t.reasonCode}, 3) in ('CO-', 'PR-', 'OA-', 'PI-', 'CR-')
        and octet_length(${t.reasonCode}) between 4 and 7
        and ltrim(substr(${t.reasonCode}, 4), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') = '')`,
    ),
    check(
      'claims_place_of_service_check',
      sql`octet_length(${t.placeOfService}) = 2 and ltrim(${t.placeOfService}, '0123456789') = ''`,
    ),
    check('claims_frequency_check', sql`${t.frequencyCode} in ('1', '7', '8')`),
    check(
      'claims_referring_provider_check',
      sql`(${t.referringProviderName} is null) = (${t.referringProviderNpi} is null)`,
    ),
    check('claims_diagnoses_check', sql`cardinality(${t.diagnoses}) <= 12`),
    // A paid claim is Closed exactly when its balance is resolved (docs/claims.md, "The life cycle"): an update
    // is set right by the trigger claims_closed_when_settled, an insert must agree.
    check(
      'claims_closed_check',
      sql`(${t.status} = 'Closed') = (${t.status} in ('Paid', 'Closed') and ${t.resolvedOn} is not null)`,
    ),
    index('claims_coverage_idx').on(t.coverageId),
    // Partial: only the few claims billed after another's adjudication are in it; other claims' writes skip it.
    index('claims_primary_claim_idx').on(t.primaryClaimId).where(sql.raw('primary_claim_id is not null')),
    // The trailing id keeps paging stable (one index serves sort and tie-breaker, both directions) and
    // lets the Claims search and counts read the index alone.
    index('claims_service_date_idx').on(t.serviceDate, t.id),
    index('claims_patient_idx').on(t.patientId, t.serviceDate, t.id),
    index('claims_payer_idx').on(t.payer, t.serviceDate, t.id),
    // The Claims list filtered by status or provider, in its default order (newest service date first), and
    // sorted by status or provider name (then service date): one index per filter serves both.
    index('claims_status_service_date_idx').on(t.status, t.serviceDate, t.id),
    index('claims_provider_service_date_idx').on(t.providerId, t.serviceDate, t.id),
    // Scale (bench/results.md): the Claims list, overview and export filter and sort in the database on
    // a million claims.
    index('claims_search_trgm_idx').using('gin', sql`${claimSearchText(t)} gin_trgm_ops`),
    // Every write of a claims row that is not heap-only adds an entry to each index whose predicate it meets:
    // a Draft (no reason, not submitted, not adjudicated) skips the partial ones, and no query looks for the
    // null side of these columns.
    index('claims_reason_code_idx').on(t.reasonCode).where(sql.raw('reason_code is not null')),
    // A reason code's description is its newest first-pass denial's text: read backwards from the end of the
    // code's entries. Only denials with a text have one (a few percent of claims).
    index('claims_denial_texts_idx')
      .on(t.reasonCode, t.id)
      .where(sql.raw('denied_on_first_adjudication and denial_description is not null')),
    index('claims_billed_id_idx').on(t.billedCents, t.id),
    index('claims_paid_id_idx').on(t.paidCents, t.id),
    index('claims_procedure_id_idx').on(t.procedureCode, t.id),
    // Denials are a small share of claims: the overview's denial figures read this index alone.
    index('claims_denied_idx')
      .on(t.payer, t.reasonCode, t.billedCents)
      .where(sql`${t.deniedOnFirstAdjudication}`),
    // Keyset paging by days in A/R (docs/paging.md): the list merges resolved claims in (fixed) days order, open
    // claims newest service date first, and the rare claims resolved after today (claims.queries.ts). The
    // open claims' index also serves every search of open claims by service date (the open receivables):
    // a second one on service date alone only cost each write of a claim another index entry.
    index('claims_days_ar_resolved_idx')
      .on(sql`greatest(0, (${t.resolvedOn} - ${t.serviceDate}))`, t.id)
      .where(sql.raw('resolved_on is not null')),
    index('claims_open_service_date_idx')
      .on(t.serviceDate.desc().nullsFirst(), t.id)
      .where(sql.raw('resolved_on is null')),
    index('claims_resolved_on_idx').on(t.resolvedOn).where(sql.raw('resolved_on is not null')),
    // The dashboard's newest denials (listNewestDenials): read in order, a few rows, whatever the count.
    index('claims_newest_denials_idx')
      .on(t.adjudicatedOn.desc().nullsLast(), t.serviceDate.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql.raw(`status = 'Denied'`)),
  ],
);

/**
 * A claim's service lines (X12 837P loop 2400): procedure with up to 4 modifiers, units, charge, the
 * diagnoses it answers (1-based pointers into the claim's diagnoses) and the line control number payers
 * echo in their remittance (REF*6R), unique in the practice.
 */
export const claimLines = pgTable(
  'claim_lines',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    claimId: integer('claim_id')
      .notNull()
      .references(() => claims.id, { onDelete: 'cascade' }),
    lineNumber: integer('line_number').notNull(),
    procedureCode: text('procedure_code').notNull(),
    modifiers: text('modifiers')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    units: integer('units').notNull().default(1),
    chargeCents: integer('charge_cents').notNull(),
    diagnosisPointers: integer('diagnosis_pointers')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    serviceDate: date('service_date', { mode: 'string' }).notNull(),
    lineControlNumber: text('line_control_number').notNull().unique(),
  },
  (t) => [
    uniqueIndex('claim_lines_claim_line_uq').on(t.claimId, t.lineNumber),
    check('claim_lines_line_number_check', sql`${t.lineNumber} between 1 and 50`),
    check('claim_lines_units_check', sql`${t.units} >= 1`),
    check('claim_lines_charge_check', sql`${t.chargeCents} >= 0`),
    check('claim_lines_modifiers_check', sql`cardinality(${t.modifiers}) <= 4`),
    check('claim_lines_pointers_check', sql`cardinality(${t.diagnosisPointers}) <= 4`),
  ],
);

/**
 * Every scrub of a claim: what the scrubber found (features/submission/submission.scrubber.ts edits), and, when someone sent the
 * claim on despite warnings, who and why. Kept, so a claim's history shows each run.
 */
export const claimScrubs = pgTable(
  'claim_scrubs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    claimId: integer('claim_id')
      .notNull()
      .references(() => claims.id, { onDelete: 'cascade' }),
    scrubbedAt: timestamp('scrubbed_at', { withTimezone: true }).notNull().defaultNow().$defaultFn(practiceNow),
    scrubbedBy: integer('scrubbed_by').references(() => users.id),
    /** No error. */
    clean: boolean('clean').notNull(),
    edits: jsonb('edits')
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Why the warnings were accepted; null when there were none or they stopped the claim. */
    overrideReason: text('override_reason'),
  },
  (t) => [index('claim_scrubs_claim_idx').on(t.claimId, t.id)],
);

/**
 * The most a procedure is expected to be billed at: an imported charge above it is imported with a warning
 * (a typo such as $999,999.00 for a venipuncture), not refused. Codes without a row use
 * DEFAULT_CHARGE_CEILING_CENTS (claims.schema.ts).
 */
export const chargeCeilings = pgTable(
  'charge_ceilings',
  {
    procedureCode: text('procedure_code').primaryKey(),
    ceilingCents: integer('ceiling_cents').notNull(),
  },
  (t) => [check('charge_ceilings_positive_check', sql`${t.ceilingCents} > 0`)],
);

export const claimAppeals = pgTable(
  'claim_appeals',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    claimId: integer('claim_id')
      .notNull()
      .references(() => claims.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    note: text('note').notNull().default(''),
    level: text('level').notNull().default('first'),
    deadline: date('deadline', { mode: 'string' }),
    /** Set once the payer answers: won, partial or lost, with what it paid on the appeal. */
    outcome: text('outcome'),
    outcomeAmountCents: integer('outcome_amount_cents'),
    decidedOn: date('decided_on', { mode: 'string' }),
    decidedBy: integer('decided_by').references(() => users.id),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow().$defaultFn(practiceNow),
  },
  (t) => [
    index('claim_appeals_claim_idx').on(t.claimId),
    check('claim_appeals_level_check', oneOf(t.level, APPEAL_LEVELS)),
    check('claim_appeals_outcome_check', sql`${t.outcome} is null or ${oneOf(t.outcome, APPEAL_OUTCOMES)}`),
    check(
      'claim_appeals_outcome_amount_check',
      sql`(${t.outcome} is null) = (${t.outcomeAmountCents} is null) and coalesce(${t.outcomeAmountCents}, 0) >= 0`,
    ),
  ],
);

/** Every payment: payer remittances and the patient's own (portal, guest). Claims' balances are made of them. */
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow().$defaultFn(practiceNow),
  },
  (t) => [
    // A payer's reversal of an earlier remittance (X12 835 CLP02 22) takes its payment back: a negative payer
    // payment (docs/remittances.md). What patients pay is always positive.
    check('payments_amount_check', sql`${t.amountCents} <> 0 and (${t.source} = 'payer' or ${t.amountCents} > 0)`),
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
