import { z } from 'zod';

/**
 * X12 claim filing indicator codes (SBR09 of an 837P, 005010X222A1): which kind of plan pays. The common
 * ones first.
 */
export const CLAIM_FILING_INDICATORS = [
  'CI', // commercial insurance
  'MB', // Medicare Part B
  'MC', // Medicaid
  'BL', // Blue Cross/Blue Shield
  'HM', // health maintenance organization
  '16', // HMO Medicare risk (Medicare Advantage)
  'CH', // CHAMPUS (TRICARE)
  'VA', // veterans affairs plan
  'WC', // workers' compensation
  '12', // preferred provider organization
  '13', // point of service
  '14', // exclusive provider organization
  '11', // other non-federal program
  'OF', // other federal program
  'ZZ', // mutually defined (unknown)
  '09', // self-pay
] as const;
export type ClaimFilingIndicator = (typeof CLAIM_FILING_INDICATORS)[number];
/** How staff read each indicator: the X12 code and the kind of plan it names. */
export const CLAIM_FILING_INDICATOR_LABELS: Record<ClaimFilingIndicator, string> = {
  CI: 'Commercial',
  MB: 'Medicare Part B',
  MC: 'Medicaid',
  BL: 'Blue Cross/Blue Shield',
  HM: 'HMO',
  '16': 'Medicare Advantage (HMO risk)',
  CH: 'TRICARE',
  VA: 'Veterans Affairs',
  WC: "Workers' compensation",
  '12': 'PPO',
  '13': 'POS',
  '14': 'EPO',
  '11': 'Other non-federal',
  OF: 'Other federal',
  ZZ: 'Unknown',
  '09': 'Self-pay',
};

/** 'MB Medicare Part B': the code a payer's claims carry, then what it means. */
export function claimFilingIndicatorLabel(code: ClaimFilingIndicator): string {
  return `${code} ${CLAIM_FILING_INDICATOR_LABELS[code]}`;
}

export const claimFilingIndicatorSchema = z.enum(CLAIM_FILING_INDICATORS, {
  error: `must be an X12 claim filing indicator (${CLAIM_FILING_INDICATORS.join(', ')})`,
});

/** A payer as the Settings → Payers tab (admin) shows it. */
export const payerRecordSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The electronic (EDI) payer id; null where none applies or it is not yet known. */
  payerId: z.string().nullable(),
  timelyFilingDays: z.number().int(),
  /** Days after a remittance within which the payer takes an appeal: the work queue's due dates (docs/work-queue.md). */
  appealDays: z.number().int(),
  claimFilingIndicator: claimFilingIndicatorSchema,
  active: z.boolean(),
  /** Days after sending with no adjudication before the payer is asked for the claim's status (276); null: never. */
  claimStatusAfterDays: z.number().int().nullable(),
});
export type PayerRecord = z.infer<typeof payerRecordSchema>;
export const payerListSchema = z.object({ items: z.array(payerRecordSchema) });

/**
 * A payer a patient's policy can name (`GET /api/payers`): the active ones, with the kind of plan, which
 * says whether the member id is a Medicare MBI.
 */
export const activePayerSchema = payerRecordSchema.pick({ name: true, claimFilingIndicator: true });
export type ActivePayer = z.infer<typeof activePayerSchema>;

/** The timely-filing limit assumed for a payer the import does not know. */
export const DEFAULT_TIMELY_FILING_DAYS = 365;

const payerIdSchema = z
  .string()
  .trim()
  .max(20, 'must be at most 20 characters')
  .regex(/^[A-Za-z0-9-]*$/, 'must be letters, digits and dashes')
  .transform((v) => (v === '' ? null : v.toUpperCase()))
  .nullable();
const timelyFilingDaysSchema = z
  .number({ error: 'must be a whole number of days' })
  .int('must be a whole number of days')
  .min(1, 'must be at least 1 day')
  .max(3650, 'must be at most 3650 days');
const appealDaysSchema = timelyFilingDaysSchema;
/** The default of payers.claim_status_after_days. */
export const DEFAULT_CLAIM_STATUS_AFTER_DAYS = 30;
const claimStatusAfterDaysSchema = z
  .number({ error: 'must be a whole number of days, or null to never ask' })
  .int('must be a whole number of days')
  .min(1, 'must be at least 1 day')
  .max(365, 'must be at most 365 days')
  .nullable();

export const newPayerSchema = z
  .object({
    name: z.string().trim().min(1, 'is required').max(80, 'must be at most 80 characters'),
    payerId: payerIdSchema.default(null),
    timelyFilingDays: timelyFilingDaysSchema,
    appealDays: appealDaysSchema.default(180),
    claimStatusAfterDays: claimStatusAfterDaysSchema.default(DEFAULT_CLAIM_STATUS_AFTER_DAYS),
    claimFilingIndicator: claimFilingIndicatorSchema.default('CI'),
  })
  .strict();
export type NewPayer = z.output<typeof newPayerSchema>;

/** The name is not editable: claims store it. */
export const payerPatchSchema = z
  .object({
    payerId: payerIdSchema,
    timelyFilingDays: timelyFilingDaysSchema,
    appealDays: appealDaysSchema,
    claimStatusAfterDays: claimStatusAfterDaysSchema,
    claimFilingIndicator: claimFilingIndicatorSchema,
    active: z.boolean(),
  })
  .partial()
  .strict()
  .refine((p) => Object.keys(p).length > 0, { message: 'must change at least one field', path: ['payerId'] });
export type PayerPatch = z.output<typeof payerPatchSchema>;
