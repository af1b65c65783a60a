import { useState } from 'react';
import { formatDollars } from '@/shared/api';
import type { ColumnDef } from '@tanstack/react-table';
import type { ChartOptions } from 'chart.js';
import { Bar, Doughnut } from 'react-chartjs-2';
import { formatDate } from '@/shared/dates';
import { ChartCard } from '@/client/components/charts/ChartCard';
import { CHART_COLOURS } from '@/client/components/charts/chart-setup';
import { DataTable } from '@/client/components/data-table/DataTable';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import {
  DEFAULT_KPI_PERIOD,
  KPI_DEFINITIONS,
  type ArAging,
  type DenialsByReason,
  type ProviderAnalytics,
} from '../analytics.schema';
import { useArAging, useDenialsByReason, useKpis, useProviderAnalytics } from './analytics.api';
import { PERIOD_LABELS, formatPercent, formatThousands, kpiRows } from './analytics.view';
import { KpiCard, KpiCardSkeleton } from './KpiCard';
import { PeriodSelect } from './PeriodSelect';

/** Top 6 denial reasons and top 5 providers in analytics. */
export const TOP_DENIAL_REASONS = 6;
export const TOP_PROVIDERS = 5;

type ProviderRow = ProviderAnalytics[number];

const providerColumns: ColumnDef<ProviderRow>[] = [
  { id: 'provider', accessorKey: 'provider', header: 'Provider', meta: { className: 'font-medium' } },
  { id: 'claims', accessorKey: 'claimCount', header: 'Claims', meta: { align: 'right', className: 'tabular-nums' } },
  {
    id: 'collected',
    accessorKey: 'totalCollectionsCents',
    header: 'Collected',
    cell: ({ row }) => formatDollars(row.original.totalCollectionsCents),
    meta: { align: 'right', className: 'tabular-nums' },
  },
  {
    id: 'collectionRate',
    accessorFn: (r) => r.collectionRate ?? -1,
    header: () => <span className="whitespace-nowrap">Collection Rate</span>,
    cell: ({ row }) => formatPercent(row.original.collectionRate),
    meta: { align: 'right', className: 'tabular-nums' },
  },
  {
    id: 'avgDaysAR',
    accessorFn: (r) => r.avgDaysAR ?? -1,
    header: () => <span className="whitespace-nowrap">Avg AR Days</span>,
    cell: ({ row }) => (row.original.avgDaysAR === null ? 'No data' : row.original.avgDaysAR.toFixed(1)),
    meta: { align: 'right', className: 'tabular-nums' },
  },
];

function ArAgingChart({ aging, loading }: { aging: ArAging | undefined; loading: boolean }) {
  const buckets = aging?.buckets ?? [];
  const labels = buckets.map((b) => `${b.bucket} days`);
  const options: ChartOptions<'bar'> = {
    responsive: true,
    maintainAspectRatio: false,
    plugins: {
      legend: { display: false },
      tooltip: {
        callbacks: {
          label: (ctx) => {
            const bucket = buckets[ctx.dataIndex];
            return bucket ? `${formatDollars(bucket.amountCents)} (${bucket.percent}% of outstanding A/R)` : '';
          },
        },
      },
    },
    scales: {
      y: { beginAtZero: true, ticks: { callback: (value) => formatThousands(Number(value)) } },
      x: { title: { display: true, text: 'Days since service' } },
    },
  };
  return (
    <ChartCard
      title="AR Aging"
      description={
        aging
          ? `Outstanding A/R as of ${formatDate(aging.asOf)}: ${formatDollars(aging.totalCents)}`
          : 'Outstanding A/R'
      }
      loading={loading}
      empty={!aging || aging.totalCents === 0}
      emptyText="Nothing is outstanding"
      table={{
        columns: [{ header: 'Age' }, { header: 'Amount', numeric: true }, { header: 'Share', numeric: true }],
        rows: buckets.map((b, i) => [labels[i], formatDollars(b.amountCents), `${b.percent}%`]),
      }}
    >
      {/* react-chartjs-2 gives the canvas role=img; ChartCard's wrapper is the image and names it. */}
      <Bar
        aria-hidden
        options={options}
        data={{
          labels,
          datasets: [
            {
              label: 'Outstanding',
              data: buckets.map((b) => b.amountCents / 100),
              backgroundColor: CHART_COLOURS[0],
            },
          ],
        }}
      />
    </ChartCard>
  );
}

function DenialReasonsChart({
  denials,
  loading,
  periodDays,
}: {
  denials: DenialsByReason | undefined;
  loading: boolean;
  periodDays: number;
}) {
  const all = denials ?? [];
  const total = all.reduce((sum, d) => sum + d.count, 0);
  const top = all.slice(0, TOP_DENIAL_REASONS);
  const share = (count: number) => (total === 0 ? 0 : Math.round((1000 * count) / total) / 10);
  const options: ChartOptions<'doughnut'> = {
    responsive: true,
    maintainAspectRatio: false,
    plugins: {
      legend: { position: 'right' },
      tooltip: {
        callbacks: {
          label: (ctx) => {
            const d = top[ctx.dataIndex];
            return d ? `${d.reason} ${d.description}: ${d.count} (${share(d.count)}%)` : '';
          },
        },
      },
    },
  };
  return (
    <ChartCard
      title="Denial Reasons"
      description={`Top ${TOP_DENIAL_REASONS} CARC reasons, ${PERIOD_LABELS[periodDays]?.toLowerCase()} (${total} denials)`}
      loading={loading}
      empty={top.length === 0}
      emptyText="No denials in this period"
      table={{
        columns: [
          { header: 'Reason' },
          { header: 'Description' },
          { header: 'Denials', numeric: true },
          { header: 'Share', numeric: true },
        ],
        rows: top.map((d) => [d.reason, d.description, String(d.count), `${share(d.count)}%`]),
      }}
    >
      <Doughnut
        aria-hidden
        options={options}
        data={{
          labels: top.map((d) => d.reason),
          datasets: [{ data: top.map((d) => d.count), backgroundColor: CHART_COLOURS.slice(0, top.length) }],
        }}
      />
    </ChartCard>
  );
}

export default function AnalyticsPage() {
  const [periodDays, setPeriodDays] = useState(DEFAULT_KPI_PERIOD);
  const kpis = useKpis(periodDays);
  const aging = useArAging();
  const denials = useDenialsByReason(periodDays);
  const providers = useProviderAnalytics(periodDays);
  const failed = [kpis, aging, denials, providers].filter((q) => q.isError);

  return (
    <section aria-busy={kpis.isPending || aging.isPending || denials.isPending || providers.isPending}>
      <PageHeader
        title="RCM Analytics"
        subtitle="Revenue-cycle KPIs, receivables, denials and provider performance"
        actions={<PeriodSelect id="analytics-period" value={periodDays} onChange={setPeriodDays} />}
      />

      {failed.length > 0 && (
        <Card role="alert" className="mb-6 p-6">
          <p className="mb-3">Some analytics could not be loaded.</p>
          <Button variant="outline" onClick={() => failed.forEach((q) => void q.refetch())}>
            Try again
          </Button>
        </Card>
      )}

      <div className="space-y-6">
        <div>
          <h2 className="mb-3 text-lg font-semibold">Key performance indicators</h2>
          <ul
            className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5"
            aria-label="Key performance indicators"
          >
            {kpis.data
              ? kpiRows(kpis.data).map((row) => (
                  <li key={row.definition.key}>
                    <KpiCard row={row} compact />
                  </li>
                ))
              : KPI_DEFINITIONS.map((d) => (
                  <li key={d.key}>
                    <KpiCardSkeleton label={d.label} />
                  </li>
                ))}
          </ul>
        </div>

        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <ArAgingChart aging={aging.data} loading={aging.isPending} />
          <DenialReasonsChart denials={denials.data} loading={denials.isPending} periodDays={periodDays} />
        </div>

        <Card>
          <CardHeader>
            <CardTitle as="h2">Top Provider Performance</CardTitle>
            <CardDescription>
              Top {TOP_PROVIDERS} providers by total collections, {PERIOD_LABELS[periodDays]?.toLowerCase()}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <DataTable
              label="Top Provider Performance"
              columns={providerColumns}
              data={(providers.data ?? []).slice(0, TOP_PROVIDERS)}
              getRowId={(r) => r.provider}
              loading={providers.isPending}
              emptyMessage="No provider activity in this period"
              footer={(shown) =>
                providers.data
                  ? `Top ${shown} of ${providers.data.length} providers by collections`
                  : 'Loading providers…'
              }
            />
          </CardContent>
        </Card>
      </div>
    </section>
  );
}
