import { z } from 'zod';
import { formatDollars, isoDateSchema } from '@/shared/api';
import { claimStatusSchema } from '@/features/claims/claims.schema';
import { practiceLetterheadSchema } from '@/features/settings/practice.schema';

/** What a guest gives to find a statement: the claim's account number and the patient's date of birth. */
export const guestStatementRequestSchema = z.object({
  accountNumber: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(40, 'must be at most 40 characters')
    .transform((s) => s.toUpperCase()),
  dob: isoDateSchema,
});
export type GuestStatementRequest = z.input<typeof guestStatementRequestSchema>;

/** One claim account's statement, as a guest sees it: amounts only, no name and no other PHI. */
export const guestStatementSchema = z.object({
  accountNumber: z.string(),
  serviceDate: z.string(),
  procedureCode: z.string(),
  billedCents: z.number().int(),
  insurancePaidCents: z.number().int(),
  adjustmentsCents: z.number().int(),
  patientResponsibilityCents: z.number().int(),
  patientPaidCents: z.number().int(),
  amountDueCents: z.number().int(),
});
export type GuestStatement = z.infer<typeof guestStatementSchema>;

/** An amount to pay, in cents: a whole, positive number (the same rule for guests and patients). */
export const paymentAmountSchema = z
  .number({ message: 'must be an amount in cents' })
  .int('must be a whole number of cents')
  .positive('must be more than 0');

export const guestPaymentRequestSchema = guestStatementRequestSchema.extend({
  amountCents: paymentAmountSchema,
});
export type GuestPaymentRequest = z.input<typeof guestPaymentRequestSchema>;

export const guestPaymentReceiptSchema = z.object({
  receiptReference: z.string(),
  amountPaidCents: z.number().int(),
  amountDueCents: z.number().int(),
});
export type GuestPaymentReceipt = z.infer<typeof guestPaymentReceiptSchema>;

/** The one answer for an unknown account and for a wrong date of birth alike (no enumeration). */
export const GUEST_STATEMENT_NOT_FOUND = 'No statement matches that account number and date of birth.';
/** Failed lookups (statement or payment) one account number allows per hour before it is locked for lookups. */
export const GUEST_LOOKUP_FAILURES_PER_HOUR = 5;

// ---------------------------------------------------------------------------------------------
// Statements, patient payments and the staff financial summary.

/**
 * A staff statement lists the 3 most recent claims and every other claim with an amount due; the patient's
 * lists every claim.
 */
export const STAFF_STATEMENT_CLAIM_LIMIT = 3;
/** The heading (and table name) of the claims a staff statement lists. */
export const STAFF_STATEMENT_CLAIMS_LABEL = `${STAFF_STATEMENT_CLAIM_LIMIT} most recent claims and every claim with an amount due`;
/** Top 5 providers and payers. */
export const BILLING_TOP_LIMIT = 5;
/** A payer's denial-rate badge is destructive above 15 %. */
export const PAYER_DENIAL_ALERT_PERCENT = 15;
/** The overall denial trend arrow is red above 10 %. */
export const DENIAL_TREND_ALERT_PERCENT = 10;
/** The statement generator's patient picker lists at most this many names. */
export const BILLING_PATIENT_SEARCH_LIMIT = 20;

/** A patient's account number on statements: the record's id, zero-padded (the MRN is PHI some roles may not see). */
export function patientAccountNumber(patientId: number): string {
  return `PA-${String(patientId).padStart(6, '0')}`;
}

/** A patient to pick for a statement: the name and the id, nothing more. */
/** The statement generator's picker: name, date of birth and MRN (masked for the role). */
export const billingPatientSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  dob: z.string(),
  mrn: z.string(),
});
export type BillingPatient = z.infer<typeof billingPatientSchema>;

export const billingPatientQuerySchema = z.object({ search: z.string().trim().max(100).default('') });

/**
 * Where a claim's (or a statement's) billed dollars are, in integer cents (docs/statements.md). The columns
 * add up: billed = insurance paid + contractual + other adjustment + insurance pending + patient paid + amount due.
 */
export const statementAmountsSchema = z.object({
  billedCents: z.number().int(),
  /** What the payer paid (claims.paid_cents). */
  insurancePaidCents: z.number().int(),
  /** Written off by contract: billed − allowed (CO-45), or the self-pay discount. */
  contractualAdjustmentCents: z.number().int(),
  /** Adjusted off once the payer is done with the claim: a denial written off, a payer reduction. */
  otherAdjustmentCents: z.number().int(),
  /** Still with the payer: not yet adjudicated, denied and being worked, appealed, or partially paid. */
  insurancePendingCents: z.number().int(),
  /** What the patient (or a guest on their behalf) paid. */
  patientPaidCents: z.number().int(),
  /** The balance rule (claims.formulas.ts): the patient's share less the patient's payments, never below 0. */
  amountDueCents: z.number().int(),
});
export type StatementAmounts = z.infer<typeof statementAmountsSchema>;

/** The names of the statement's money columns, in the order they add up. */
export const STATEMENT_AMOUNT_KEYS = Object.keys(statementAmountsSchema.shape) as (keyof StatementAmounts)[];

/** One claim on a statement; money in integer cents. */
export const statementClaimSchema = statementAmountsSchema.extend({
  id: z.number().int(),
  accountNumber: z.string(),
  serviceDate: z.string(),
  /** The procedure (CPT/HCPCS) code billed. */
  procedure: z.string(),
  /** The code in words, or null for a code outside the practice's list. */
  procedureDescription: z.string().nullable(),
  provider: z.string(),
  status: claimStatusSchema,
  /** Paid so far: by the payer and by the patient. */
  paidCents: z.number().int(),
  /**
   * The patient's share as the payer's remittance split it (X12 835 CAS PR-1, PR-2, PR-3): deductible,
   * coinsurance and copay, summed over the claim's posting ledger (docs/remittances.md); 0 where none was posted.
   */
  patientShare: z.object({
    deductibleCents: z.number().int(),
    coinsuranceCents: z.number().int(),
    copayCents: z.number().int(),
  }),
});
export type StatementClaim = z.infer<typeof statementClaimSchema>;

/** A payment by the patient (or a guest for them) on the statement's payment history. */
export const statementPaymentSchema = z.object({
  id: z.number().int(),
  receivedOn: z.string(),
  /** The receipt number given at payment (PP-, GP-), or R- and the payment's number for one taken at the desk. */
  receiptNumber: z.string(),
  /** The claim account the payment went to. */
  accountNumber: z.string().nullable(),
  source: z.enum(['patient', 'guest']),
  amountCents: z.number().int(),
});
export type StatementPayment = z.infer<typeof statementPaymentSchema>;

/**
 * One patient's statement. The totals cover every claim of the patient; `claims` holds the listed ones
 * (all of them for the patient; for staff the `STAFF_STATEMENT_CLAIM_LIMIT` most recent and every other
 * with an amount due), newest service date first; `otherClaims` sums the ones not listed, so the listed
 * lines and it add up to the totals.
 */
export const statementSchema = statementAmountsSchema.extend({
  practice: practiceLetterheadSchema,
  patientId: z.number().int(),
  /** The patient's account number (patientAccountNumber). */
  accountNumber: z.string(),
  patientName: z.string(),
  statementDate: z.string(),
  claimCount: z.number().int(),
  totalBilledCents: z.number().int(),
  /** What payers paid (claims.paid_cents); the same as insurancePaidCents. */
  payerPaidCents: z.number().int(),
  /** payerPaidCents + patientPaidCents. */
  totalPaidCents: z.number().int(),
  claims: z.array(statementClaimSchema),
  otherClaims: statementAmountsSchema.extend({ claimCount: z.number().int() }),
  /** The patient's payments, newest first. */
  payments: z.array(statementPaymentSchema),
});
export type Statement = z.infer<typeof statementSchema>;

/** The rule for a payment against a balance: a valid amount that is at most the balance. */
export function paymentAmountUpTo(balanceCents: number) {
  return paymentAmountSchema.refine((cents) => cents <= balanceCents, {
    message:
      balanceCents <= 0
        ? 'nothing is due on your balance'
        : `must be at most your balance, ${formatDollars(balanceCents)}`,
  });
}

/** 'Pay Balance' in the patient's My Billing: the patient comes from the session, never from the body. */
export const patientPaymentRequestSchema = z.object({ amountCents: paymentAmountSchema });
export type PatientPaymentRequest = z.infer<typeof patientPaymentRequestSchema>;

/** The answer to 'Pay Balance': the receipt number and the statement after the payment. */
export const patientPaymentReceiptSchema = statementSchema.extend({ receiptReference: z.string() });
export type PatientPaymentReceipt = z.infer<typeof patientPaymentReceiptSchema>;

export const payerPerformanceSchema = z.object({
  periodDays: z.number().int(),
  periodStart: z.string(),
  periodEnd: z.string(),
  /** The top payers by collections in the period, most first. */
  payers: z.array(
    z.object({
      payer: z.string(),
      /** What the payer paid in the period (payments received in the period). */
      collectionsCents: z.number().int(),
      /** Claims of the payer adjudicated in the period. */
      adjudicatedClaims: z.number().int(),
      /** Of those, the ones denied on first adjudication. */
      deniedClaims: z.number().int(),
      /** deniedClaims ÷ adjudicatedClaims × 100, one decimal; null when nothing was adjudicated. */
      denialRate: z.number().nullable(),
    }),
  ),
  /** The denial rate of every payer in this period and in the period of the same length before it. */
  denialTrend: z.object({
    currentRate: z.number().nullable(),
    previousRate: z.number().nullable(),
    previousPeriodStart: z.string(),
    previousPeriodEnd: z.string(),
  }),
});
export type PayerPerformance = z.infer<typeof payerPerformanceSchema>;
