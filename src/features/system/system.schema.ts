import { z } from 'zod';

/** `POST /api/seed`: re-seeds the demo clinic's data; users, settings and the audit trail stay. */
export const seedRequestSchema = z.object({
  /** It replaces every clinic record: the client sends the confirmation the admin accepted, or it is refused. */
  confirm: z.literal('SEED'),
});
export const seedResponseSchema = z.object({
  /** Rows written per table, e.g. { patients: 120, claims: 900 }. */
  summary: z.record(z.string(), z.number().int()),
});
export type SeedResponse = z.infer<typeof seedResponseSchema>;

/** `POST /api/system/reset`: clears the clinic data; staff accounts, providers, payers and the audit trail stay. */
export const resetRequestSchema = z.object({
  /** The client sends the confirmation the admin accepted; anything else is refused with a 400. */
  confirm: z.literal('RESET'),
});
export const resetResponseSchema = z.object({
  cleared: z.array(z.string()),
});
export type ResetResponse = z.infer<typeof resetResponseSchema>;
