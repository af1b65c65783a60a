import { useState, type ReactNode } from 'react';
import { formatDollars } from '@/shared/api';
import { Download, RefreshCw } from 'lucide-react';
import { formatDate } from '@/shared/dates';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Skeleton } from '@/client/components/ui/skeleton';
import { Spinner } from '@/client/components/ui/spinner';
import { toast } from '@/client/components/ui/toast';
import { downloadCsv, toCsv } from '@/client/lib/csv';
import { DEFAULT_KPI_PERIOD, KPI_DEFINITIONS, type KpiResult } from '../analytics.schema';
import { KPI_REFRESH_MS, recordKpiExport, useKpis } from './analytics.api';
import { KPI_CSV_COLUMNS, PERIOD_LABELS, formatPercent, kpiCsvFileName, kpiRows } from './analytics.view';
import { KpiCard, KpiCardSkeleton } from './KpiCard';
import { MissedChargesDialog } from './MissedChargesDialog';
import { PeriodSelect } from './PeriodSelect';

const TITLE = 'Key Performance Indicators';
const SUBTITLE = 'Revenue-cycle performance against industry targets';
/** The Refresh spinner shows for at least half a second, however fast the answer. */
export const MIN_REFRESH_SPINNER_MS = 500;

function wait(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function formatTime(timestamp: number): string {
  return new Date(timestamp).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', second: '2-digit' });
}

function SummaryCard({
  title,
  description,
  value,
  valueTestId,
  children,
}: {
  title: string;
  description: string;
  value: ReactNode;
  valueTestId: string;
  children?: ReactNode;
}) {
  return (
    <Card className="h-full">
      <CardHeader className="pb-2">
        <CardTitle as="h3" className="text-base">
          {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-1">
        {value === undefined ? (
          <Skeleton className="h-9 w-32" aria-label={`Loading ${title}`} />
        ) : (
          <p className="text-3xl font-bold tabular-nums" data-testid={valueTestId}>
            {value}
          </p>
        )}
        {children && <div className="text-sm text-muted-foreground">{children}</div>}
      </CardContent>
    </Card>
  );
}

function Figure({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <span className="font-medium text-foreground tabular-nums" data-testid={testId}>
      {children}
    </span>
  );
}

function SummaryCards({ kpis }: { kpis: KpiResult | undefined }) {
  return (
    <ul className="grid gap-4 md:grid-cols-3" aria-label="Summary">
      <li>
        <SummaryCard
          title="Total Claims Volume"
          description="Claims for services in the period"
          value={kpis?.totalClaims.toLocaleString('en-US')}
          valueTestId="summary-total-claims"
        >
          {kpis && (
            <p>
              <Figure testId="summary-paid-claims">{kpis.paidClaims.toLocaleString('en-US')}</Figure> paid ·{' '}
              <Figure testId="summary-denied-claims">{kpis.deniedClaims.toLocaleString('en-US')}</Figure> denied so far
            </p>
          )}
        </SummaryCard>
      </li>
      <li>
        <SummaryCard
          title="Revenue Collected"
          description="Payments received in the period"
          value={kpis && formatDollars(kpis.totalPaidCents)}
          valueTestId="summary-revenue-collected"
        >
          {kpis && (
            <>
              <p>
                <Figure testId="summary-billed">{formatDollars(kpis.totalBilledCents)}</Figure> billed
              </p>
              <p>
                Net collection rate{' '}
                <Figure testId="summary-net-collection-rate">{formatPercent(kpis.netCollectionRate)}</Figure>
              </p>
            </>
          )}
        </SummaryCard>
      </li>
      <li>
        <SummaryCard
          title="Revenue at Risk"
          description="Outstanding or denied amounts requiring action"
          value={kpis && formatDollars(kpis.revenueAtRiskCents)}
          valueTestId="summary-revenue-at-risk"
        >
          {kpis && (
            <p>
              including <Figure testId="summary-open-denials">{formatDollars(kpis.openDenialsCents)}</Figure> in open
              denials
            </p>
          )}
        </SummaryCard>
      </li>
    </ul>
  );
}

function KpiGrid({ kpis }: { kpis: KpiResult | undefined }) {
  // Of the KPIs, charge capture has a drill-down: the visits it counts as missed.
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5" aria-label="Key performance indicators">
      {kpis
        ? kpiRows(kpis).map((row) => (
            <li key={row.definition.key}>
              <KpiCard
                row={row}
                drillDown={
                  row.definition.key === 'chargeCaptureAccuracy' ? (
                    <MissedChargesDialog periodDays={kpis.periodDays} />
                  ) : undefined
                }
              />
            </li>
          ))
        : KPI_DEFINITIONS.map((d) => (
            <li key={d.key}>
              <KpiCardSkeleton label={d.label} />
            </li>
          ))}
    </ul>
  );
}

export default function KpisPage() {
  const [periodDays, setPeriodDays] = useState(DEFAULT_KPI_PERIOD);
  const kpis = useKpis(periodDays, { refetchEveryMs: KPI_REFRESH_MS });
  const [refreshing, setRefreshing] = useState(false);
  const [exporting, setExporting] = useState(false);
  const data = kpis.data;

  const refresh = async () => {
    setRefreshing(true);
    try {
      await Promise.all([kpis.refetch(), wait(MIN_REFRESH_SPINNER_MS)]);
    } finally {
      setRefreshing(false);
    }
  };

  const exportCsv = async () => {
    if (!data) return;
    const rows = kpiRows(data);
    setExporting(true);
    try {
      // Audit first: an export that could not be recorded is not handed out.
      await recordKpiExport({ periodDays: data.periodDays, rows: rows.length });
      downloadCsv(kpiCsvFileName(data), toCsv(rows, KPI_CSV_COLUMNS));
    } catch {
      toast({
        title: 'Export failed',
        description: 'The export could not be recorded, so nothing was downloaded. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setExporting(false);
    }
  };

  return (
    <section aria-busy={kpis.isPending || refreshing}>
      <PageHeader
        title={TITLE}
        subtitle={SUBTITLE}
        actions={
          <div className="flex flex-wrap items-end gap-2">
            <PeriodSelect id="kpi-period" value={periodDays} onChange={setPeriodDays} />
            <Button variant="outline" onClick={() => void refresh()} disabled={refreshing}>
              {refreshing ? (
                <Spinner label="Refreshing key performance indicators" />
              ) : (
                <RefreshCw className="size-4" aria-hidden="true" />
              )}
              Refresh
            </Button>
            <Button variant="outline" onClick={() => void exportCsv()} disabled={exporting || !data}>
              <Download className="size-4" aria-hidden="true" /> {exporting ? 'Exporting…' : 'Export'}
            </Button>
          </div>
        }
      />

      <p className="mb-4 text-sm text-muted-foreground" aria-live="polite">
        {PERIOD_LABELS[periodDays]}
        {data && ` (${formatDate(data.periodStart)} to ${formatDate(data.periodEnd)})`} ·{' '}
        <span data-testid="kpi-last-updated">
          {kpis.dataUpdatedAt
            ? `Last updated ${formatTime(kpis.dataUpdatedAt)}`
            : kpis.isError && !kpis.isFetching
              ? 'Not loaded'
              : 'Loading…'}
        </span>
      </p>

      {kpis.isError && !data ? (
        <Card role="alert" className="p-6">
          <p className="mb-3">The key performance indicators could not be loaded.</p>
          <Button variant="outline" onClick={() => void kpis.refetch()}>
            Try again
          </Button>
        </Card>
      ) : (
        <div className="space-y-6">
          <div>
            <h2 className="sr-only">Summary</h2>
            <SummaryCards kpis={data} />
          </div>
          <div>
            <h2 className="mb-3 text-lg font-semibold">Performance against targets</h2>
            <KpiGrid kpis={data} />
          </div>
        </div>
      )}
    </section>
  );
}
