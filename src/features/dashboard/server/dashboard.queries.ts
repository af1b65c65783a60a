import { sql } from 'drizzle-orm';
import { can } from '@/shared/access';
import { today } from '@/shared/api';
import { periodEndingToday } from '@/shared/period';
import { collectionsInPeriod } from '@/features/analytics/server/analytics.queries';
import { APPOINTMENT_STATUSES } from '@/features/appointments/appointments.schema';
import { appointmentStatusCountsOnSql } from '@/features/appointments/server/appointments.queries';
import { listRecentAuditEntries } from '@/features/audit/server/audit.queries';
import { AUTHORIZATION_STATUSES } from '@/features/authorizations/authorizations.schema';
import {
  authorizationStatusCountsSql,
  listAgedPendingAuthorizations,
} from '@/features/authorizations/server/authorizations.queries';
import { CLAIM_STATUSES } from '@/features/claims/claims.schema';
import {
  claimsSummaryOf,
  claimsSummarySql,
  listNewestDenials,
  type ClaimsSummaryJson,
} from '@/features/claims/server/claims.summary.queries';
import { patientCountSql } from '@/features/patients/server/patients.queries';
import type { RequestContext } from '@/server/context';
import type { Db } from '@/server/db/types';
import {
  AUTHORIZATION_ALERT_LIMIT,
  CRITICAL_AUTHORIZATION_AGE_DAYS,
  DENIAL_ALERT_LIMIT,
  RECENT_ACTIVITY_LIMIT,
  REVENUE_PERIOD_DAYS,
  type DashboardSummary,
  type StatusCount,
} from '../dashboard.schema';

/** Runs `load` only when the role holds `allowed`; a section the role may not see is null, never queried. */
function when<T>(allowed: boolean, load: () => Promise<T>): Promise<T | null> {
  return allowed ? load() : Promise.resolve(null);
}

/** Status counts in the owning feature's life-cycle order (unknown statuses last). */
function inOrder(counts: StatusCount[], order: readonly string[]): StatusCount[] {
  const rank = (status: string) => (order.includes(status) ? order.indexOf(status) : order.length);
  return [...counts].sort((a, b) => rank(a.status) - rank(b.status) || a.status.localeCompare(b.status));
}

function sum(counts: StatusCount[]): number {
  return counts.reduce((total, c) => total + c.count, 0);
}

/**
 * The whole home screen in one call. Each number is aggregated by the database in the feature that
 * owns the data. The four stat cards are clinic-wide totals for every role that opens the dashboard; the
 * alert lists and status breakdowns only for roles holding the permission for that data (docs/access.md).
 */
export async function getDashboardSummary(db: Db, ctx: RequestContext): Promise<DashboardSummary> {
  const role = ctx.user.role;
  const day = today(ctx.now);
  const seesAppointments = can(role, 'appointments:read');
  const seesAuthorizations = can(role, 'authorizations:read');
  const seesClaims = can(role, 'claims:read');

  // Every count in one statement (one round trip), each from its feature's rollup or index; the claims
  // breakdown a role may not see is null, never queried. The alert lists and the activity read a few rows
  // by index.
  const counts = db.execute<{
    patients: number | null;
    appointments_today: StatusCount[] | null;
    authorizations: StatusCount[] | null;
    claims: ClaimsSummaryJson | null;
  }>(sql`select
    ${patientCountSql()} as patients,
    ${appointmentStatusCountsOnSql(day)} as appointments_today,
    ${authorizationStatusCountsSql()} as authorizations,
    ${seesClaims ? claimsSummarySql() : sql`null`} as claims`);
  const [counted, revenueCollectedCents, agedAuthorizations, deniedClaims, activity] = await Promise.all([
    counts.then((result) => result.rows[0]),
    collectionsInPeriod(db, periodEndingToday(ctx.now, REVENUE_PERIOD_DAYS)),
    when(seesAuthorizations, () =>
      listAgedPendingAuthorizations(db, ctx, CRITICAL_AUTHORIZATION_AGE_DAYS, AUTHORIZATION_ALERT_LIMIT),
    ),
    when(seesClaims, () => listNewestDenials(db, DENIAL_ALERT_LIMIT)),
    listRecentAuditEntries(db, ctx, RECENT_ACTIVITY_LIMIT),
  ]);
  const appointmentsToday = counted?.appointments_today ?? [];
  const authorizationsByStatus = counted?.authorizations ?? [];
  const claims = counted?.claims ? claimsSummaryOf(counted.claims) : null;

  return {
    today: day,
    stats: {
      patients: Number(counted?.patients ?? 0),
      todaysAppointments: sum(appointmentsToday),
      pendingAuthorizations: authorizationsByStatus.find((c) => c.status === 'Pending')?.count ?? 0,
      revenueCollectedCents,
      revenuePeriodDays: REVENUE_PERIOD_DAYS,
    },
    alerts: { agedAuthorizations, deniedClaims },
    recentActivity: activity,
    statusCounts: {
      appointmentsToday: seesAppointments ? inOrder(appointmentsToday, APPOINTMENT_STATUSES) : null,
      claims: claims && inOrder(claims.byStatus, CLAIM_STATUSES),
      authorizations: seesAuthorizations ? inOrder(authorizationsByStatus, AUTHORIZATION_STATUSES) : null,
    },
  };
}
