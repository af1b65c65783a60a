/**
 * The remittances' contract (docs/remittances.md): the import's summary, the list of imports and one remittance's
 * postings. Money is integer cents; amounts of a reversal are negative.
 */
import { z } from 'zod';
import { cursorPageShape } from '@/shared/api';

export const REMITTANCE_CLAIM_OUTCOMES = ['posted', 'exception'] as const;
export type RemittanceClaimOutcome = (typeof REMITTANCE_CLAIM_OUTCOMES)[number];

/** A ledger entry: a payment, an adjustment (CAS), or the figures a claim had before its first posting. */
export const LEDGER_KINDS = ['payment', 'adjustment', 'opening'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * Where an entry counts on the claim: paid (claims.paid_cents), contractual (claims.contractual_adjustment_cents),
 * patient (claims.patient_responsibility_cents), forwarded (patient responsibility the payer sent on to the next
 * payer, CLP02 19–21) or other (an adjustment that is neither: a denial, a payer reduction).
 */
export const LEDGER_BUCKETS = ['paid', 'contractual', 'patient', 'forwarded', 'other'] as const;
export type LedgerBucket = (typeof LEDGER_BUCKETS)[number];

/** CLP02 claim status codes (ASC X12 005010X221A1) and what they mean to the practice. */
export const CLAIM_STATUS_CODE_LABELS: Record<string, string> = {
  '1': 'Processed as primary',
  '2': 'Processed as secondary',
  '3': 'Processed as tertiary',
  '4': 'Denied',
  '19': 'Processed as primary, forwarded',
  '20': 'Processed as secondary, forwarded',
  '21': 'Processed as tertiary, forwarded',
  '22': 'Reversal of previous payment',
  '23': 'Not our claim, forwarded',
  '25': 'Predetermination pricing only',
};

export const remittanceSummarySchema = z.object({
  remittanceId: z.number().int(),
  payer: z.string(),
  traceNumber: z.string(),
  paymentCents: z.number().int(),
  paymentDate: z.string().nullable(),
  claimsPosted: z.number().int(),
  claimsExceptions: z.number().int(),
  /** Claims posted as Paid whose balance went on to the patient's next policy, as new Draft claims. */
  claimsBilledNext: z.number().int(),
  postedCents: z.number().int(),
  exceptionCents: z.number().int(),
  providerAdjustmentCents: z.number().int(),
  /** True when this remittance (its payer and trace number) had been imported before: nothing was posted this time. */
  duplicate: z.boolean(),
});
export type RemittanceSummary = z.infer<typeof remittanceSummarySchema>;

/** What an import answers: each remittance of the file (one per 835 transaction set), in file order. */
export const remittanceImportSchema = z.object({ remittances: z.array(remittanceSummarySchema).min(1) });
export type RemittanceImport = z.infer<typeof remittanceImportSchema>;

export const remittanceRowSchema = remittanceSummarySchema.omit({ duplicate: true }).extend({
  method: z.string(),
  importedAt: z.string(),
  importedBy: z.string().nullable(),
});
export type RemittanceRow = z.infer<typeof remittanceRowSchema>;

export const remittanceListQuerySchema = z
  .object({
    limit: z.coerce
      .number({ message: 'must be a number from 1 to 200' })
      .int('must be a number from 1 to 200')
      .min(1, 'must be a number from 1 to 200')
      .max(200, 'must be a number from 1 to 200')
      .default(50),
    cursor: z.string().max(500, 'is not a cursor this list issued').optional(),
  })
  .strict();
export type RemittanceListQuery = z.infer<typeof remittanceListQuerySchema>;

export const remittancePageSchema = z.object({ items: z.array(remittanceRowSchema), ...cursorPageShape });
export type RemittancePage = z.infer<typeof remittancePageSchema>;

export const ledgerEntrySchema = z.object({
  lineControlNumber: z.string().nullable(),
  procedureCode: z.string().nullable(),
  kind: z.enum(LEDGER_KINDS),
  groupCode: z.string().nullable(),
  reasonCode: z.string().nullable(),
  bucket: z.enum(LEDGER_BUCKETS),
  amountCents: z.number().int(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const remittanceClaimSchema = z.object({
  seq: z.number().int(),
  claimId: z.number().int().nullable(),
  patientControlNumber: z.string(),
  patientName: z.string().nullable(),
  statusCode: z.string(),
  chargeCents: z.number().int(),
  paidCents: z.number().int(),
  patientResponsibilityCents: z.number().int(),
  payerClaimNumber: z.string(),
  outcome: z.enum(REMITTANCE_CLAIM_OUTCOMES),
  exceptionReason: z.string().nullable(),
  reversal: z.boolean(),
  entries: z.array(ledgerEntrySchema),
});
export type RemittanceClaim = z.infer<typeof remittanceClaimSchema>;

export const providerAdjustmentSchema = z.object({
  providerIdentifier: z.string(),
  fiscalPeriod: z.string().nullable(),
  reason: z.string(),
  reference: z.string(),
  amountCents: z.number().int(),
});

export const remittanceDetailSchema = z.object({
  remittance: remittanceRowSchema,
  claims: z.array(remittanceClaimSchema),
  providerAdjustments: z.array(providerAdjustmentSchema),
});
export type RemittanceDetail = z.infer<typeof remittanceDetailSchema>;
