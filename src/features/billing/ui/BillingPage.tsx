import { useState, type ReactNode } from 'react';
import { formatDollars } from '@/shared/api';
import type { ColumnDef } from '@tanstack/react-table';
import { ArrowDown, ArrowRight, ArrowUp } from 'lucide-react';
import { DataTable } from '@/client/components/data-table/DataTable';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { Badge } from '@/client/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { FormField } from '@/client/components/ui/form-field';
import { Label } from '@/client/components/ui/label';
import { SearchCombobox } from '@/client/components/ui/search-combobox';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { Skeleton } from '@/client/components/ui/skeleton';
import { cn } from '@/client/lib/cn';
import { useUrlState } from '@/client/lib/url-state';
import {
  DEFAULT_KPI_PERIOD,
  KPI_PERIODS,
  type KpiResult,
  type ProviderAnalytics,
} from '@/features/analytics/analytics.schema';
import {
  BILLING_TOP_LIMIT,
  DENIAL_TREND_ALERT_PERCENT,
  PAYER_DENIAL_ALERT_PERCENT,
  STAFF_STATEMENT_CLAIMS_LABEL,
  type BillingPatient,
  type PayerPerformance,
} from '../billing.schema';
import {
  useBillingKpis,
  useExportStaffStatement,
  usePayerPerformance,
  useProviderAnalytics,
  useStaffStatement,
  useStatementPatients,
} from './billing.api';
import { DownloadStatementButton, PrintStatementButton } from './statement-actions';
import { StatementSkeleton, StatementView } from './StatementView';
import { errorTextFor } from '@/client/lib/error-text';
import { patientOptionDetail } from '@/features/patients/patients.schema';

function percentText(value: number | null): string {
  return value === null ? 'No data' : `${value.toFixed(1)}%`;
}

function periodText(days: number): string {
  return `Last ${days} days`;
}

function ErrorText({ what, error }: { what: string; error: Error }) {
  return (
    <p role="alert" className="text-sm text-destructive">
      Could not load {what}: {errorTextFor(error)}
    </p>
  );
}

function PeriodSelect({ value, onChange }: { value: number; onChange: (days: number) => void }) {
  return (
    <div className="flex items-center gap-2">
      <Label htmlFor="billing-period">Period</Label>
      <Select value={String(value)} onValueChange={(v) => onChange(Number(v))}>
        <SelectTrigger id="billing-period" className="w-36" aria-label="Period">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {KPI_PERIODS.map((days) => (
            <SelectItem key={days} value={String(days)}>
              {days} days
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

/**
 * The overall denial trend. The arrow shows the direction against the previous period of the
 * same length; it is red, with a written warning, when this period's denial rate is above 10 %.
 */
export function DenialTrend({ trend, periodDays }: { trend: PayerPerformance['denialTrend']; periodDays: number }) {
  const { currentRate, previousRate } = trend;
  if (currentRate === null || previousRate === null) {
    return <p className="text-xs text-muted-foreground">No earlier period to compare with</p>;
  }
  const change = Math.round((currentRate - previousRate) * 10) / 10;
  const Arrow = change > 0 ? ArrowUp : change < 0 ? ArrowDown : ArrowRight;
  const alert = currentRate > DENIAL_TREND_ALERT_PERCENT;
  const direction =
    change > 0 ? `Up ${change.toFixed(1)} pts` : change < 0 ? `Down ${(-change).toFixed(1)} pts` : 'Unchanged';
  return (
    <div
      className={cn('space-y-0.5 text-xs', alert ? 'text-destructive' : 'text-muted-foreground')}
      data-testid="denial-trend"
    >
      <p className="flex items-center gap-1 font-medium">
        <Arrow className="size-4 shrink-0" aria-hidden="true" data-alert={alert} />
        {direction} from {previousRate.toFixed(1)}% in the previous {periodDays} days
      </p>
      {alert && <p className="font-semibold">Above the {DENIAL_TREND_ALERT_PERCENT}% alert level</p>}
    </div>
  );
}

function SummaryCard({
  title,
  testId,
  value,
  description,
  children,
}: {
  title: string;
  testId: string;
  value: string | undefined;
  description: string;
  children?: ReactNode;
}) {
  return (
    <li>
      <Card className="h-full">
        <CardHeader className="pb-2">
          <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
        </CardHeader>
        <CardContent className="space-y-1">
          {value === undefined ? (
            <Skeleton className="h-8 w-28" aria-label={`Loading ${title}`} />
          ) : (
            <p className="text-2xl font-bold" data-testid={testId}>
              {value}
            </p>
          )}
          <p className="text-xs text-muted-foreground">{description}</p>
          {children}
        </CardContent>
      </Card>
    </li>
  );
}

function SummaryCards({
  periodDays,
  kpis,
  performance,
}: {
  periodDays: number;
  kpis: KpiResult | undefined;
  performance: PayerPerformance | undefined;
}) {
  const period = periodText(periodDays);
  return (
    <ul className="mb-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label="Financial summary">
      <SummaryCard
        title="Total Revenue"
        testId="card-total-revenue"
        value={kpis && formatDollars(kpis.totalPaidCents)}
        description={`${period}: payments received from payers and patients`}
      />
      <SummaryCard
        title="Collection Rate"
        testId="card-collection-rate"
        value={kpis && percentText(kpis.netCollectionRate)}
        description={`${period}: net collection rate of adjudicated claims`}
      />
      <SummaryCard
        title="Denial Rate"
        testId="card-denial-rate"
        value={kpis && percentText(kpis.denialRate)}
        description={`${period}: denied on first adjudication`}
      >
        {performance && <DenialTrend trend={performance.denialTrend} periodDays={periodDays} />}
      </SummaryCard>
      <SummaryCard
        title="Avg Days AR"
        testId="card-avg-days-ar"
        value={kpis && (kpis.avgDaysAR === null ? 'No data' : `${kpis.avgDaysAR.toFixed(1)} days`)}
        description={`${period}: days in accounts receivable`}
      />
    </ul>
  );
}

type ProviderRow = ProviderAnalytics[number];

const PROVIDER_COLUMNS: ColumnDef<ProviderRow, string | number | null>[] = [
  { id: 'provider', header: 'Provider', accessorFn: (p) => p.provider },
  { id: 'claims', header: 'Claims', accessorFn: (p) => p.claimCount, meta: { align: 'right' } },
  {
    id: 'collected',
    header: 'Collected',
    accessorFn: (p) => p.totalCollectionsCents,
    cell: ({ row }) => formatDollars(row.original.totalCollectionsCents),
    meta: { align: 'right' },
  },
  {
    id: 'collectionRate',
    header: 'Collection rate',
    accessorFn: (p) => p.collectionRate,
    cell: ({ row }) => percentText(row.original.collectionRate),
    meta: { align: 'right' },
  },
  {
    id: 'avgDaysAR',
    header: 'Avg days AR',
    accessorFn: (p) => p.avgDaysAR,
    cell: ({ row }) => (row.original.avgDaysAR === null ? 'No data' : row.original.avgDaysAR.toFixed(1)),
    meta: { align: 'right' },
  },
];

type PayerRow = PayerPerformance['payers'][number];

/** The badge is destructive above 15 %; the word 'high' says so without colour. */
export function PayerDenialBadge({ rate }: { rate: number | null }) {
  if (rate === null) return <Badge variant="outline">No data</Badge>;
  const high = rate > PAYER_DENIAL_ALERT_PERCENT;
  return (
    <Badge variant={high ? 'destructive' : 'secondary'}>
      {high ? `${rate.toFixed(1)}% high` : `${rate.toFixed(1)}%`}
    </Badge>
  );
}

const PAYER_COLUMNS: ColumnDef<PayerRow, string | number | null>[] = [
  { id: 'payer', header: 'Payer', accessorFn: (p) => p.payer },
  {
    id: 'collections',
    header: 'Collections',
    accessorFn: (p) => p.collectionsCents,
    cell: ({ row }) => formatDollars(row.original.collectionsCents),
    meta: { align: 'right' },
  },
  { id: 'adjudicated', header: 'Adjudicated', accessorFn: (p) => p.adjudicatedClaims, meta: { align: 'right' } },
  { id: 'denied', header: 'Denied', accessorFn: (p) => p.deniedClaims, meta: { align: 'right' } },
  {
    id: 'denialRate',
    header: 'Denial rate',
    accessorFn: (p) => p.denialRate,
    cell: ({ row }) => <PayerDenialBadge rate={row.original.denialRate} />,
    meta: { align: 'right' },
  },
];

function TableCard({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function StatementGenerator() {
  const [patient, setPatient] = useState<BillingPatient | null>(null);
  const statement = useStaffStatement(patient?.id ?? null);
  const exporter = useExportStaffStatement();
  return (
    <div className="space-y-4">
      <Card className="no-print">
        <CardHeader>
          <CardTitle>Patient Statement Generator</CardTitle>
          <CardDescription>Choose a patient to see their statement, then export it as CSV or print it.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap items-end gap-3">
          <div className="w-full max-w-sm">
            <FormField id="statement-patient" label="Patient">
              <SearchCombobox
                id="statement-patient"
                value={patient}
                onChange={setPatient}
                useOptions={useStatementPatients}
                placeholder="Search patients by name"
                listLabel="Patients"
                emptyText="No patients found"
                describe={patientOptionDetail}
              />
            </FormField>
          </div>
          <DownloadStatementButton
            label="Export Statement"
            exportStatement={(handlers) => {
              if (patient) exporter.mutate(patient.id, handlers);
            }}
            pending={exporter.isPending}
            disabled={!statement.data}
          />
          <PrintStatementButton disabled={!statement.data} />
        </CardContent>
      </Card>
      {patient === null ? (
        <p className="no-print text-sm text-muted-foreground">No patient selected</p>
      ) : statement.isLoading ? (
        <StatementSkeleton />
      ) : statement.isError ? (
        <ErrorText what="the statement" error={statement.error} />
      ) : statement.data ? (
        <StatementView statement={statement.data} claimsLabel={STAFF_STATEMENT_CLAIMS_LABEL} />
      ) : null}
    </div>
  );
}

/** Staff's 'Financial Summary & Billing'. The period lives in the address (`?period=90`), so a reload or a link keeps it. */
export default function BillingPage() {
  const view = useUrlState({ period: String(DEFAULT_KPI_PERIOD) });
  const chosen = Number(view.values.period);
  // An address naming no offered period shows the default one.
  const periodDays = (KPI_PERIODS as readonly number[]).includes(chosen) ? chosen : DEFAULT_KPI_PERIOD;
  const setPeriodDays = (days: number) => view.set({ period: String(days) });
  const kpis = useBillingKpis(periodDays);
  const providers = useProviderAnalytics(periodDays);
  const payers = usePayerPerformance(periodDays);
  const period = periodText(periodDays).toLowerCase();
  return (
    <section>
      <div className="no-print">
        <PageHeader
          title="Financial Summary & Billing"
          subtitle="Revenue, payers and patient statements"
          actions={<PeriodSelect value={periodDays} onChange={setPeriodDays} />}
        />
        {kpis.isError && <ErrorText what="the summary" error={kpis.error} />}
        <SummaryCards periodDays={periodDays} kpis={kpis.data} performance={payers.data} />
        <div className="mb-6 grid grid-cols-1 gap-6 2xl:grid-cols-2">
          <TableCard
            title="Top Providers by Revenue"
            description={`The ${BILLING_TOP_LIMIT} providers with the most collections, ${period}.`}
          >
            {providers.isError ? (
              <ErrorText what="providers" error={providers.error} />
            ) : (
              <DataTable
                label="Top providers by revenue"
                columns={PROVIDER_COLUMNS}
                data={(providers.data ?? []).slice(0, BILLING_TOP_LIMIT)}
                getRowId={(p) => p.provider}
                loading={providers.isLoading}
                emptyMessage="No collections in this period"
                footer={(shown) =>
                  providers.isLoading ? 'Loading providers…' : `Top ${shown} providers by collections`
                }
              />
            )}
          </TableCard>
          <TableCard
            title="Payer Performance"
            description={`The ${BILLING_TOP_LIMIT} payers with the most collections, ${period}, with their denial rates (high above ${PAYER_DENIAL_ALERT_PERCENT}%).`}
          >
            {payers.isError ? (
              <ErrorText what="payers" error={payers.error} />
            ) : (
              <DataTable
                label="Payer performance"
                columns={PAYER_COLUMNS}
                data={payers.data?.payers ?? []}
                getRowId={(p) => p.payer}
                loading={payers.isLoading}
                emptyMessage="No payer activity in this period"
                footer={(shown) => (payers.isLoading ? 'Loading payers…' : `Top ${shown} payers by collections`)}
              />
            )}
          </TableCard>
        </div>
      </div>
      <StatementGenerator />
    </section>
  );
}
