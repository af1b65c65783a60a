import type { ReactNode } from 'react';
import { format, parseISO } from 'date-fns';
import { AlertTriangle, CalendarDays, ClipboardCheck, DollarSign, FileX, Users } from 'lucide-react';
import { formatCents } from '@/shared/api';
import { statusVariant } from '@/client/lib/status-variant';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Skeleton } from '@/client/components/ui/skeleton';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { describeAuditAction } from '@/features/audit/audit.actions';
import { formatRevenueThousands, type DashboardSummary, type StatusCount } from '../dashboard.schema';
import { useDashboardSummary } from './dashboard.api';

function StatCard({ title, value, icon, note }: { title: string; value: string; icon: ReactNode; note?: string }) {
  const id = `stat-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <Card role="region" aria-labelledby={id}>
      <CardHeader className="flex flex-row items-center justify-between pb-2">
        <CardTitle as="h2" id={id} className="text-sm font-medium text-muted-foreground">
          {title}
        </CardTitle>
        {icon}
      </CardHeader>
      <CardContent>
        <p className="text-3xl font-bold" data-testid="stat-value">
          {value}
        </p>
        {note && <p className="text-xs text-muted-foreground">{note}</p>}
      </CardContent>
    </Card>
  );
}

function stats(summary: DashboardSummary) {
  const icon = (Icon: typeof Users) => <Icon className="size-5 text-muted-foreground" aria-hidden="true" />;
  const { patients, todaysAppointments, pendingAuthorizations, revenueCollectedCents } = summary.stats;
  const { revenuePeriodDays } = summary.stats;
  return [
    { title: 'Total Patients', value: patients.toLocaleString('en-US'), icon: icon(Users) },
    {
      title: "Today's Appointments",
      value: todaysAppointments.toLocaleString('en-US'),
      icon: icon(CalendarDays),
    },
    {
      title: 'Pending Authorizations',
      value: pendingAuthorizations.toLocaleString('en-US'),
      icon: icon(ClipboardCheck),
    },
    {
      title: 'Revenue Collected',
      value: formatRevenueThousands(revenueCollectedCents),
      icon: icon(DollarSign),
      // The same figure as Revenue Collected on KPIs for this period.
      note: `Payments received in the last ${revenuePeriodDays} days`,
    },
  ];
}

function CriticalAlerts({ alerts }: { alerts: DashboardSummary['alerts'] }) {
  const items = [
    ...(alerts.agedAuthorizations ?? []).map((a) => (
      <li key={`auth-${a.id}`} className="flex gap-3 rounded-md border border-border p-3">
        <AlertTriangle className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
        <div className="text-sm">
          <p className="font-medium">Authorization pending {a.ageDays} days</p>
          <p className="text-muted-foreground">
            {a.service} for {a.patient} ({a.payer})
          </p>
        </div>
      </li>
    )),
    ...(alerts.deniedClaims ?? []).map((c) => (
      <li key={`claim-${c.id}`} className="flex gap-3 rounded-md border border-border p-3">
        <FileX className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
        <div className="text-sm">
          <p className="font-medium">
            Claim denied: {c.accountNumber}
            {c.reasonCode ? ` (${c.reasonCode})` : ''}
          </p>
          <p className="text-muted-foreground">
            {c.patient}, {c.payer}, ${formatCents(c.billedCents)}
            {c.denialDescription ? `: ${c.denialDescription}` : ''}
          </p>
        </div>
      </li>
    )),
  ];
  return items.length === 0 ? (
    <p className="text-sm text-muted-foreground">No critical alerts</p>
  ) : (
    <ul className="space-y-2">{items}</ul>
  );
}

function RecentActivity({ entries }: { entries: DashboardSummary['recentActivity'] }) {
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">No recent activity</p>;
  return (
    <ul className="divide-y divide-border">
      {entries.map((e) => (
        // An audit detail may hold a long unbroken value (a header, a path): wrap it anywhere rather than widen the page.
        <li key={e.id} className="py-2 text-sm wrap-anywhere">
          <p className="font-medium">
            {describeAuditAction(e.action)} · <span className="text-muted-foreground">{e.resource}</span>
          </p>
          <p className="text-muted-foreground">
            {e.actor} · <time dateTime={e.time}>{format(parseISO(e.time), 'MMM d, yyyy h:mm a')}</time>
            {e.detail ? ` · ${e.detail}` : ''}
          </p>
        </li>
      ))}
    </ul>
  );
}

function StatusGroup({ title, counts, empty }: { title: string; counts: StatusCount[]; empty: string }) {
  return (
    <div>
      <h3 className="mb-2 text-sm font-semibold">{title}</h3>
      {counts.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ul className="flex flex-wrap gap-2">
          {counts.map((c) => (
            <li key={c.status}>
              <Badge variant={statusVariant(c.status)}>
                {c.status}: {c.count.toLocaleString('en-US')}
              </Badge>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function QuickStats({ counts }: { counts: DashboardSummary['statusCounts'] }) {
  const groups = [
    counts.appointmentsToday && (
      <StatusGroup
        key="appointments"
        title="Today's Appointments"
        counts={counts.appointmentsToday}
        empty="No appointments today"
      />
    ),
    counts.claims && <StatusGroup key="claims" title="Claims" counts={counts.claims} empty="No claims" />,
    counts.authorizations && (
      <StatusGroup
        key="authorizations"
        title="Authorizations"
        counts={counts.authorizations}
        empty="No authorizations"
      />
    ),
  ].filter(Boolean);
  return groups.length === 0 ? (
    <p className="text-sm text-muted-foreground">No status counts for your role</p>
  ) : (
    <div className="grid gap-4 md:grid-cols-3">{groups}</div>
  );
}

function LoadingOverview() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading dashboard" className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-28" />
        ))}
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Skeleton className="h-64" />
        <Skeleton className="h-64" />
      </div>
      <Skeleton className="h-32" />
    </div>
  );
}

/** The staff home screen, from one server call scoped to the role. */
export function DashboardOverview() {
  const summary = useDashboardSummary(true);
  const data = summary.data;
  return (
    <section>
      <PageHeader
        title="Dashboard Overview"
        subtitle={data ? `Today is ${format(parseISO(data.today), 'EEEE, MMMM d, yyyy')}` : undefined}
      />
      {summary.isError ? (
        <div role="alert" className="flex items-center justify-between rounded-md border border-destructive p-4">
          <p className="text-sm text-destructive">The dashboard could not be loaded.</p>
          <Button variant="outline" size="sm" onClick={() => void summary.refetch()}>
            Try again
          </Button>
        </div>
      ) : !data ? (
        <LoadingOverview />
      ) : (
        <div className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            {stats(data).map((s) => (
              <StatCard key={s.title} {...s} />
            ))}
          </div>
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
            <Card role="region" aria-labelledby="critical-alerts">
              <CardHeader>
                <CardTitle id="critical-alerts">Critical Alerts</CardTitle>
              </CardHeader>
              <CardContent>
                <CriticalAlerts alerts={data.alerts} />
              </CardContent>
            </Card>
            <Card role="region" aria-labelledby="recent-activity">
              <CardHeader>
                <CardTitle id="recent-activity">Recent Activity</CardTitle>
              </CardHeader>
              <CardContent>
                <RecentActivity entries={data.recentActivity} />
              </CardContent>
            </Card>
          </div>
          <Card role="region" aria-labelledby="quick-stats">
            <CardHeader>
              <CardTitle id="quick-stats">Quick Stats by Status</CardTitle>
            </CardHeader>
            <CardContent>
              <QuickStats counts={data.statusCounts} />
            </CardContent>
          </Card>
        </div>
      )}
    </section>
  );
}
