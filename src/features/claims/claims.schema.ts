import { z } from 'zod';

/** DECISIONS 4: the full claim life cycle. */
export const CLAIM_STATUSES = [
  'Draft',
  'Submitted',
  'Pending',
  'Paid',
  'Partially Paid',
  'Denied',
  'Appealed',
  'Written Off',
] as const;
export const claimStatusSchema = z.enum(CLAIM_STATUSES);
export type ClaimStatus = z.infer<typeof claimStatusSchema>;

export const PAYERS = [
  'Medicare',
  'Medicaid',
  'Aetna',
  'Blue Cross Blue Shield',
  'UnitedHealthcare',
  'Cigna',
  'Humana',
  'Kaiser Permanente',
  'Tricare',
  'Self-Pay',
] as const;
export const payerSchema = z.enum(PAYERS);

/** A CARC adjustment reason as group + code, e.g. CO-197. */
export const reasonCodeSchema = z.string().regex(/^(CO|PR|OA|PI|CR)-[A-Z0-9]{1,4}$/, 'must be a CARC code like CO-197');
