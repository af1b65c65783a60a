import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '@/client/components/data-table/DataTable';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Label } from '@/client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { ApiError } from '@/client/lib/api-client';
import { momentText } from '@/client/lib/moment-text';
import { countOf } from '@/shared/plural';
import {
  MAILBOX_FILE_STATUSES,
  MAILBOX_STATUS_LABELS,
  type MailboxDirection,
  type MailboxFile,
  type MailboxFileStatus,
} from '../clearinghouse.schema';
import { useMailboxFiles } from './clearinghouse.api';

function failure(error: unknown): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Please try again.';
}

const ALL = 'all';

/**
 * The mailbox's log (docs/clearinghouse.md): every file sent or received, what it posted or why it was refused.
 * Under Settings → Clearinghouse for admins, and under the Claims screen's Batches view for billing staff, who act
 * on what was refused.
 */
export function MailboxLog() {
  const [direction, setDirection] = useState<MailboxDirection | undefined>(undefined);
  const [status, setStatus] = useState<MailboxFileStatus | undefined>(undefined);
  // The cursors of the pages before this one: Newer goes back one.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const files = useMailboxFiles({ direction, status, cursor });

  const columns: ColumnDef<MailboxFile>[] = [
    {
      id: 'when',
      header: 'When',
      accessorFn: (f) => f.updatedAt,
      cell: ({ row }) => momentText(row.original.updatedAt),
    },
    {
      id: 'direction',
      header: 'Direction',
      accessorFn: (f) => (f.direction === 'out' ? 'Sent to the clearinghouse' : 'From the clearinghouse'),
    },
    {
      accessorKey: 'remoteName',
      header: 'File',
      cell: ({ row }) => <span className="font-mono text-xs">{row.original.remoteName}</span>,
    },
    { accessorKey: 'kind', header: 'Kind' },
    { id: 'status', header: 'Status', accessorFn: (f) => MAILBOX_STATUS_LABELS[f.status] },
    { accessorKey: 'detail', header: 'Detail' },
    { id: 'bytes', header: 'Size', accessorFn: (f) => countOf(f.bytes, 'byte'), meta: { align: 'right' } },
  ];
  const reset = () => setCursors([]);

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Mailbox log</CardTitle>
        <CardDescription>
          Every file sent or received, newest first: what it posted, or why it was refused. A failed file is tried again
          on the next run; a file seen before is never posted twice.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div className="flex flex-wrap gap-3">
          <div className="grid gap-1">
            <Label htmlFor="mailbox-log-direction">Direction</Label>
            <Select
              value={direction ?? ALL}
              onValueChange={(value) => {
                setDirection(value === ALL ? undefined : (value as MailboxDirection));
                reset();
              }}
            >
              <SelectTrigger id="mailbox-log-direction" className="w-56">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ALL}>Both directions</SelectItem>
                <SelectItem value="out">Sent to the clearinghouse</SelectItem>
                <SelectItem value="in">From the clearinghouse</SelectItem>
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-1">
            <Label htmlFor="mailbox-log-status">Status</Label>
            <Select
              value={status ?? ALL}
              onValueChange={(value) => {
                setStatus(value === ALL ? undefined : (value as MailboxFileStatus));
                reset();
              }}
            >
              <SelectTrigger id="mailbox-log-status" className="w-48">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ALL}>Any status</SelectItem>
                {MAILBOX_FILE_STATUSES.map((s) => (
                  <SelectItem key={s} value={s}>
                    {MAILBOX_STATUS_LABELS[s]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        </div>
        {files.isError ? (
          <p role="alert" className="text-sm text-destructive">
            The mailbox log could not be loaded. {failure(files.error)}
          </p>
        ) : (
          <DataTable
            label="Mailbox log"
            columns={columns}
            data={files.data?.items ?? []}
            getRowId={(f) => String(f.id)}
            loading={files.isLoading}
            emptyMessage="No files have been sent or received yet."
            footer={() =>
              files.data ? `${countOf(files.data.total ?? files.data.items.length, 'file')} in the log` : ''
            }
          />
        )}
        <div className="flex gap-2">
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={cursors.length === 0}
            onClick={() => setCursors(cursors.slice(0, -1))}
          >
            Newer
          </Button>
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={!files.data?.nextCursor}
            onClick={() => files.data?.nextCursor && setCursors([...cursors, files.data.nextCursor])}
          >
            Older
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
