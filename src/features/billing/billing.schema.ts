import { z } from 'zod';
import { isoDateSchema } from '@/shared/api';

export const PAYMENT_SOURCES = ['payer', 'patient', 'guest'] as const;
export const paymentSourceSchema = z.enum(PAYMENT_SOURCES);
export type PaymentSource = z.infer<typeof paymentSourceSchema>;

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

export const guestPaymentRequestSchema = guestStatementRequestSchema.extend({
  amountCents: z
    .number({ message: 'must be an amount in cents' })
    .int('must be a whole number of cents')
    .positive('must be more than 0'),
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
