import { z } from 'zod';
import { isValidNpi } from './billing-identifiers';

/**
 * A National Provider Identifier as typed and trimmed, checked as CMS defines it: 10 digits, the last the Luhn check
 * digit over 80840 and the first nine. One schema, so the practice's billing NPI, a provider's and a claim's
 * referring provider's are refused with the same words.
 */
export const npiValueSchema = z
  .string()
  .regex(/^\d{10}$/, { error: 'must be 10 digits', abort: true })
  .refine(isValidNpi, 'must be a valid NPI: 10 digits with a correct check digit');
