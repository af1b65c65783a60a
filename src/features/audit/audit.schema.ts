import { z } from 'zod';
import { isoDateSchema } from '@/shared/api';

export const auditEntrySchema = z.object({
  id: z.number().int(),
  time: z.string(),
  actor: z.string(),
  action: z.string(),
  resource: z.string(),
  detail: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** The screen shows the 200 newest entries; more come a page at a time. */
export const AUDIT_PAGE_SIZE = 200;
export const AUDIT_MAX_PAGE_SIZE = 500;
/** The CSV holds at most this many of the newest matching entries; beyond it the user narrows the filters. */
export const AUDIT_EXPORT_MAX_ROWS = 10_000;

/**
 * Filters shared by the list and the export.
 * - actor: case-insensitive "contains" match on the actor (an email, or 'anonymous'), so 'billing' finds
 *   billing.admin@healthcare.demo.
 * - action: exact match (the choices come from GET /api/audit/actions).
 * - from / to: calendar days (YYYY-MM-DD, the server's local zone, like every other day in the app), both
 *   inclusive; from must not be after to.
 */
const auditFilterShape = {
  actor: z.string().trim().max(254).default(''),
  action: z.string().trim().max(100).optional(),
  from: isoDateSchema.optional(),
  to: isoDateSchema.optional(),
};

function fromNotAfterTo(value: { from?: string; to?: string }, ctx: z.RefinementCtx) {
  if (value.from && value.to && value.from > value.to) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be on or after from' });
  }
}

export const auditFilterSchema = z.object(auditFilterShape).superRefine(fromNotAfterTo);
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditQuerySchema = z
  .object({
    ...auditFilterShape,
    limit: z.coerce.number().int().min(1).max(AUDIT_MAX_PAGE_SIZE).default(AUDIT_PAGE_SIZE),
    /** Opaque: the `nextCursor` of the previous page. */
    cursor: z.string().max(200).optional(),
  })
  .superRefine(fromNotAfterTo);
export type AuditQuery = z.infer<typeof auditQuerySchema>;
/** What the client sends (every key optional; the server fills in the defaults). */
export type AuditQueryInput = z.input<typeof auditQuerySchema>;

export const auditPageSchema = z.object({
  /** Newest first, by time then id. */
  entries: z.array(auditEntrySchema),
  /** Pass back as `cursor` for the next (older) page; null when there is none. */
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

export const auditExportSchema = z.object({
  /** The newest matching entries, at most AUDIT_EXPORT_MAX_ROWS. */
  entries: z.array(auditEntrySchema),
  /** True when more entries matched than the export holds. */
  capped: z.boolean(),
  maxRows: z.number().int(),
});
export type AuditExport = z.infer<typeof auditExportSchema>;

/** Six figures over the whole trail; each is defined where it is computed (audit.queries.ts auditStats). */
export const auditStatsSchema = z.object({
  totalEntries: z.number().int(),
  entriesLast24h: z.number().int(),
  failedSignInsLast24h: z.number().int(),
  deniedAccessLast7d: z.number().int(),
  phiReadsLast7d: z.number().int(),
  exportsLast7d: z.number().int(),
});
export type AuditStats = z.infer<typeof auditStatsSchema>;

export const auditActionsSchema = z.object({ actions: z.array(z.string()) });
export type AuditActions = z.infer<typeof auditActionsSchema>;

export const chainVerificationSchema = z.object({
  ok: z.boolean(),
  checked: z.number().int(),
  firstBreak: z
    .object({
      position: z.number().int(),
      id: z.number().int(),
      problem: z.enum(['modified', 'missing-before']),
    })
    .nullable(),
});
export type ChainVerificationResult = z.infer<typeof chainVerificationSchema>;

/** Action names the stats group together (written by the auth feature and the access gate). */
export const FAILED_SIGN_IN_ACTIONS = [
  'auth.login.failure',
  'auth.login.locked_out',
  'auth.mfa.failure',
  'auth.mfa.expired',
  'auth.mfa.locked_out',
  'auth.locked',
] as const;
export const DENIED_ACCESS_ACTIONS = ['access.denied', 'access.unauthenticated', 'access.refused.summary'] as const;
