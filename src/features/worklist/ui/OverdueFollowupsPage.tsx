import { useMemo, useState } from 'react';
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
import { FOLLOW_UP_PRIORITIES, followUpPrioritySchema, type OverdueFollowUp } from '../worklist.schema';
import { recordWorklistExport, useOverdueFollowUps } from './worklist.api';
import {
  WORKLIST_CSV_COLUMNS,
  WORKLIST_CSV_FILE,
  filterWorklist,
  formatEncounterDate,
  providerNames,
  summarise,
  type WorklistFilter,
} from './worklist.view';

const TITLE = 'Overdue Follow-ups';
const SUBTITLE = 'Patients whose follow-up is overdue with no later visit booked';
const ALL = 'all';

/** SPEC 2.17: High red, Medium amber, Low blue, anything else grey. */
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

const PRIORITY_RANK: Record<string, number> = { High: 0, Medium: 1, Low: 2 };

const columns: ColumnDef<OverdueFollowUp>[] = [
  {
    id: 'priority',
    header: 'Priority',
    // Sorting follows urgency, not the alphabet.
    accessorFn: (r) => PRIORITY_RANK[r.priority] ?? 3,
    cell: ({ row }) => <Badge variant={priorityVariant(row.original.priority)}>{row.original.priority}</Badge>,
  },
  { id: 'patient', accessorKey: 'patientName', header: 'Patient', meta: { className: 'font-medium' } },
  { id: 'provider', accessorKey: 'providerName', header: 'Provider' },
  {
    id: 'encounterDate',
    accessorKey: 'encounterDate',
    header: () => <span className="whitespace-nowrap">Encounter Date</span>,
    cell: ({ row }) => <span className="whitespace-nowrap">{formatEncounterDate(row.original.encounterDate)}</span>,
  },
  { id: 'type', accessorKey: 'encounterType', header: 'Type' },
  { id: 'chiefComplaint', accessorKey: 'chiefComplaint', header: 'Chief Complaint' },
  { id: 'diagnosis', accessorFn: (r) => r.diagnosis.join(', '), header: 'Diagnosis' },
  {
    id: 'daysOverdue',
    accessorKey: 'daysOverdue',
    header: () => <span className="whitespace-nowrap">Days Overdue</span>,
    meta: { align: 'right', className: 'tabular-nums' },
  },
  { id: 'action', accessorKey: 'recommendedAction', header: 'Action' },
];

function Tiles({ rows }: { rows: readonly OverdueFollowUp[] | undefined }) {
  const summary = rows ? summarise(rows) : undefined;
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

export default function OverdueFollowupsPage() {
  const worklist = useOverdueFollowUps();
  const [priority, setPriority] = useState(ALL);
  const [provider, setProvider] = useState(ALL);
  const [exporting, setExporting] = useState(false);

  const rows = worklist.data;
  const providers = useMemo(() => providerNames(rows ?? []), [rows]);
  const filter: WorklistFilter = {
    priority: priority === ALL ? undefined : followUpPrioritySchema.parse(priority),
    provider: provider === ALL ? undefined : provider,
  };
  const shown = filterWorklist(rows ?? [], filter);

  const exportCsv = async () => {
    setExporting(true);
    try {
      // Audit first: an export that could not be recorded is not handed out.
      await recordWorklistExport({ rows: shown.length, ...filter });
      downloadCsv(WORKLIST_CSV_FILE, toCsv(shown, WORKLIST_CSV_COLUMNS));
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
    <section aria-busy={worklist.isPending}>
      <PageHeader
        title={TITLE}
        subtitle={SUBTITLE}
        actions={
          <Button variant="outline" onClick={() => void exportCsv()} disabled={exporting || !rows}>
            <Download className="size-4" aria-hidden="true" /> {exporting ? 'Exporting…' : 'Export'}
          </Button>
        }
      />

      <Tiles rows={rows} />

      <div className="mb-4 flex flex-wrap items-end gap-4">
        <FilterSelect
          id="worklist-priority"
          label="Priority"
          value={priority}
          onChange={setPriority}
          allLabel="All priorities"
          options={FOLLOW_UP_PRIORITIES}
          disabled={!rows}
        />
        <FilterSelect
          id="worklist-provider"
          label="Provider"
          value={provider}
          onChange={setProvider}
          allLabel="All providers"
          options={providers}
          disabled={!rows}
        />
      </div>

      {worklist.isError ? (
        <Card role="alert" className="p-6">
          <p className="mb-3">The worklist could not be loaded.</p>
          <Button variant="outline" onClick={() => void worklist.refetch()}>
            Try again
          </Button>
        </Card>
      ) : (
        <DataTable
          label="Overdue follow-ups"
          columns={columns}
          data={shown}
          getRowId={(r) => String(r.encounterId)}
          loading={worklist.isPending}
          emptyMessage="No overdue follow-ups found"
          footer={(count) =>
            rows ? `Showing ${count} of ${rows.length} overdue follow-ups` : 'Loading overdue follow-ups…'
          }
        />
      )}
    </section>
  );
}
