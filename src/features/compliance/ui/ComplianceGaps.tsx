import type { ColumnDef } from '@tanstack/react-table';
import { formatDate } from '@/shared/dates';
import { DataTable } from '@/client/components/data-table/DataTable';
import { Badge } from '@/client/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { Skeleton } from '@/client/components/ui/skeleton';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { GAP_STATUSES, SCORE_FORMULA, gapStatusSchema, type ComplianceGap, type Score } from '../compliance.schema';
import { useComplianceGaps, useUpdateGapStatus } from './compliance.api';

const SEVERITY_BADGE = { High: 'destructive', Medium: 'secondary', Low: 'outline' } as const;

function ScoreTile({ label, score }: { label: string; score: Score }) {
  return (
    <div className="rounded-md border p-4">
      <p className="text-sm text-muted-foreground">{label}</p>
      <p className="text-3xl font-bold">{Math.round(score.percent)}%</p>
      <p className="text-xs text-muted-foreground">
        {score.earned} of {score.possible} controls
      </p>
    </div>
  );
}

function GapStatusSelect({ gap }: { gap: ComplianceGap }) {
  const update = useUpdateGapStatus();
  return (
    <Select
      value={gap.status}
      disabled={update.isPending}
      onValueChange={(value) =>
        update.mutate(
          { id: gap.id, status: gapStatusSchema.parse(value) },
          {
            onSuccess: () => toast({ title: 'Gap updated', description: `${gap.title}: ${value}` }),
            onError: (error) =>
              toast({
                title: 'Error',
                description:
                  error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Failed to update the gap',
                variant: 'destructive',
              }),
          },
        )
      }
    >
      <SelectTrigger className="w-36" aria-label={`Status of ${gap.title}`}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {GAP_STATUSES.map((s) => (
          <SelectItem key={s} value={s}>
            {s}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

const COLUMNS: ColumnDef<ComplianceGap>[] = [
  { accessorKey: 'title', header: 'Gap', meta: { className: 'whitespace-normal min-w-64' } },
  { accessorKey: 'safeguard', header: 'Safeguard' },
  {
    accessorKey: 'severity',
    header: 'Severity',
    cell: ({ row }) => <Badge variant={SEVERITY_BADGE[row.original.severity]}>{row.original.severity}</Badge>,
  },
  { accessorKey: 'owner', header: 'Owner' },
  {
    accessorKey: 'dueDate',
    header: 'Due date',
    meta: { className: 'whitespace-nowrap' },
    cell: ({ row }) => formatDate(row.original.dueDate),
  },
  { accessorKey: 'status', header: 'Status', cell: ({ row }) => <GapStatusSelect gap={row.original} /> },
];

export function ComplianceGaps() {
  const gaps = useComplianceGaps(true);
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Compliance gaps</CardTitle>
        <CardDescription>{SCORE_FORMULA}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {gaps.isLoading ? (
          <div className="grid gap-4 sm:grid-cols-2" aria-busy="true" aria-label="Loading compliance scores">
            <Skeleton className="h-24" />
            <Skeleton className="h-24" />
          </div>
        ) : gaps.isError || !gaps.data ? (
          <p role="alert">The compliance gaps could not be loaded.</p>
        ) : (
          <>
            <div className="grid gap-4 sm:grid-cols-2" aria-label="Compliance scores" role="group">
              <ScoreTile label="Overall compliance score" score={gaps.data.scores.overall} />
              <ScoreTile label="Technical safeguards" score={gaps.data.scores.technical} />
            </div>
            <DataTable
              label="Compliance gaps"
              columns={COLUMNS}
              data={gaps.data.gaps}
              getRowId={(g) => String(g.id)}
              emptyMessage="No compliance gaps recorded"
            />
          </>
        )}
      </CardContent>
    </Card>
  );
}
