import { useMemo, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { AlertTriangle, Check, Download, X } from 'lucide-react';
import { formatDate } from '@/shared/dates';
import { sortingOf, useUrlPaging, useUrlState } from '@/client/lib/url-state';
import { DataTable } from '@/client/components/data-table/DataTable';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/client/components/ui/dialog';
import { FormField } from '@/client/components/ui/form-field';
import { Input } from '@/client/components/ui/input';
import { Label } from '@/client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { Skeleton } from '@/client/components/ui/skeleton';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { downloadCsv, toCsv, type CsvColumn } from '@/client/lib/csv';
import {
  AUTHORIZATION_PAYERS,
  AUTHORIZATION_SORT_KEYS,
  AUTHORIZATION_STATUSES,
  authorizationDecisionSchema,
  type Authorization,
  type AuthorizationDecision,
  type AuthorizationKpis,
  type AuthorizationQueryInput,
  type AuthorizationSortKey,
  type AuthorizationStatus,
} from '../authorizations.schema';
import { fetchAuthorizationsExport, useAuthorizations, useDecideAuthorization } from './authorizations.api';

const ALL = 'all';
const PAGE_SIZE = 50;
/** The view when the address names none: every authorization, the oldest request first. */
const DEFAULT_VIEW = { payer: ALL, status: ALL, search: '', sort: 'ageDays', dir: 'desc' } as const;

type Decision = 'Approved' | 'Denied';

/** The status badge mapping: Approved default, Pending secondary, Denied destructive. */
const STATUS_BADGE = { Approved: 'default', Pending: 'secondary', Denied: 'destructive' } as const satisfies Record<
  AuthorizationStatus,
  'default' | 'secondary' | 'destructive'
>;

/** The CSV has the columns of the table, with the same values. */
export const AUTHORIZATION_CSV_COLUMNS: CsvColumn<Authorization>[] = [
  { header: 'Patient', value: (a) => a.patient },
  { header: 'Service', value: (a) => a.service },
  { header: 'Payer', value: (a) => a.payer },
  { header: 'Status', value: (a) => a.status },
  { header: 'Age (days)', value: (a) => a.ageDays },
];

function isSortKey(id: string | undefined): id is AuthorizationSortKey {
  return (AUTHORIZATION_SORT_KEYS as readonly string[]).includes(id ?? '');
}

function KpiCards({ kpis }: { kpis: AuthorizationKpis | undefined }) {
  const cards: { label: string; value: number | string | undefined; unit?: string; hint: string }[] = [
    { label: 'Total', value: kpis?.total, hint: 'Matching the filters' },
    { label: 'Pending', value: kpis?.pending, hint: 'Awaiting a decision' },
    { label: 'Approved', value: kpis?.approved, hint: 'Granted by the payer' },
    { label: 'Denied', value: kpis?.denied, hint: 'Refused by the payer' },
    { label: 'At Risk', value: kpis?.atRisk, hint: 'Pending over 5 days' },
    { label: 'Avg Age', value: kpis?.avgAgeDays.toFixed(1), unit: 'days', hint: 'Request to decision or today' },
  ];
  return (
    <ul className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6" aria-label="Authorization KPIs">
      {cards.map((card) => (
        <li key={card.label}>
          <Card className="h-full">
            <CardHeader className="pb-2">
              <CardTitle as="h2" className="text-sm font-medium text-muted-foreground">
                {card.label}
              </CardTitle>
            </CardHeader>
            <CardContent>
              {card.value === undefined ? (
                <Skeleton className="h-8 w-16" aria-label={`Loading ${card.label}`} />
              ) : (
                <p className="text-2xl font-bold" data-testid={`kpi-${card.label.toLowerCase().replace(/\s+/g, '-')}`}>
                  {card.value}
                  {card.unit && <span className="ml-1 text-sm font-normal text-muted-foreground">{card.unit}</span>}
                </p>
              )}
              <p className="mt-1 text-xs text-muted-foreground">{card.hint}</p>
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}

function FilterSelect({
  id,
  label,
  value,
  onChange,
  allLabel,
  options,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  allLabel: string;
  options: readonly string[];
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger id={id} className="w-56" aria-label={label}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL}>{allLabel}</SelectItem>
          {options.map((option) => (
            <SelectItem key={option} value={option}>
              {option}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

function decisionColumns(onDecide: (authorization: Authorization, decision: Decision) => void) {
  const columns: ColumnDef<Authorization>[] = [
    { id: 'patient', accessorKey: 'patient', header: 'Patient', meta: { className: 'font-medium' } },
    { id: 'service', accessorKey: 'service', header: 'Service' },
    { id: 'payer', accessorKey: 'payer', header: 'Payer' },
    {
      id: 'status',
      accessorKey: 'status',
      header: 'Status',
      cell: ({ row }) => <Badge variant={STATUS_BADGE[row.original.status]}>{row.original.status}</Badge>,
    },
    {
      id: 'ageDays',
      accessorKey: 'ageDays',
      header: 'Age (days)',
      meta: { align: 'right' },
      cell: ({ row }) => (
        <span className="inline-flex items-center justify-end gap-2 tabular-nums">
          {row.original.atRisk && (
            <Badge variant="warning" className="gap-1">
              <AlertTriangle className="size-3" aria-hidden="true" /> At risk
            </Badge>
          )}
          {row.original.ageDays}
        </span>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      enableSorting: false,
      meta: { align: 'right' },
      cell: ({ row }) =>
        row.original.status === 'Pending' ? (
          <span className="inline-flex gap-2">
            <Button
              size="sm"
              variant="outline"
              aria-label={`Approve authorization for ${row.original.patient}: ${row.original.service}`}
              onClick={() => onDecide(row.original, 'Approved')}
            >
              <Check className="size-4" aria-hidden="true" /> Approve
            </Button>
            <Button
              size="sm"
              variant="outline"
              aria-label={`Deny authorization for ${row.original.patient}: ${row.original.service}`}
              onClick={() => onDecide(row.original, 'Denied')}
            >
              <X className="size-4" aria-hidden="true" /> Deny
            </Button>
          </span>
        ) : (
          <span className="text-xs text-muted-foreground">
            {row.original.decidedOn ? `Decided ${formatDate(row.original.decidedOn)}` : 'Decided'}
          </span>
        ),
    },
  ];
  return columns;
}

const EMPTY_DETAILS = { authNumber: '', units: '', validFrom: '', validTo: '', reason: '' };
type DecisionDetails = typeof EMPTY_DETAILS;

/**
 * Approve or deny a pending authorization. Approving records what the payer granted (its authorization
 * number, the units and the days it is valid); denying records the payer's reason. Checked with the
 * server's own schema before sending.
 */
function DecisionDialog({
  target,
  busy,
  onConfirm,
  onCancel,
}: {
  target: { authorization: Authorization; decision: Decision } | null;
  busy: boolean;
  onConfirm: (decision: AuthorizationDecision) => void;
  onCancel: () => void;
}) {
  const verb = target?.decision === 'Denied' ? 'Deny' : 'Approve';
  const [details, setDetails] = useState<DecisionDetails>(EMPTY_DETAILS);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [shown, setShown] = useState(target);
  if (shown !== target) {
    setShown(target);
    setDetails(EMPTY_DETAILS);
    setErrors({});
  }
  const field = (name: keyof DecisionDetails, label: string, type = 'text', hint?: string) => (
    <FormField id={`decision-${name}`} label={label} error={errors[name === 'units' ? 'units' : name]} hint={hint}>
      {(control) => (
        <Input
          {...control}
          type={type}
          autoComplete="off"
          value={details[name]}
          onChange={(event) => setDetails((d) => ({ ...d, [name]: event.target.value }))}
        />
      )}
    </FormField>
  );
  const submit = () => {
    const candidate =
      verb === 'Approve'
        ? {
            status: 'Approved',
            authNumber: details.authNumber,
            units: details.units.trim() === '' ? undefined : Number(details.units),
            validFrom: details.validFrom,
            validTo: details.validTo,
          }
        : { status: 'Denied', reason: details.reason };
    const parsed = authorizationDecisionSchema.safeParse(candidate);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'status');
        found[key] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    onConfirm(parsed.data);
  };
  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && !busy && onCancel()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{verb} authorization?</DialogTitle>
          <DialogDescription>
            {target &&
              `${target.authorization.service} for ${target.authorization.patient} (${target.authorization.payer}), requested ${target.authorization.ageDays} days ago. This decision is recorded in the audit log and cannot be undone here.`}
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          {verb === 'Approve' ? (
            <>
              {field('authNumber', 'Authorization number', 'text', "The payer's reference")}
              {field('units', 'Units approved', 'number')}
              <div className="grid grid-cols-2 gap-4">
                {field('validFrom', 'Valid from', 'date')}
                {field('validTo', 'Valid to', 'date')}
              </div>
            </>
          ) : (
            field('reason', 'Reason', 'text', "The payer's reason for the denial")
          )}
          <DialogFooter>
            <Button variant="outline" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" variant={verb === 'Deny' ? 'destructive' : 'default'} disabled={busy}>
              {busy ? `${verb === 'Deny' ? 'Denying' : 'Approving'}…` : verb}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The filters, search, sort and page live in the address, so a reload, Back or a shared link shows the same list. */
export default function AuthorizationsPage() {
  const view = useUrlState(DEFAULT_VIEW);
  const { payer, status, search } = view.values;
  const paging = useUrlPaging();
  const [target, setTarget] = useState<{ authorization: Authorization; decision: Decision } | null>(null);
  const [exporting, setExporting] = useState(false);
  // The same columns from one render to the next: new ones would remount every row's buttons, and closing
  // the decision dialog could not give focus back to the button that opened it.
  const columns = useMemo(
    () => decisionColumns((authorization, decision) => setTarget({ authorization, decision })),
    [],
  );

  const sortId = view.values.sort;
  const filter = {
    payer: payer === ALL ? undefined : (payer as AuthorizationQueryInput['payer']),
    status: status === ALL ? undefined : (status as AuthorizationStatus),
    search,
    sort: isSortKey(sortId) ? sortId : DEFAULT_VIEW.sort,
    dir: view.values.dir === 'asc' ? ('asc' as const) : ('desc' as const),
  };
  const sorting = sortingOf(filter.sort, filter.dir);
  const list = useAuthorizations({ ...filter, limit: PAGE_SIZE, cursor: paging.cursor });
  // The KPIs come with a first page only (the server does not recompute them per page): the first page's
  // query stays active while later pages show (cached, so paging costs no extra request), and refetches
  // with them after a decision, so the cards stay exact on any page.
  const firstPage = useAuthorizations({ ...filter, limit: PAGE_SIZE, cursor: undefined });
  const kpis = firstPage.data?.kpis ?? undefined;
  const overallTotal = firstPage.data?.overallTotal ?? null;
  paging.track(list.data?.total);
  // A shared link to a later page carries no total: the first page's (always loaded, for the KPIs) gives it.
  paging.track(firstPage.data?.total);
  const decide = useDecideAuthorization();

  const confirmDecision = (details: AuthorizationDecision) => {
    if (!target) return;
    const { authorization, decision } = target;
    decide.mutate(
      { id: authorization.id, ...details },
      {
        onSuccess: () => {
          toast({
            title: decision === 'Approved' ? 'Authorization approved' : 'Authorization denied',
            description: `${authorization.service} for ${authorization.patient}`,
          });
          setTarget(null);
        },
        onError: (error) => {
          const alreadyDecided = error instanceof ApiError && error.status === 409;
          toast({
            title: alreadyDecided ? 'Already decided' : 'Error',
            description: alreadyDecided
              ? `Someone has already decided this authorization (${error.serverMessage ?? 'not pending'}).`
              : 'Failed to update the authorization. Please try again.',
            variant: 'destructive',
          });
          setTarget(null);
        },
      },
    );
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { items } = await fetchAuthorizationsExport(filter);
      downloadCsv('authorizations.csv', toCsv(items, AUTHORIZATION_CSV_COLUMNS));
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

  const data = list.data;
  return (
    <section>
      <PageHeader
        title="Authorizations"
        subtitle="Prior authorizations by payer and status"
        actions={
          <Button variant="outline" onClick={() => void exportCsv()} disabled={exporting || !data}>
            <Download className="size-4" aria-hidden="true" /> {exporting ? 'Exporting…' : 'Export CSV'}
          </Button>
        }
      />

      <KpiCards kpis={kpis} />

      <div className="mb-4 flex flex-wrap items-end gap-4">
        <FilterSelect
          id="authorization-payer"
          label="Payer"
          value={payer}
          onChange={(value) => view.set({ payer: value })}
          allLabel="All Payers"
          options={AUTHORIZATION_PAYERS}
        />
        <FilterSelect
          id="authorization-status"
          label="Status"
          value={status}
          onChange={(value) => view.set({ status: value })}
          allLabel="All statuses"
          options={AUTHORIZATION_STATUSES}
        />
      </div>

      {list.isError && !data ? (
        <Card role="alert" className="p-6">
          <p className="mb-3">The authorizations could not be loaded.</p>
          <Button variant="outline" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </Card>
      ) : (
        <DataTable
          label="Authorizations"
          columns={columns}
          data={data?.items ?? []}
          getRowId={(a) => String(a.id)}
          loading={list.isFetching}
          search={{
            placeholder: 'Search patient or service',
            value: search,
            onChange: (text) => view.set({ search: text }, { replace: true }),
          }}
          emptyMessage="No authorizations found"
          footer={(_, matching) =>
            data && overallTotal !== null
              ? `Showing ${matching} of ${overallTotal} authorizations`
              : 'Loading authorizations…'
          }
          server={paging.tableProps(data, PAGE_SIZE, sorting, ([next]) =>
            view.set({ sort: next?.id, dir: next?.desc ? 'desc' : 'asc' }),
          )}
          rowClassName={(a) => (a.atRisk ? 'bg-amber-50/60' : undefined)}
        />
      )}

      <DecisionDialog
        target={target}
        busy={decide.isPending}
        onConfirm={confirmDecision}
        onCancel={() => setTarget(null)}
      />
    </section>
  );
}
