import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { AlertOctagon, Clock, Download } from 'lucide-react';
import { can, type Role } from '@/shared/access';
import { formatCents, today } from '@/shared/api';
import { DataTable } from '@/client/components/data-table/DataTable';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card';
import { FormField } from '@/client/components/ui/form-field';
import { Input } from '@/client/components/ui/input';
import { Label } from '@/client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { Skeleton } from '@/client/components/ui/skeleton';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { cn } from '@/client/lib/cn';
import { downloadCsv, toCsv, type CsvColumn } from '@/client/lib/csv';
import { statusVariant } from '@/client/lib/status-variant';
import {
  CLAIM_SORT_KEYS,
  PAYERS,
  isAppealable,
  reasonFilterSchema,
  type ClaimFilterInput,
  type ClaimOverview,
  type ClaimRow,
  type ClaimSortKey,
  type Payer,
} from '../claims.schema';
import { AppealDialog } from './AppealDialog';
import { VoidClaimDialog } from './VoidClaimDialog';
import { ClaimsChartsSkeleton } from './ClaimsChartsSkeleton';
import { UploadClaimsDialog } from './UploadClaimsDialog';
import { useCursorPaging } from '@/client/lib/cursor-paging';
import { fetchClaimsExport, useClaims, useClaimsOverview } from './claims.api';

const ALL = 'all';
const PAGE_SIZE = 50;
const DEFAULT_SORTING: SortingState = [{ id: 'serviceDate', desc: true }];
/** Wait this long after the last key before filtering by the reason code typed. */
const REASON_PAUSE_MS = 300;

const money = (cents: number) => `$${formatCents(cents)}`;

// Chart.js is the screen's largest script: loaded beside the page rather than before it, so the header,
// filters and table render without waiting for it (its placeholders hold the charts' place meanwhile).
const ClaimsCharts = lazy(() => import('./ClaimsCharts').then((module) => ({ default: module.ClaimsCharts })));

/** The CSV has the table's columns with the same values, plus the reason and its description. */
export const CLAIM_CSV_COLUMNS: CsvColumn<ClaimRow>[] = [
  { header: 'Service Date', value: (c) => c.serviceDate },
  { header: 'Patient', value: (c) => c.patient },
  { header: 'Account Number', value: (c) => c.accountNumber },
  { header: 'Procedure', value: (c) => c.procedure },
  { header: 'Provider', value: (c) => c.provider },
  { header: 'Payer', value: (c) => c.payer },
  { header: 'Billed', value: (c) => (c.billedCents / 100).toFixed(2) },
  { header: 'Paid', value: (c) => (c.paidCents / 100).toFixed(2) },
  { header: 'Days AR', value: (c) => c.daysAR },
  { header: 'Status', value: (c) => c.status },
  { header: 'Reason', value: (c) => c.reason },
  { header: 'Denial Description', value: (c) => c.denialDescription },
];

function isSortKey(id: string | undefined): id is ClaimSortKey {
  return (CLAIM_SORT_KEYS as readonly string[]).includes(id ?? '');
}

/** Red above 90 days, amber above 60; an icon and a screen-reader note say it without colour. */
export function DaysAr({ days }: { days: number }) {
  const band = days > 90 ? 'over 90 days' : days > 60 ? 'over 60 days' : null;
  const Icon = days > 90 ? AlertOctagon : Clock;
  return (
    <span
      className={cn(
        'inline-flex items-center justify-end gap-1 tabular-nums',
        days > 90 && 'font-semibold text-red-700',
        days > 60 && days <= 90 && 'font-medium text-amber-700',
      )}
    >
      {band && <Icon className="size-3.5" aria-hidden="true" />}
      {days}
      {band && <span className="sr-only"> ({band})</span>}
    </span>
  );
}

type ClaimAction = (claim: ClaimRow) => void;

function columns(actions: { onAppeal: ClaimAction; onVoid: ClaimAction } | null): ColumnDef<ClaimRow>[] {
  const list: ColumnDef<ClaimRow>[] = [
    { id: 'serviceDate', accessorKey: 'serviceDate', header: 'Service Date', meta: { className: 'whitespace-nowrap' } },
    { id: 'patient', accessorKey: 'patient', header: 'Patient', meta: { className: 'font-medium whitespace-nowrap' } },
    {
      id: 'accountNumber',
      accessorKey: 'accountNumber',
      header: 'Account Number',
      meta: { className: 'font-mono text-xs whitespace-nowrap' },
    },
    { id: 'procedure', accessorKey: 'procedure', header: 'Procedure', meta: { className: 'font-mono text-xs' } },
    { id: 'provider', accessorKey: 'provider', header: 'Provider', meta: { className: 'whitespace-nowrap' } },
    { id: 'payer', accessorKey: 'payer', header: 'Payer', meta: { className: 'whitespace-nowrap' } },
    {
      id: 'billedCents',
      accessorKey: 'billedCents',
      header: 'Billed',
      meta: { align: 'right', className: 'tabular-nums' },
      cell: ({ row }) => money(row.original.billedCents),
    },
    {
      id: 'paidCents',
      accessorKey: 'paidCents',
      header: 'Paid',
      meta: { align: 'right', className: 'tabular-nums' },
      cell: ({ row }) => money(row.original.paidCents),
    },
    {
      id: 'daysAR',
      accessorKey: 'daysAR',
      header: 'Days AR',
      meta: { align: 'right' },
      cell: ({ row }) => <DaysAr days={row.original.daysAR} />,
    },
    {
      id: 'status',
      accessorKey: 'status',
      header: 'Status',
      cell: ({ row }) => (
        <Badge
          variant={statusVariant(row.original.status)}
          className="whitespace-nowrap"
          title={row.original.denialDescription ?? undefined}
        >
          {row.original.status}
        </Badge>
      ),
    },
  ];
  if (actions) {
    list.push({
      id: 'actions',
      header: 'Actions',
      enableSorting: false,
      meta: { align: 'right' },
      cell: ({ row }) => (
        <div className="flex justify-end gap-2">
          <Button
            size="sm"
            variant="outline"
            disabled={!isAppealable(row.original.status)}
            aria-label={`Appeal claim ${row.original.accountNumber}`}
            onClick={() => actions.onAppeal(row.original)}
          >
            Appeal
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={row.original.status === 'Voided'}
            aria-label={`Void claim ${row.original.accountNumber}`}
            onClick={() => actions.onVoid(row.original)}
          >
            Void
          </Button>
        </div>
      ),
    });
  }
  return list;
}

function SummaryLine({ summary }: { summary: ClaimOverview['summary'] | undefined }) {
  const items = [
    { label: 'Total Denied', value: summary && money(summary.totalDeniedCents), id: 'total-denied' },
    { label: 'Total Billed', value: summary && money(summary.totalBilledCents), id: 'total-billed' },
    { label: 'Claims', value: summary?.claims.toLocaleString('en-US'), id: 'claims' },
  ];
  return (
    <Card className="mb-6">
      <CardContent className="py-4">
        <dl className="flex flex-wrap gap-x-10 gap-y-2" aria-label="Summary for the current filters">
          {items.map((item) => (
            <div key={item.id} className="flex items-baseline gap-2">
              <dt className="text-sm text-muted-foreground">{item.label}</dt>
              <dd className="text-xl font-bold tabular-nums" data-testid={`summary-${item.id}`}>
                {item.value ?? (
                  <Skeleton className="inline-block h-6 w-24 align-middle" aria-label={`Loading ${item.label}`} />
                )}
              </dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

/** Denials, aging and appeals, filtered, sorted and paged by the server. */
export default function ClaimsPage({ role }: { role: Role }) {
  const [payer, setPayer] = useState<typeof ALL | Payer>(ALL);
  const [reasonText, setReasonText] = useState('');
  const [reason, setReason] = useState('');
  const [search, setSearch] = useState('');
  const [sorting, setSorting] = useState<SortingState>(DEFAULT_SORTING);
  const paging = useCursorPaging();
  const resetPaging = paging.reset;
  const [appealing, setAppealing] = useState<ClaimRow | null>(null);
  const [voiding, setVoiding] = useState<ClaimRow | null>(null);
  const [exporting, setExporting] = useState(false);

  const reasonCheck = reasonFilterSchema.safeParse(reasonText);
  const reasonError = reasonCheck.success ? undefined : reasonCheck.error.issues[0]?.message;
  // The reason filter follows the text after a pause in typing, and only when the text is a code.
  useEffect(() => {
    if (!reasonCheck.success) return;
    const handle = setTimeout(() => {
      setReason(reasonCheck.data);
      resetPaging();
    }, REASON_PAUSE_MS);
    return () => clearTimeout(handle);
  }, [reasonCheck.success, reasonCheck.data, resetPaging]);

  const filter: ClaimFilterInput = { payer: payer === ALL ? undefined : payer, reason, search };
  const sortId = sorting[0]?.id;
  const sort = isSortKey(sortId) ? sortId : 'serviceDate';
  const dir = sorting[0]?.desc === false ? ('asc' as const) : ('desc' as const);
  const list = useClaims({ ...filter, sort, dir, limit: PAGE_SIZE, cursor: paging.cursor });
  paging.track(list.data?.total);
  const overview = useClaimsOverview(filter);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { items } = await fetchClaimsExport({ ...filter, sort, dir });
      const fileName = `claims_${today()}.csv`;
      downloadCsv(fileName, toCsv(items, CLAIM_CSV_COLUMNS));
      toast({ title: 'Claims exported', description: `${items.length} claims saved to ${fileName}` });
    } catch (error) {
      toast({
        title: 'Export failed',
        description:
          error instanceof ApiError && error.serverMessage ? error.serverMessage : 'The CSV could not be created.',
        variant: 'destructive',
      });
    } finally {
      setExporting(false);
    }
  };

  const canWrite = can(role, 'claims:write');
  // The same columns from one render to the next, so the table's rows re-render only for new data.
  const tableColumns = useMemo(
    () => columns(canWrite ? { onAppeal: setAppealing, onVoid: setVoiding } : null),
    [canWrite],
  );
  // A reason code that is not one shows no claims (not the last valid filter's, as if they matched it).
  const invalidReason = reasonError !== undefined;
  const page = invalidReason ? undefined : list.data;
  return (
    <section>
      <PageHeader
        title="Claims"
        subtitle="Denials, aging and appeals across payers"
        actions={
          <>
            <Button variant="outline" onClick={() => void exportCsv()} disabled={exporting || !page}>
              <Download className="size-4" aria-hidden="true" /> {exporting ? 'Exporting…' : 'Export CSV'}
            </Button>
            {canWrite && <UploadClaimsDialog />}
          </>
        }
      />

      <div className="mb-4 flex flex-wrap items-start gap-4">
        <div className="grid gap-1.5">
          <Label htmlFor="claims-payer">Payer</Label>
          <Select
            value={payer}
            onValueChange={(value) => {
              setPayer(value as typeof ALL | Payer);
              paging.reset();
            }}
          >
            <SelectTrigger id="claims-payer" className="w-56" aria-label="Payer">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All Payers</SelectItem>
              {PAYERS.map((p) => (
                <SelectItem key={p} value={p}>
                  {p}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="w-56">
          <FormField id="claims-reason" label="Reason code" error={reasonError}>
            {(control) => (
              <Input
                {...control}
                placeholder="CO 197, etc."
                autoComplete="off"
                value={reasonText}
                onChange={(event) => setReasonText(event.target.value)}
              />
            )}
          </FormField>
        </div>
      </div>

      {invalidReason ? (
        <Card role="status" className="mb-6 p-6">
          <p>No claims are shown until the reason code is a CARC code.</p>
        </Card>
      ) : overview.isError && !overview.data ? (
        <Card role="alert" className="mb-6 p-6">
          <p className="mb-3">The summary and charts could not be loaded.</p>
          <Button variant="outline" onClick={() => void overview.refetch()}>
            Try again
          </Button>
        </Card>
      ) : (
        <>
          <SummaryLine summary={overview.data?.summary} />
          <Suspense fallback={<ClaimsChartsSkeleton />}>
            <ClaimsCharts overview={overview.data} loading={overview.isPending} />
          </Suspense>
        </>
      )}

      <Card>
        <CardHeader>
          <CardTitle as="h2">All Claims</CardTitle>
        </CardHeader>
        <CardContent>
          {list.isError && !page && !invalidReason ? (
            <div role="alert">
              <p className="mb-3">The claims could not be loaded.</p>
              <Button variant="outline" onClick={() => void list.refetch()}>
                Try again
              </Button>
            </div>
          ) : (
            <DataTable
              label="All Claims"
              columns={tableColumns}
              data={page?.items ?? []}
              getRowId={(c) => String(c.id)}
              loading={!invalidReason && list.isFetching}
              search={{
                placeholder: 'Search claims',
                label: 'Search claims by patient, payer, account number, procedure, provider or reason',
                value: search,
                onChange: (text) => {
                  setSearch(text);
                  paging.reset();
                },
              }}
              emptyMessage={
                invalidReason ? 'No claims shown: the reason code is not valid' : 'No claims found matching your search'
              }
              footer={(shown, total) =>
                invalidReason
                  ? 'Showing 0 of 0 claims'
                  : page
                    ? `Showing ${shown} of ${total.toLocaleString('en-US')} claims`
                    : 'Loading claims…'
              }
              server={paging.tableProps(page, PAGE_SIZE, sorting, setSorting)}
            />
          )}
        </CardContent>
      </Card>

      <AppealDialog claim={appealing} onClose={() => setAppealing(null)} />
      {voiding && <VoidClaimDialog key={voiding.id} claim={voiding} onClose={() => setVoiding(null)} />}
    </section>
  );
}
