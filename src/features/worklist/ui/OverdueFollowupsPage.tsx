import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { Download } from 'lucide-react';
import { DataTable } from '@/client/components/data-table/DataTable';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Label } from '@/client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { Skeleton } from '@/client/components/ui/skeleton';
import { toast } from '@/client/components/ui/toast';
import { downloadCsv, toCsv } from '@/client/lib/csv';
import { sortingOf, useUrlPaging, useUrlState } from '@/client/lib/url-state';
import {
  FOLLOW_UP_PRIORITIES,
  WORKLIST_SORT_KEYS,
  followUpPrioritySchema,
  type OverdueFollowUp,
  type WorklistFilterInput,
  type WorklistSortKey,
  type WorklistSummary,
} from '../worklist.schema';
import { fetchWorklistExport, useOverdueFollowUps, useWorklistSummary } from './worklist.api';
import { WORKLIST_CSV_COLUMNS, WORKLIST_CSV_FILE, formatEncounterDate } from './worklist.view';

const TITLE = 'Overdue Follow-ups';
const SUBTITLE = 'Patients whose follow-up is overdue with no later visit booked';
const ALL = 'all';
const PAGE_SIZE = 50;
/** The view when the address names none: every overdue follow-up, the most urgent first. */
const DEFAULT_VIEW = { priority: ALL, provider: ALL, sort: 'priority', dir: 'asc' } as const;

function isSortKey(id: string): id is WorklistSortKey {
  return (WORKLIST_SORT_KEYS as readonly string[]).includes(id);
}

/** High red, Medium amber, Low blue, anything else grey. */
function priorityVariant(priority: string) {
  switch (priority) {
    case 'High':
      return 'destructive' as const;
    case 'Medium':
      return 'warning' as const;
    case 'Low':
      return 'info' as const;
    default:
      return 'outline' as const;
  }
}

/**
 * The server sorts by priority (urgency, not the alphabet) and by days overdue, the two orders an index
 * serves (docs/paging.md); the other columns are not sortable.
 */
const columns: ColumnDef<OverdueFollowUp>[] = [
  {
    id: 'priority',
    accessorKey: 'priority',
    header: 'Priority',
    cell: ({ row }) => <Badge variant={priorityVariant(row.original.priority)}>{row.original.priority}</Badge>,
  },
  {
    id: 'patient',
    accessorKey: 'patientName',
    header: 'Patient',
    enableSorting: false,
    meta: { className: 'font-medium' },
  },
  // To call the patient back; the server masks it as the role requires.
  {
    id: 'phone',
    accessorKey: 'phone',
    header: 'Phone',
    enableSorting: false,
    meta: { className: 'whitespace-nowrap' },
  },
  { id: 'provider', accessorKey: 'providerName', header: 'Provider', enableSorting: false },
  {
    id: 'encounterDate',
    accessorKey: 'encounterDate',
    header: () => <span className="whitespace-nowrap">Encounter Date</span>,
    cell: ({ row }) => <span className="whitespace-nowrap">{formatEncounterDate(row.original.encounterDate)}</span>,
    enableSorting: false,
  },
  { id: 'type', accessorKey: 'encounterType', header: 'Type', enableSorting: false },
  { id: 'chiefComplaint', accessorKey: 'chiefComplaint', header: 'Chief Complaint', enableSorting: false },
  { id: 'diagnosis', accessorFn: (r) => r.diagnosis.join(', '), header: 'Diagnosis', enableSorting: false },
  {
    id: 'daysOverdue',
    accessorKey: 'daysOverdue',
    header: () => <span className="whitespace-nowrap">Days Overdue</span>,
    meta: { align: 'right', className: 'tabular-nums' },
  },
  { id: 'action', accessorKey: 'recommendedAction', header: 'Action', enableSorting: false },
];

function Tiles({ summary }: { summary: WorklistSummary | undefined }) {
  const tiles = [
    { label: 'Total Overdue', value: summary?.total, hint: 'Patients' },
    { label: 'High Priority', value: summary?.high, hint: 'Immediate action' },
    { label: 'Medium Priority', value: summary?.medium, hint: 'Within 1 week' },
    { label: 'Low Priority', value: summary?.low, hint: 'Schedule soon' },
    { label: 'Avg Days Overdue', value: summary?.avgDaysOverdue, hint: 'Days' },
  ];
  return (
    <ul className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-5" aria-label="Worklist summary">
      {tiles.map((tile) => (
        <li key={tile.label}>
          <Card className="h-full">
            <CardHeader className="pb-2">
              <CardTitle as="h2" className="text-sm font-medium text-muted-foreground">
                {tile.label}
              </CardTitle>
            </CardHeader>
            <CardContent>
              {tile.value === undefined ? (
                <Skeleton className="h-8 w-16" aria-label={`Loading ${tile.label}`} />
              ) : (
                <p className="text-2xl font-bold" data-testid={`tile-${tile.label.toLowerCase().replace(/\s+/g, '-')}`}>
                  {tile.value}
                </p>
              )}
              <p className="mt-1 text-xs text-muted-foreground">{tile.hint}</p>
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
  disabled,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  allLabel: string;
  options: readonly string[];
  disabled?: boolean;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select value={value} onValueChange={onChange} disabled={disabled}>
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

/** The filters, sort and page live in the address, so a reload, Back or a shared link shows the same list. */
export default function OverdueFollowupsPage() {
  const summary = useWorklistSummary();
  const view = useUrlState(DEFAULT_VIEW);
  const { priority, provider } = view.values;
  const paging = useUrlPaging();
  const [exporting, setExporting] = useState(false);

  // An address naming no known priority lists every priority rather than failing.
  const chosenPriority = followUpPrioritySchema.safeParse(priority);
  const filter: WorklistFilterInput = {
    priority: chosenPriority.success ? chosenPriority.data : undefined,
    provider: provider === ALL ? undefined : provider,
  };
  const sort = isSortKey(view.values.sort) ? view.values.sort : DEFAULT_VIEW.sort;
  const dir = view.values.dir === 'desc' ? 'desc' : 'asc';
  const sorting = sortingOf(sort, dir);
  const query = { ...filter, sort, dir, limit: PAGE_SIZE } as const;
  const worklist = useOverdueFollowUps({ ...query, cursor: paging.cursor });
  const page = worklist.data;
  paging.track(page?.total);
  // A shared link to a later page carries no total: the first page (counted) gives it.
  const firstPage = useOverdueFollowUps(query, paging.needsTotal);
  paging.track(firstPage.data?.total);

  const exportCsv = async () => {
    setExporting(true);
    try {
      // The server records the export before it hands out the rows: no entry, no download.
      const rows = await fetchWorklistExport(filter);
      downloadCsv(WORKLIST_CSV_FILE, toCsv(rows, WORKLIST_CSV_COLUMNS));
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

  const failed = worklist.isError || summary.isError;
  return (
    <section aria-busy={worklist.isPending || summary.isPending}>
      <PageHeader
        title={TITLE}
        subtitle={SUBTITLE}
        actions={
          <Button variant="outline" onClick={() => void exportCsv()} disabled={exporting || !page}>
            <Download className="size-4" aria-hidden="true" /> {exporting ? 'Exporting…' : 'Export'}
          </Button>
        }
      />

      <Tiles summary={summary.data} />

      <div className="mb-4 flex flex-wrap items-end gap-4">
        <FilterSelect
          id="worklist-priority"
          label="Priority"
          value={filter.priority ?? ALL}
          onChange={(value) => view.set({ priority: value })}
          allLabel="All priorities"
          options={FOLLOW_UP_PRIORITIES}
          disabled={!summary.data}
        />
        <FilterSelect
          id="worklist-provider"
          label="Provider"
          value={provider}
          onChange={(value) => view.set({ provider: value })}
          allLabel="All providers"
          options={summary.data?.providers ?? []}
          disabled={!summary.data}
        />
      </div>

      {failed ? (
        <Card role="alert" className="p-6">
          <p className="mb-3">The worklist could not be loaded.</p>
          <Button
            variant="outline"
            onClick={() => {
              if (summary.isError) void summary.refetch();
              if (worklist.isError) void worklist.refetch();
            }}
          >
            Try again
          </Button>
        </Card>
      ) : (
        <DataTable
          label="Overdue follow-ups"
          columns={columns}
          data={page?.items ?? []}
          getRowId={(r) => String(r.encounterId)}
          loading={worklist.isFetching}
          emptyMessage="No overdue follow-ups found"
          server={paging.tableProps(page, PAGE_SIZE, sorting, ([next]) =>
            view.set({ sort: next?.id, dir: next?.desc ? 'desc' : 'asc' }),
          )}
          footer={(shown, total) =>
            page ? `Showing ${shown} of ${total} overdue follow-ups` : 'Loading overdue follow-ups…'
          }
        />
      )}
    </section>
  );
}
