import { z } from 'zod';

export const providerSchema = z.object({ id: z.number().int(), name: z.string(), specialty: z.string() });
export type Provider = z.infer<typeof providerSchema>;

/** A provider as the Settings → Providers tab (admin) shows it, deactivated ones included. */
export const managedProviderSchema = providerSchema.extend({ active: z.boolean() });
export type ManagedProvider = z.infer<typeof managedProviderSchema>;
export const managedProviderListSchema = z.object({ items: z.array(managedProviderSchema) });

const nameSchema = z.string().trim().min(1, 'is required').max(120, 'must be at most 120 characters');
const specialtySchema = z.string().trim().min(1, 'is required').max(80, 'must be at most 80 characters');

export const newProviderSchema = z.object({ name: nameSchema, specialty: specialtySchema }).strict();
export type NewProvider = z.infer<typeof newProviderSchema>;

/** A deactivated provider keeps their past visits and claims but is not offered for new bookings. */
export const providerPatchSchema = z
  .object({ name: nameSchema, specialty: specialtySchema, active: z.boolean() })
  .partial()
  .strict()
  .refine((p) => Object.keys(p).length > 0, { message: 'must change at least one field', path: ['name'] });
export type ProviderPatch = z.infer<typeof providerPatchSchema>;
