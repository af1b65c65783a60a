import { z } from 'zod';
import { formatCents, isoDateSchema } from '@/shared/api';
import { claimStatusSchema } from '@/features/claims/claims.schema';

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

/** A statement lists the 3 most recent claims for staff and every claim for the patient. */
export const STAFF_STATEMENT_CLAIM_LIMIT = 3;
/** Top 5 providers and payers. */
export const BILLING_TOP_LIMIT = 5;
/** A payer's denial-rate badge is destructive above 15 %. */
export const PAYER_DENIAL_ALERT_PERCENT = 15;
/** The overall denial trend arrow is red above 10 %. */
export const DENIAL_TREND_ALERT_PERCENT = 10;
/** The statement generator's patient picker lists at most this many names. */
export const BILLING_PATIENT_SEARCH_LIMIT = 20;

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

/** One claim on a statement; money in integer cents. */
export const statementClaimSchema = z.object({
  id: z.number().int(),
  accountNumber: z.string(),
  serviceDate: z.string(),
  /** The procedure (CPT/HCPCS) code billed. */
  procedure: z.string(),
  provider: z.string(),
  status: claimStatusSchema,
  billedCents: z.number().int(),
  /** Paid so far: by the payer and by the patient. */
  paidCents: z.number().int(),
  /** The balance rule (claims.formulas.ts): the patient's share less the patient's payments, never below 0. */
  amountDueCents: z.number().int(),
});
export type StatementClaim = z.infer<typeof statementClaimSchema>;

/**
 * One patient's statement. The totals cover every claim of the patient; `claims` holds the most recent
 * ones (all of them for the patient, `STAFF_STATEMENT_CLAIM_LIMIT` for staff), newest service date first.
 */
export const statementSchema = z.object({
  patientId: z.number().int(),
  patientName: z.string(),
  statementDate: z.string(),
  claimCount: z.number().int(),
  totalBilledCents: z.number().int(),
  /** What payers paid (claims.paid_cents). */
  payerPaidCents: z.number().int(),
  /** What the patient (or a guest on their behalf) paid. */
  patientPaidCents: z.number().int(),
  /** payerPaidCents + patientPaidCents. */
  totalPaidCents: z.number().int(),
  /** The sum of every claim's amount due: the patient's balance. */
  amountDueCents: z.number().int(),
  claims: z.array(statementClaimSchema),
});
export type Statement = z.infer<typeof statementSchema>;

/** The rule for a payment against a balance: a valid amount that is at most the balance. */
export function paymentAmountUpTo(balanceCents: number) {
  return paymentAmountSchema.refine((cents) => cents <= balanceCents, {
    message:
      balanceCents <= 0
        ? 'nothing is due on your balance'
        : `must be at most your balance, $${formatCents(balanceCents)}`,
  });
}

/** 'Pay Balance' in the patient's My Billing: the patient comes from the session, never from the body. */
export const patientPaymentRequestSchema = z.object({ amountCents: paymentAmountSchema });
export type PatientPaymentRequest = z.infer<typeof patientPaymentRequestSchema>;

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
