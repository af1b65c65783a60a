import { z } from 'zod';
import { auditEntrySchema } from '@/features/audit/audit.schema';

/** The critical alerts list pending authorizations older than this many days… */
export const CRITICAL_AUTHORIZATION_AGE_DAYS = 7;
/** …at most this many of them… */
export const AUTHORIZATION_ALERT_LIMIT = 3;
/** …and at most this many denied claims. */
export const DENIAL_ALERT_LIMIT = 2;
/** Revenue Collected counts the payments of this many days ending today: the KPIs page's default period. */
export const REVENUE_PERIOD_DAYS = 30;
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
 * GET /api/dashboard/summary. The four stat cards are clinic-wide counts and sums, no one's PHI: every role
 * that opens the dashboard gets all four. The alert lists and status counts a role may not see are null
 * (not zero): the screen leaves that card out rather than show a number that is not true for the clinic.
 */
export const dashboardSummarySchema = z.object({
  /** The server's calendar day that "today's appointments" counts. */
  today: z.string(),
  stats: z.object({
    patients: z.number().int(),
    todaysAppointments: z.number().int(),
    pendingAuthorizations: z.number().int(),
    /** Payments received in the last `revenuePeriodDays` days, in cents: the KPIs' Revenue Collected. */
    revenueCollectedCents: z.number().int(),
    revenuePeriodDays: z.number().int(),
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

/**
 * Revenue in thousands of dollars, rounded to a whole number, with a 'k' suffix ('$412k'); under $1,000 in
 * whole dollars ('$0', '$480'), where a rounded '$0k' would hide what was collected.
 */
export function formatRevenueThousands(cents: number): string {
  const dollars = cents / 100;
  if (Math.abs(dollars) < 999.5) return `$${Math.round(dollars).toLocaleString('en-US')}`;
  return `$${Math.round(dollars / 1000).toLocaleString('en-US')}k`;
}
