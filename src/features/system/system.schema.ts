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

/**
 * `GET /api/system/database-pool`: the app server's connections to PostgreSQL and how long its requests waited
 * for one since it started (an operator's first look when answers slow down under load; the benchmark's
 * mixed load reads it before and after).
 */
export const databasePoolResponseSchema = z.object({
  /** Connections open now, of them idle, and callers waiting for one. */
  open: z.number().int(),
  idle: z.number().int(),
  waitingNow: z.number().int(),
  /** Connections handed out since start, the time spent waiting for them (ms) and the longest wait. */
  checkouts: z.number().int(),
  waitedMs: z.number(),
  longestWaitMs: z.number(),
});
export type DatabasePoolResponse = z.infer<typeof databasePoolResponseSchema>;

/** `POST /api/system/reset`: clears the clinic data; staff accounts, providers, payers and the audit trail stay. */
export const resetRequestSchema = z.object({
  /** The client sends the confirmation the admin accepted; anything else is refused with a 400. */
  confirm: z.literal('RESET'),
});
export const resetResponseSchema = z.object({
  cleared: z.array(z.string()),
});
export type ResetResponse = z.infer<typeof resetResponseSchema>;
