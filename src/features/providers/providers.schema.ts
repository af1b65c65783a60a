import { z } from 'zod';
import { TAXONOMY_PATTERN } from '@/shared/billing-identifiers';
import { npiValueSchema } from '@/shared/billing-identifiers.schema';

export const providerSchema = z.object({ id: z.number().int(), name: z.string(), specialty: z.string() });
export type Provider = z.infer<typeof providerSchema>;

/** A provider as the Settings → Providers tab (admin) shows it, deactivated ones included. */
export const managedProviderSchema = providerSchema.extend({
  active: z.boolean(),
  /** The individual NPI their claims name as rendering provider (X12 837P loop 2310B); null until entered. */
  npi: z.string().nullable(),
  /** NUCC Health Care Provider Taxonomy code (837P PRV03); null until entered. */
  taxonomyCode: z.string().nullable(),
});
export type ManagedProvider = z.infer<typeof managedProviderSchema>;
export const managedProviderListSchema = z.object({ items: z.array(managedProviderSchema) });

const nameSchema = z.string().trim().min(1, 'is required').max(120, 'must be at most 120 characters');
const specialtySchema = z.string().trim().min(1, 'is required').max(80, 'must be at most 80 characters');

/** Blank text from a form means "not entered", as null does from the API. */
const blankAsNull = (value: string | null) => (value === '' ? null : value);

const npiSchema = z.string().trim().nullable().transform(blankAsNull).pipe(npiValueSchema.nullable());
const taxonomyCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .nullable()
  .transform(blankAsNull)
  .pipe(
    z
      .string()
      .regex(TAXONOMY_PATTERN, 'must be a NUCC taxonomy code: 10 characters ending in X, such as 207Q00000X')
      .nullable(),
  );

export const newProviderSchema = z
  .object({
    name: nameSchema,
    specialty: specialtySchema,
    npi: npiSchema.optional().transform((v) => v ?? null),
    taxonomyCode: taxonomyCodeSchema.optional().transform((v) => v ?? null),
  })
  .strict();
export type NewProvider = z.output<typeof newProviderSchema>;

/** A deactivated provider keeps their past visits and claims but is not offered for new bookings. */
export const providerPatchSchema = z
  .object({
    name: nameSchema,
    specialty: specialtySchema,
    active: z.boolean(),
    npi: npiSchema,
    taxonomyCode: taxonomyCodeSchema,
  })
  .partial()
  .strict()
  .refine((p) => Object.keys(p).length > 0, { message: 'must change at least one field', path: ['name'] });
export type ProviderPatch = z.output<typeof providerPatchSchema>;
