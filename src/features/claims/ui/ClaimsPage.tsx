import { lazy, Suspense, useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ClaimStatusSlot } from './ClaimDetailDialog';
import { Link, useLocation } from 'react-router';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { AlertOctagon, Clock, Download, Plus } from 'lucide-react';
import { can, type Role } from '@/shared/access';
import { formatDollars, today } from '@/shared/api';
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
import { downloadCsv, toCsv } from '@/client/lib/csv';
import { statusVariant } from '@/client/lib/status-variant';
import {
  CLAIM_CSV_COLUMNS,
  CLAIM_SORT_KEYS,
  CLAIM_STATUSES,
  PAYERS,
  isAppealable,
  reasonFilterSchema,
  type ClaimFilterInput,
  type ClaimOverview,
  type ClaimRow,
  type ClaimSortKey,
  type ClaimStatus,
  type Payer,
} from '../claims.schema';
import { AppealDialog } from './AppealDialog';
import { VoidClaimDialog } from './VoidClaimDialog';
import { ClaimHistoryDialog } from './ClaimHistoryDialog';
import { ClaimsChartsSkeleton } from './ClaimsChartsSkeleton';
import { UploadClaimsDialog } from './UploadClaimsDialog';
import { fetchClaimsExport, useClaimProviders, useClaims, useClaimsOverview } from './claims.api';
import { useClaimsView } from './claims.view-state';
import { formatDate } from '@/shared/dates';

const ALL = 'all';
const PAGE_SIZE = 50;
/** The server pages by offset this far at most; deeper pages are reached by cursor. */
const MAX_OFFSET = 10_000;
/** Wait this long after the last key before filtering by the reason code typed. */
const REASON_PAUSE_MS = 300;

/** No page yet: one array, so the deferred rows compare equal from render to render. */
const NO_ROWS: ClaimRow[] = [];

// Chart.js is the screen's largest script: loaded beside the page rather than before it, so the header,
// filters and table render without waiting for it (its placeholders hold the charts' place meanwhile).
const ClaimsCharts = lazy(() => import('./ClaimsCharts').then((module) => ({ default: module.ClaimsCharts })));
// The claim view and form are fetched when first opened: most visits to the list open neither.
const ClaimDetailDialog = lazy(() =>
  import('./ClaimDetailDialog').then((module) => ({ default: module.ClaimDetailDialog })),
);
const ClaimFormDialog = lazy(() => import('./ClaimFormDialog').then((module) => ({ default: module.ClaimFormDialog })));
const BATCHES_PATH = '/claims/batches';

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

const STATUS_WIDTH = 132;
/** View, Appeal and Void side by side; View alone for those who only read claims. */
const ACTIONS_WIDTH = 240;
const VIEW_ONLY_WIDTH = 96;

function columns(
  actions: { onAppeal: ClaimAction; onVoid: ClaimAction } | null,
  onHistory: ClaimAction,
  onView: ClaimAction,
): ColumnDef<ClaimRow>[] {
  const actionsWidth = actions ? ACTIONS_WIDTH : VIEW_ONLY_WIDTH;
  const list: ColumnDef<ClaimRow>[] = [
    {
      id: 'serviceDate',
      accessorKey: 'serviceDate',
      header: 'Service Date',
      meta: { className: 'whitespace-nowrap' },
      cell: ({ row }) => formatDate(row.original.serviceDate),
    },
    { id: 'patient', accessorKey: 'patient', header: 'Patient', meta: { className: 'font-medium whitespace-nowrap' } },
    {
      id: 'accountNumber',
      accessorKey: 'accountNumber',
      header: 'Account Number',
      meta: { className: 'font-mono text-xs whitespace-nowrap' },
      // The account number opens the claim's history (its appeals and their outcomes).
      cell: ({ row }) => (
        <button
          type="button"
          className="rounded underline-offset-2 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          aria-label={`History of claim ${row.original.accountNumber}`}
          onClick={() => onHistory(row.original)}
        >
          {row.original.accountNumber}
        </button>
      ),
    },
    { id: 'procedure', accessorKey: 'procedure', header: 'Procedure', meta: { className: 'font-mono text-xs' } },
    { id: 'provider', accessorKey: 'provider', header: 'Provider', meta: { className: 'whitespace-nowrap' } },
    { id: 'payer', accessorKey: 'payer', header: 'Payer', meta: { className: 'whitespace-nowrap' } },
    {
      id: 'billedCents',
      accessorKey: 'billedCents',
      header: 'Billed',
      meta: { align: 'right', className: 'tabular-nums' },
      cell: ({ row }) => formatDollars(row.original.billedCents),
    },
    {
      id: 'paidCents',
      accessorKey: 'paidCents',
      header: 'Paid',
      meta: { align: 'right', className: 'tabular-nums' },
      cell: ({ row }) => formatDollars(row.original.paidCents),
    },
    {
      id: 'balanceCents',
      accessorKey: 'balanceCents',
      header: 'Balance',
      // Computed from the claim's payments, so no index holds its order: the list is not sorted by it.
      enableSorting: false,
      meta: { align: 'right', className: 'tabular-nums' },
      cell: ({ row }) => formatDollars(row.original.balanceCents),
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
      // Status and the Appeal button stay in view while the other columns scroll sideways.
      meta: { pin: { right: actionsWidth, width: STATUS_WIDTH } },
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
  list.push({
    id: 'actions',
    header: 'Actions',
    enableSorting: false,
    meta: { align: 'right', pin: { right: 0, width: actionsWidth } },
    cell: ({ row }) => (
      <div className="flex justify-end gap-2">
        <Button
          size="sm"
          variant="outline"
          aria-label={`View claim ${row.original.accountNumber}`}
          onClick={() => onView(row.original)}
        >
          View
        </Button>
        {actions && (
          <>
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
          </>
        )}
      </div>
    ),
  });
  return list;
}

function SummaryLine({ summary }: { summary: ClaimOverview['summary'] | undefined }) {
  const items = [
    {
      label: 'Total Denied (first pass)',
      value: summary && formatDollars(summary.totalDeniedCents),
      id: 'total-denied',
    },
    { label: 'Total Billed', value: summary && formatDollars(summary.totalBilledCents), id: 'total-billed' },
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
        <p className="mt-2 text-xs text-muted-foreground" id="total-denied-note">
          Total Denied is the billed amount of the claims denied at their first adjudication, including those since
          appealed, paid or written off; it is not the amount still open on denied claims.
        </p>
      </CardContent>
    </Card>
  );
}

const VIEW_LINK =
  'inline-flex items-center rounded-sm px-3 py-1.5 text-sm font-medium whitespace-nowrap focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';
const VIEW_LINK_CURRENT = 'bg-background text-foreground shadow-sm';

/** All claims, or the batches sent to payers (billing staff): two views of the screen, each at its own address. */
function ClaimsViews({ batches }: { batches: boolean }) {
  return (
    <nav aria-label="Claims views" className="mb-4 inline-flex gap-1 rounded-md bg-muted p-1 text-muted-foreground">
      <Link
        to="/claims"
        aria-current={batches ? undefined : 'page'}
        className={cn(VIEW_LINK, !batches && VIEW_LINK_CURRENT)}
      >
        All claims
      </Link>
      <Link
        to={BATCHES_PATH}
        aria-current={batches ? 'page' : undefined}
        className={cn(VIEW_LINK, batches && VIEW_LINK_CURRENT)}
      >
        Batches
      </Link>
    </nav>
  );
}

/**
 * The Claims screen: the claims list, and for those who send claims (`claims:submit`) the Batches view at
 * /claims/batches, which the claim submission feature draws (assembled in src/client/pages/ClaimsRoute.tsx).
 */
export default function ClaimsPage({
  role,
  batchesView,
  statusView,
}: {
  role: Role;
  batchesView: ReactNode;
  statusView?: ClaimStatusSlot;
}) {
  const location = useLocation();
  const canSubmit = can(role, 'claims:submit');
  const batches = canSubmit && location.pathname.replace(/\/+$/, '') === BATCHES_PATH;
  const views = canSubmit ? <ClaimsViews batches={batches} /> : null;
  if (!batches) return <ClaimsList role={role} views={views} statusView={statusView} />;
  return (
    <section>
      <PageHeader title="Claims" subtitle="Batches sent to payers and their acknowledgements" />
      {views}
      <Suspense fallback={<Skeleton className="h-64 w-full" aria-label="Loading batches" />}>{batchesView}</Suspense>
    </section>
  );
}

/** Denials, aging and appeals, filtered, sorted and paged by the server; the view is kept in the address. */
function ClaimsList({ role, views, statusView }: { role: Role; views: ReactNode; statusView?: ClaimStatusSlot }) {
  const [view, setView] = useClaimsView();
  const [reasonText, setReasonText] = useState(view.reason);
  const [appealing, setAppealing] = useState<ClaimRow | null>(null);
  const [voiding, setVoiding] = useState<ClaimRow | null>(null);
  const [historyOf, setHistoryOf] = useState<ClaimRow | null>(null);
  const [viewing, setViewing] = useState<{ id: number; accountNumber: string } | null>(null);
  const [creating, setCreating] = useState(false);
  const [exporting, setExporting] = useState(false);
  const providers = useClaimProviders();

  const reasonCheck = reasonFilterSchema.safeParse(reasonText);
  const reasonError = reasonCheck.success ? undefined : reasonCheck.error.issues[0]?.message;
  // Back and Forward change the reason in the address: the box shows it.
  const [seenReason, setSeenReason] = useState(view.reason);
  if (view.reason !== seenReason) {
    setSeenReason(view.reason);
    if (!reasonCheck.success || reasonCheck.data !== view.reason) setReasonText(view.reason);
  }
  // The reason filter follows the text after a pause in typing, and only when the text is a code.
  useEffect(() => {
    if (!reasonCheck.success || reasonCheck.data === view.reason) return;
    const handle = setTimeout(() => setView({ reason: reasonCheck.data }), REASON_PAUSE_MS);
    return () => clearTimeout(handle);
  }, [reasonCheck.success, reasonCheck.data, view.reason, setView]);

  const rangeError = view.from && view.to && view.from > view.to ? 'must be on or after the From date' : undefined;
  const filter: ClaimFilterInput = {
    payer: view.payer,
    reason: view.reason,
    search: view.search,
    status: view.status,
    providerId: view.providerId,
    from: view.from,
    to: rangeError ? undefined : view.to,
  };
  const { sort, dir } = view;
  const sorting: SortingState = [{ id: sort, desc: dir === 'desc' }];
  // A page opened from the address without its cursor (a shared link) is fetched by offset.
  const offset = view.page > 0 && !view.cursor ? view.page * PAGE_SIZE : 0;
  const list = useClaims({
    ...filter,
    sort,
    dir,
    limit: PAGE_SIZE,
    cursor: view.cursor,
    ...(offset > 0 && offset <= MAX_OFFSET ? { offset } : {}),
  });
  const overview = useClaimsOverview(filter);
  // A reason code that is not one shows no claims (not the last valid filter's, as if they matched it).
  const invalidReason = reasonError !== undefined;
  const page = invalidReason ? undefined : list.data;
  // A page of rows is rendered as a background update React can interrupt: fifty claims take a long task to
  // render on a slow machine, and the filters, search and menus must answer meanwhile (docs/performance.md).
  const items = page?.items ?? NO_ROWS;
  const shownItems = useDeferredValue(items);
  const rendering = shownItems !== items;
  // The server counts the matches on a first page only; a later page takes the overview's count (same filters).
  const total = page?.total ?? overview.data?.summary.claims ?? 0;

  // The cursor of each page reached so far with these filters, so Previous returns by cursor too.
  const cursors = useRef<{ key: string; byPage: Map<number, string | undefined> }>({ key: '', byPage: new Map() });
  const listKey = JSON.stringify([filter, sort, dir]);
  useEffect(() => {
    if (cursors.current.key !== listKey) cursors.current = { key: listKey, byPage: new Map() };
    cursors.current.byPage.set(view.page, view.cursor);
  }, [listKey, view.page, view.cursor]);
  const turnPage = (next: number) => {
    if (next === view.page + 1 && page?.nextCursor) setView({ page: next, cursor: page.nextCursor });
    else if (next < view.page) {
      const known = cursors.current.key === listKey ? cursors.current.byPage.get(next) : undefined;
      setView({ page: next * PAGE_SIZE > MAX_OFFSET && !known ? 0 : Math.max(0, next), cursor: known });
    }
  };

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
    () => columns(canWrite ? { onAppeal: setAppealing, onVoid: setVoiding } : null, setHistoryOf, setViewing),
    [canWrite],
  );
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
            {canWrite && (
              <Button onClick={() => setCreating(true)}>
                <Plus className="size-4" aria-hidden="true" /> New claim
              </Button>
            )}
          </>
        }
      />
      {views}

      <div className="mb-4 flex flex-wrap items-start gap-4">
        <div className="grid gap-1.5">
          <Label htmlFor="claims-payer">Payer</Label>
          <Select
            value={view.payer ?? ALL}
            onValueChange={(value) => setView({ payer: value === ALL ? undefined : (value as Payer) })}
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
        <div className="grid gap-1.5">
          <Label htmlFor="claims-status">Status</Label>
          <Select
            value={view.status ?? ALL}
            onValueChange={(value) => setView({ status: value === ALL ? undefined : (value as ClaimStatus) })}
          >
            <SelectTrigger id="claims-status" className="w-44" aria-label="Status">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All Statuses</SelectItem>
              {CLAIM_STATUSES.map((status) => (
                <SelectItem key={status} value={status}>
                  {status}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="claims-provider">Provider</Label>
          <Select
            value={view.providerId === undefined ? ALL : String(view.providerId)}
            onValueChange={(value) => setView({ providerId: value === ALL ? undefined : Number(value) })}
          >
            <SelectTrigger id="claims-provider" className="w-56" aria-label="Provider">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All Providers</SelectItem>
              {(providers.data ?? []).map((provider) => (
                <SelectItem key={provider.id} value={String(provider.id)}>
                  {provider.name}
                </SelectItem>
              ))}
              {/* A provider from the address that the list has not brought (yet) still has its item. */}
              {view.providerId !== undefined && !providers.data?.some((p) => p.id === view.providerId) && (
                <SelectItem value={String(view.providerId)}>Provider #{view.providerId}</SelectItem>
              )}
            </SelectContent>
          </Select>
        </div>
        <div className="w-40">
          <FormField id="claims-from" label="Service from">
            {(control) => (
              <Input
                {...control}
                type="date"
                value={view.from ?? ''}
                onChange={(event) => setView({ from: event.target.value || undefined })}
              />
            )}
          </FormField>
        </div>
        <div className="w-40">
          <FormField id="claims-to" label="Service to" error={rangeError}>
            {(control) => (
              <Input
                {...control}
                type="date"
                value={view.to ?? ''}
                onChange={(event) => setView({ to: event.target.value || undefined })}
              />
            )}
          </FormField>
        </div>
        <div className="w-44">
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
              data={shownItems}
              getRowId={(c) => String(c.id)}
              loading={(!invalidReason && list.isFetching) || rendering}
              search={{
                placeholder: 'Search claims',
                label: 'Search claims by patient, payer, account number, procedure, provider or reason',
                value: view.search,
                onChange: (text) => setView({ search: text }),
              }}
              emptyMessage={
                invalidReason ? 'No claims shown: the reason code is not valid' : 'No claims found matching your search'
              }
              footer={(shown, total) =>
                invalidReason
                  ? 'Showing 0 of 0 claims'
                  : page && !rendering
                    ? `Showing ${shown} of ${total.toLocaleString('en-US')} claims`
                    : 'Loading claims…'
              }
              server={{
                total,
                pageIndex: view.page,
                pageSize: PAGE_SIZE,
                onPageChange: turnPage,
                hasNextPage: Boolean(page?.nextCursor),
                sorting,
                onSortingChange: (next) => {
                  const id = next[0]?.id;
                  if (isSortKey(id)) setView({ sort: id, dir: next[0]?.desc ? 'desc' : 'asc' });
                },
              }}
            />
          )}
        </CardContent>
      </Card>

      <AppealDialog claim={appealing} onClose={() => setAppealing(null)} />
      {voiding && <VoidClaimDialog key={voiding.id} claim={voiding} onClose={() => setVoiding(null)} />}
      <ClaimHistoryDialog claim={historyOf} canWrite={canWrite} onClose={() => setHistoryOf(null)} />
      <Suspense fallback={null}>
        {viewing && (
          <ClaimDetailDialog
            key={viewing.id}
            claimId={viewing.id}
            accountNumber={viewing.accountNumber}
            canWrite={canWrite}
            onClose={() => setViewing(null)}
            statusView={statusView}
          />
        )}
        {creating && (
          <ClaimFormDialog
            claim={null}
            onClose={() => setCreating(false)}
            // The new claim opens in its view, where it is scrubbed.
            onSaved={(saved) => setViewing({ id: saved.id, accountNumber: saved.accountNumber })}
          />
        )}
      </Suspense>
    </section>
  );
}
