import type { ReactNode } from 'react';
import { CircleAlert, CircleCheck, CircleHelp } from 'lucide-react';
import { Badge } from '@/client/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Skeleton } from '@/client/components/ui/skeleton';
import { cn } from '@/client/lib/cn';
import type { KpiStatus } from '../analytics.schema';
import { formatTarget, kpiValueParts, progressTowardTarget, type KpiRow } from './analytics.view';

/** Status in words and an icon, never by colour alone. */
export function KpiStatusBadge({ status, testId }: { status: KpiStatus; testId?: string }) {
  const Icon = status === 'On target' ? CircleCheck : status === 'Below target' ? CircleAlert : CircleHelp;
  return (
    <Badge
      variant={status === 'On target' ? 'outline' : status === 'Below target' ? 'warning' : 'secondary'}
      className={cn(
        'gap-1 whitespace-nowrap',
        status === 'On target' && 'border-transparent bg-emerald-100 text-emerald-900',
      )}
      data-testid={testId}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {status}
    </Badge>
  );
}

function ProgressBar({ label, percent }: { label: string; percent: number | null }) {
  return (
    <div
      role="progressbar"
      aria-label={`${label}: progress toward target`}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
      aria-valuetext={percent === null ? 'No data' : `${percent}% of target`}
      className="h-2 w-full overflow-hidden rounded-full bg-muted"
    >
      <div
        className={cn('h-full rounded-full', percent === 100 ? 'bg-emerald-600' : 'bg-amber-500')}
        style={{ width: `${percent ?? 0}%` }}
      />
    </div>
  );
}

/**
 * One KPI: label, value with its unit, target, progress toward the target and the on/off-target status;
 * `drillDown` (e.g. the visits behind a rate) below.
 */
export function KpiCard({
  row,
  compact = false,
  drillDown,
}: {
  row: KpiRow;
  compact?: boolean;
  drillDown?: ReactNode;
}) {
  const { definition, value, status } = row;
  const parts = kpiValueParts(definition, value);
  return (
    <Card className="flex h-full flex-col" data-testid={`kpi-card-${definition.key}`}>
      <CardHeader className={compact ? 'p-4 pb-1' : 'pb-1'}>
        <CardTitle as="h3" className="text-sm font-medium text-muted-foreground">
          {definition.label}
        </CardTitle>
      </CardHeader>
      <CardContent className={cn('flex flex-1 flex-col gap-2', compact && 'p-4 pt-0')}>
        <p
          className={cn('font-bold tabular-nums', compact ? 'text-xl' : 'text-2xl')}
          data-testid={`kpi-value-${definition.key}`}
        >
          {parts.number}
          {parts.unit && <span className="text-sm font-medium text-muted-foreground">{parts.unit}</span>}
        </p>
        <div className="mt-auto flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
          <span className="text-xs text-muted-foreground">Target {formatTarget(definition)}</span>
          <KpiStatusBadge status={status} testId={`kpi-status-${definition.key}`} />
        </div>
        <ProgressBar label={definition.label} percent={progressTowardTarget(definition, value)} />
        {drillDown}
      </CardContent>
    </Card>
  );
}

export function KpiCardSkeleton({ label }: { label: string }) {
  return (
    <Card className="h-full">
      <CardHeader className="pb-2">
        <CardTitle as="h3" className="text-sm font-medium text-muted-foreground">
          {label}
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-2">
        <Skeleton className="h-8 w-24" aria-label={`Loading ${label}`} />
        <Skeleton className="h-2 w-full" />
      </CardContent>
    </Card>
  );
}
