import { z } from 'zod';
import { auditEntrySchema } from '@/features/audit/audit.schema';

/** The critical alerts list pending authorizations older than this many days… */
export const CRITICAL_AUTHORIZATION_AGE_DAYS = 7;
/** …at most this many of them… */
export const AUTHORIZATION_ALERT_LIMIT = 3;
/** …and at most this many denied claims. */
export const DENIAL_ALERT_LIMIT = 2;
/** Recent activity shows the 5 newest audit entries. */
export const RECENT_ACTIVITY_LIMIT = 5;

export const statusCountSchema = z.object({ status: z.string(), count: z.number().int() });
export type StatusCount = z.infer<typeof statusCountSchema>;

export const agedAuthorizationAlertSchema = z.object({
  id: z.number().int(),
  patient: z.string(),
  service: z.string(),
  payer: z.string(),
  ageDays: z.number().int(),
});

export const deniedClaimAlertSchema = z.object({
  id: z.number().int(),
  patient: z.string(),
  accountNumber: z.string(),
  payer: z.string(),
  reasonCode: z.string().nullable(),
  denialDescription: z.string().nullable(),
  billedCents: z.number().int(),
  serviceDate: z.string(),
});

/**
 * GET /api/dashboard/summary. Every section the caller's role may not see is null (not zero): the
 * screen leaves that card out rather than show a number that is not true for the clinic.
 */
export const dashboardSummarySchema = z.object({
  /** The server's calendar day that "today's appointments" counts. */
  today: z.string(),
  stats: z.object({
    patients: z.number().int().nullable(),
    todaysAppointments: z.number().int().nullable(),
    pendingAuthorizations: z.number().int().nullable(),
    /** Sum of what payers paid (claims.paid_cents), in cents. */
    revenueCollectedCents: z.number().int().nullable(),
  }),
  alerts: z.object({
    agedAuthorizations: z.array(agedAuthorizationAlertSchema).nullable(),
    deniedClaims: z.array(deniedClaimAlertSchema).nullable(),
  }),
  recentActivity: z.array(auditEntrySchema),
  statusCounts: z.object({
    appointmentsToday: z.array(statusCountSchema).nullable(),
    claims: z.array(statusCountSchema).nullable(),
    authorizations: z.array(statusCountSchema).nullable(),
  }),
});
export type DashboardSummary = z.infer<typeof dashboardSummarySchema>;

/** Revenue in thousands of dollars, rounded to a whole number, with a 'k' suffix ('$412k'). */
export function formatRevenueThousands(cents: number): string {
  return `$${Math.round(cents / 100 / 1000).toLocaleString('en-US')}k`;
}
