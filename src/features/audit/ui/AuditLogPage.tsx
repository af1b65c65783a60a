import { useEffect, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { Download, FilterX, ShieldCheck } from 'lucide-react';
import { can, type Role } from '@/shared/access';
import { DataTable } from '@/client/components/data-table/DataTable';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card';
import { FormField } from '@/client/components/ui/form-field';
import { Input } from '@/client/components/ui/input';
import { Label } from '@/client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { Skeleton } from '@/client/components/ui/skeleton';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { downloadCsv, toCsv, type CsvColumn } from '@/client/lib/csv';
import {
  AUDIT_EXPORT_MAX_ROWS,
  AUDIT_PAGE_SIZE,
  type AuditEntry,
  type AuditStats,
  type ChainVerificationResult,
} from '../audit.schema';
import {
  fetchAuditExport,
  useAuditActions,
  useAuditEntries,
  useAuditStats,
  useRefreshAudit,
  useVerifyChain,
  type AuditFilterInput,
} from './audit.api';

const ALL = 'all';
const ACTOR_PAUSE_MS = 300;

/** Local date and 12-hour time, to the second (the CSV keeps the exact UTC instant). */
export function formatAuditTime(iso: string): string {
  return new Date(iso).toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: '2-digit',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** The CSV has the table's columns; time as the exact UTC instant so it sorts and parses anywhere. */
export const AUDIT_CSV_COLUMNS: CsvColumn<AuditEntry>[] = [
  { header: 'Time', value: (e) => e.time },
  { header: 'Actor', value: (e) => e.actor },
  { header: 'Action', value: (e) => e.action },
  { header: 'Resource', value: (e) => e.resource },
  { header: 'Detail', value: (e) => e.detail ?? '' },
];

const COLUMNS: ColumnDef<AuditEntry>[] = [
  {
    id: 'time',
    header: 'Time',
    enableSorting: false,
    meta: { className: 'whitespace-nowrap tabular-nums' },
    cell: ({ row }) => <time dateTime={row.original.time}>{formatAuditTime(row.original.time)}</time>,
  },
  { id: 'actor', accessorKey: 'actor', header: 'Actor', enableSorting: false },
  {
    id: 'action',
    accessorKey: 'action',
    header: 'Action',
    enableSorting: false,
    meta: { className: 'font-mono text-xs whitespace-nowrap' },
  },
  { id: 'resource', accessorKey: 'resource', header: 'Resource', enableSorting: false },
  {
    id: 'detail',
    header: 'Detail',
    enableSorting: false,
    cell: ({ row }) => row.original.detail ?? <span className="text-muted-foreground">—</span>,
  },
];

/** The six cards; each description says exactly what is counted (see auditStats on the server). */
const STAT_CARDS: { key: keyof AuditStats; label: string; hint: string }[] = [
  { key: 'totalEntries', label: 'Total Entries', hint: 'Every entry in the audit trail' },
  { key: 'entriesLast24h', label: 'Last 24 Hours', hint: 'Entries recorded in the last 24 hours' },
  {
    key: 'failedSignInsLast24h',
    label: 'Failed Sign-ins (24h)',
    hint: 'Wrong password, wrong or expired code, or locked out, last 24 hours',
  },
  {
    key: 'deniedAccessLast7d',
    label: 'Denied Access (7d)',
    hint: 'Calls refused for lack of permission, session or CSRF token, last 7 days',
  },
  {
    key: 'phiReadsLast7d',
    label: 'PHI Reads (7d)',
    hint: 'Patient records, statements and worklists viewed, last 7 days',
  },
  { key: 'exportsLast7d', label: 'Exports (7d)', hint: 'CSV and statement exports, last 7 days' },
];

function StatCards({ stats, failed }: { stats: AuditStats | undefined; failed: boolean }) {
  return (
    <ul className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6" aria-label="Audit figures">
      {STAT_CARDS.map((card) => (
        <li key={card.key}>
          <Card className="h-full">
            <CardHeader className="pb-2">
              <CardTitle as="h2" className="text-sm font-medium text-muted-foreground">
                {card.label}
              </CardTitle>
            </CardHeader>
            <CardContent>
              {stats ? (
                <p className="text-2xl font-bold tabular-nums" data-testid={`audit-stat-${card.key}`}>
                  {stats[card.key].toLocaleString('en-US')}
                </p>
              ) : failed ? (
                <p className="text-2xl font-bold text-muted-foreground">—</p>
              ) : (
                <Skeleton className="h-8 w-16" aria-label={`Loading ${card.label}`} />
              )}
              <p className="mt-1 text-xs text-muted-foreground">{card.hint}</p>
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}

function verificationText(result: ChainVerificationResult): string {
  if (result.ok) return `Audit chain verified: ${result.checked.toLocaleString('en-US')} entries intact`;
  const broken = result.firstBreak;
  if (!broken) return 'Audit chain could not be verified';
  const why =
    broken.problem === 'modified'
      ? 'this entry was changed after it was written'
      : 'the entry before it was removed or altered';
  return `Audit chain broken at position ${broken.position.toLocaleString('en-US')} (entry ${broken.id}): ${why}`;
}

/** The admin's verification outcome, announced when it arrives. */
function VerificationResult({ result, error }: { result: ChainVerificationResult | undefined; error: boolean }) {
  if (!result && !error) return null;
  const ok = result?.ok === true;
  return (
    <Card
      role={ok ? 'status' : 'alert'}
      className={ok ? 'mb-4 border-emerald-600 p-4 text-emerald-900' : 'mb-4 border-destructive p-4 text-destructive'}
    >
      {result ? verificationText(result) : 'The audit chain could not be verified. Please try again.'}
    </Card>
  );
}

export default function AuditLogPage({ role }: { role: Role }) {
  const [actorText, setActorText] = useState('');
  const [actor, setActor] = useState('');
  const [action, setAction] = useState(ALL);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [exporting, setExporting] = useState(false);
  const refresh = useRefreshAudit();
  const verify = useVerifyChain();
  const mayVerify = can(role, 'audit:verify');

  // The actor filter is sent after a pause in typing, not once per key.
  useEffect(() => {
    const handle = setTimeout(() => setActor(actorText.trim()), ACTOR_PAUSE_MS);
    return () => clearTimeout(handle);
  }, [actorText]);

  const rangeError = from !== '' && to !== '' && from > to ? 'must be on or after the From date' : undefined;
  const filter: AuditFilterInput = {
    actor: actor || undefined,
    action: action === ALL ? undefined : action,
    from: from || undefined,
    to: to || undefined,
  };
  const entries = useAuditEntries(filter, !rangeError);
  const stats = useAuditStats();
  const actions = useAuditActions();
  const rows = entries.data?.pages.flatMap((p) => p.entries) ?? [];
  const filtered = actorText !== '' || action !== ALL || from !== '' || to !== '';

  const clearFilters = () => {
    setActorText('');
    setActor('');
    setAction(ALL);
    setFrom('');
    setTo('');
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const result = await fetchAuditExport(filter);
      downloadCsv('audit-log.csv', toCsv(result.entries, AUDIT_CSV_COLUMNS));
      if (result.capped) {
        toast({
          title: 'Export capped',
          description: `The CSV holds the ${result.maxRows.toLocaleString('en-US')} newest matching entries. Narrow the filters to export older ones.`,
        });
      }
      void refresh();
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

  const actionOptions = actions.data?.actions ?? [];
  const listFailed = entries.isError && !entries.data;

  return (
    <section>
      <PageHeader
        title="Audit Log"
        subtitle="Who did what, and when: every sign-in, change, PHI read, export and denied access"
        actions={
          <>
            {mayVerify && (
              <Button variant="outline" onClick={() => verify.mutate()} disabled={verify.isPending}>
                <ShieldCheck className="size-4" aria-hidden="true" /> {verify.isPending ? 'Verifying…' : 'Verify chain'}
              </Button>
            )}
            <Button variant="outline" onClick={() => void exportCsv()} disabled={exporting || Boolean(rangeError)}>
              <Download className="size-4" aria-hidden="true" /> {exporting ? 'Exporting…' : 'Export CSV'}
            </Button>
          </>
        }
      />

      {mayVerify && <VerificationResult result={verify.data} error={verify.isError} />}

      <StatCards stats={stats.data} failed={stats.isError} />

      <form
        className="mb-2 flex flex-wrap items-end gap-4"
        aria-label="Audit log filters"
        onSubmit={(e) => e.preventDefault()}
      >
        <div className="w-64">
          <FormField id="audit-actor" label="Actor" hint="Part of an email, any case">
            {(control) => (
              <Input
                {...control}
                type="search"
                placeholder="e.g. billing.admin"
                value={actorText}
                onChange={(e) => setActorText(e.target.value)}
              />
            )}
          </FormField>
        </div>
        <div className="grid gap-1.5 pb-5">
          <Label htmlFor="audit-action">Action</Label>
          <Select value={action} onValueChange={setAction}>
            <SelectTrigger id="audit-action" className="w-56" aria-label="Action">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All actions</SelectItem>
              {actionOptions.map((option) => (
                <SelectItem key={option} value={option}>
                  {option}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="w-44">
          <FormField id="audit-from" label="From" hint="First day, inclusive">
            {(control) => <Input {...control} type="date" value={from} onChange={(e) => setFrom(e.target.value)} />}
          </FormField>
        </div>
        <div className="w-44">
          <FormField id="audit-to" label="To" hint="Last day, inclusive" error={rangeError}>
            {(control) => <Input {...control} type="date" value={to} onChange={(e) => setTo(e.target.value)} />}
          </FormField>
        </div>
        <div className="pb-5">
          <Button type="button" variant="ghost" onClick={clearFilters} disabled={!filtered}>
            <FilterX className="size-4" aria-hidden="true" /> Clear filters
          </Button>
        </div>
      </form>
      <p className="mb-4 text-xs text-muted-foreground">
        Export CSV holds the filtered entries, up to the {AUDIT_EXPORT_MAX_ROWS.toLocaleString('en-US')} newest. The
        export itself is recorded in this log.
      </p>

      {listFailed ? (
        <Card role="alert" className="p-6">
          <p className="mb-3">The audit log could not be loaded.</p>
          <Button variant="outline" onClick={() => void entries.refetch()}>
            Try again
          </Button>
        </Card>
      ) : (
        <>
          <DataTable
            label="Audit log entries, newest first"
            columns={COLUMNS}
            data={rows}
            getRowId={(e) => String(e.id)}
            loading={entries.isFetching && !entries.isFetchingNextPage}
            emptyMessage="No audit logs available"
            footer={(shown) =>
              entries.data
                ? `Showing ${shown.toLocaleString('en-US')} ${shown === 1 ? 'entry' : 'entries'}, newest first${
                    entries.hasNextPage ? '; older entries follow' : ''
                  }`
                : 'Loading audit entries…'
            }
            server={{
              total: rows.length,
              pageIndex: 0,
              pageSize: Math.max(rows.length, 1),
              onPageChange: () => {},
              sorting: [],
              onSortingChange: () => {},
            }}
          />
          {entries.hasNextPage && (
            <div className="mt-3 flex justify-center">
              <Button
                variant="outline"
                onClick={() => void entries.fetchNextPage()}
                disabled={entries.isFetchingNextPage}
              >
                {entries.isFetchingNextPage ? 'Loading…' : `Load ${AUDIT_PAGE_SIZE} more`}
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
