import { useMemo, useState } from 'react';
import { formatDollars } from '@/shared/api';
import type { ColumnDef } from '@tanstack/react-table';
import { Download, Search, Send } from 'lucide-react';
import { countOf } from '@/shared/plural';
import { DataTable } from '@/client/components/data-table/DataTable';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/client/components/ui/dialog';
import { Skeleton } from '@/client/components/ui/skeleton';
import { toast } from '@/client/components/ui/toast';
import { errorTextFor } from '@/client/lib/error-text';
import type { ClaimBatch, ClaimBatchStatus, ClaimStatusRequest, ReadyPayer } from '../submission.schema';
import { momentText } from '@/client/lib/moment-text';
import {
  batchFileUrl,
  statusRequestFileUrl,
  useAskClaimStatus,
  useClaimBatchDetail,
  useClaimBatches,
  useClaimStatusRequests,
  useCreateClaimBatch,
  useReadyPayers,
} from './submission.api';
import { UploadAcknowledgementDialog } from './UploadAcknowledgementDialog';

const BATCH_STATUS_VARIANT: Record<ClaimBatchStatus, 'default' | 'secondary' | 'destructive' | 'warning'> = {
  Submitted: 'secondary',
  Accepted: 'default',
  'Partially Accepted': 'warning',
  Rejected: 'destructive',
};

/** The payers with Ready claims, each sent as one batch with a click. */
function ReadyToSend() {
  const ready = useReadyPayers();
  const create = useCreateClaimBatch();
  const [sending, setSending] = useState<string | null>(null);

  const send = (payer: ReadyPayer) => {
    setSending(payer.payer);
    create.mutate(
      { payer: payer.payer },
      {
        onSuccess: ({ batches }) => {
          const made = batches[0];
          toast({
            title: 'Batch created',
            description: made
              ? `Batch ${made.id}: ${countOf(made.claimCount, 'claim')} to ${made.payer}, ${formatDollars(made.totalCents)}. Download its 837 to send it.`
              : undefined,
          });
        },
        onError: (error) =>
          toast({ title: 'Batch not created', description: errorTextFor(error), variant: 'destructive' }),
        onSettled: () => setSending(null),
      },
    );
  };

  const items = ready.data?.items ?? [];
  return (
    <Card className="mb-6">
      <CardHeader>
        <CardTitle as="h2">Ready to send</CardTitle>
        <CardDescription>
          Scrubbed claims waiting for their payer. Creating a batch writes them into one X12 837P file and marks them
          Submitted: their timely-filing clock starts today.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {ready.isError ? (
          <div role="alert">
            <p className="mb-3">The claims ready to send could not be loaded.</p>
            <Button variant="outline" onClick={() => void ready.refetch()}>
              Try again
            </Button>
          </div>
        ) : ready.isPending ? (
          <Skeleton className="h-16 w-full" aria-label="Loading the claims ready to send" />
        ) : items.length === 0 ? (
          <p className="text-sm text-muted-foreground">No claims are Ready to send.</p>
        ) : (
          <table className="w-full text-sm">
            <caption className="sr-only">Claims ready to send, by payer</caption>
            <thead>
              <tr className="border-b border-border text-left text-muted-foreground">
                <th scope="col" className="px-2 py-1.5 font-medium">
                  Payer
                </th>
                <th scope="col" className="px-2 py-1.5 font-medium">
                  Payer ID
                </th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">
                  Claims
                </th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">
                  Total
                </th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((payer) => (
                <tr key={payer.payer} className="border-b border-border">
                  <th scope="row" className="px-2 py-1.5 text-left font-medium">
                    {payer.payer}
                  </th>
                  <td className="px-2 py-1.5 font-mono text-xs">
                    {payer.payerId ?? 'None: set it in Settings → Payers'}
                  </td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{payer.claims.toLocaleString('en-US')}</td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{formatDollars(payer.totalCents)}</td>
                  <td className="px-2 py-1.5 text-right">
                    <Button
                      size="sm"
                      disabled={payer.payerId === null || create.isPending}
                      aria-label={`Create batch for ${payer.payer}`}
                      onClick={() => send(payer)}
                    >
                      <Send className="size-4" aria-hidden="true" />
                      {sending === payer.payer ? 'Creating…' : 'Create batch'}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CardContent>
    </Card>
  );
}

/** What came back for the batch, in a few words. */
function answerOf(batch: ClaimBatch): string {
  const parts: string[] = [];
  if (batch.acknowledgementCode) parts.push(`999 ${batch.acknowledgementCode}`);
  if (batch.acceptedClaims > 0) parts.push(`${batch.acceptedClaims.toLocaleString('en-US')} accepted`);
  if (batch.rejectedClaims > 0) parts.push(`${batch.rejectedClaims.toLocaleString('en-US')} rejected`);
  return parts.length > 0 ? parts.join(', ') : 'Awaiting';
}

function BatchDialog({ batch, onClose }: { batch: ClaimBatch; onClose: () => void }) {
  const detail = useClaimBatchDetail(batch.id);
  const claims = detail.data?.claims;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-4xl">
        <DialogHeader>
          <DialogTitle>Batch {batch.id}</DialogTitle>
          <DialogDescription>
            {countOf(batch.claimCount, 'claim')} to {batch.payer} ({batch.payerId}), {formatDollars(batch.totalCents)},
            created {momentText(batch.createdAt)}; ISA13 {String(batch.interchangeControlNumber).padStart(9, '0')}, GS06{' '}
            {batch.groupControlNumber}; {batch.status}.
          </DialogDescription>
        </DialogHeader>
        {batch.errors.length > 0 && (
          <section aria-labelledby="batch-errors" className="grid gap-1">
            <h3 id="batch-errors" className="font-semibold">
              What the 999 reported
            </h3>
            <ul className="list-disc pl-6 text-sm" aria-label="999 errors">
              {batch.errors.map((e, i) => (
                <li key={i}>
                  <span className="font-mono text-xs">
                    {e.segment} {e.code}
                  </span>{' '}
                  {e.message}
                </li>
              ))}
            </ul>
          </section>
        )}
        {detail.isError ? (
          <p role="alert">The batch's claims could not be loaded. {errorTextFor(detail.error)}</p>
        ) : !claims ? (
          <Skeleton className="h-24 w-full" aria-label="Loading the batch's claims" />
        ) : (
          <div className="max-h-96 overflow-auto">
            <table className="w-full text-sm">
              <caption className="sr-only">Claims of batch {batch.id}</caption>
              <thead>
                <tr className="border-b border-border text-left text-muted-foreground">
                  <th scope="col" className="px-2 py-1.5 font-medium">
                    Account number
                  </th>
                  <th scope="col" className="px-2 py-1.5 font-medium">
                    Patient
                  </th>
                  <th scope="col" className="px-2 py-1.5 text-right font-medium">
                    Billed
                  </th>
                  <th scope="col" className="px-2 py-1.5 font-medium">
                    Status now
                  </th>
                  <th scope="col" className="px-2 py-1.5 font-medium">
                    Answer
                  </th>
                </tr>
              </thead>
              <tbody>
                {claims.map((c) => (
                  <tr key={c.claimId} className="border-b border-border align-top">
                    <th scope="row" className="px-2 py-1.5 text-left font-mono text-xs font-normal">
                      {c.accountNumber}
                    </th>
                    <td className="px-2 py-1.5">{c.patient}</td>
                    <td className="px-2 py-1.5 text-right tabular-nums">{formatDollars(c.billedCents)}</td>
                    <td className="px-2 py-1.5">{c.status}</td>
                    <td className="px-2 py-1.5">
                      {c.outcome ? `${c.outcome} (${c.answeredBy ?? ''})` : 'Awaiting'}
                      {c.message && <span className="block text-xs text-muted-foreground">{c.message}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * The claim status requests (276) sent to payers: each payer's claims it has had for its days (Settings → Payers)
 * without deciding, asked about with a click; their 277 answers are uploaded with the acknowledgements.
 */
function StatusRequests() {
  const requests = useClaimStatusRequests();
  const ask = useAskClaimStatus();
  const columns = useMemo<ColumnDef<ClaimStatusRequest>[]>(
    () => [
      { id: 'id', accessorKey: 'id', header: 'Request', meta: { className: 'tabular-nums' } },
      { id: 'payer', accessorKey: 'payer', header: 'Payer', meta: { className: 'whitespace-nowrap font-medium' } },
      {
        id: 'claimCount',
        accessorKey: 'claimCount',
        header: 'Claims',
        meta: { align: 'right', className: 'tabular-nums' },
        cell: ({ row }) => row.original.claimCount.toLocaleString('en-US'),
      },
      {
        id: 'answeredClaims',
        accessorKey: 'answeredClaims',
        header: 'Answered',
        meta: { align: 'right', className: 'tabular-nums' },
        cell: ({ row }) => row.original.answeredClaims.toLocaleString('en-US'),
      },
      {
        id: 'createdAt',
        accessorKey: 'createdAt',
        header: 'Created',
        meta: { className: 'whitespace-nowrap' },
        cell: ({ row }) => momentText(row.original.createdAt),
      },
      {
        id: 'mailedAt',
        accessorKey: 'mailedAt',
        header: 'Sent to the mailbox',
        cell: ({ row }) => (row.original.mailedAt ? momentText(row.original.mailedAt) : 'Not yet'),
      },
      {
        id: 'actions',
        header: 'Actions',
        enableSorting: false,
        meta: { align: 'right' },
        cell: ({ row }) => (
          <Button size="sm" variant="outline" asChild>
            <a
              href={statusRequestFileUrl(row.original.id)}
              download={row.original.fileName}
              aria-label={`Download the 276 of status request ${row.original.id}`}
            >
              <Download className="size-4" aria-hidden="true" /> 276
            </a>
          </Button>
        ),
      },
    ],
    [],
  );
  const askNow = () =>
    ask.mutate(undefined, {
      onSuccess: (result) =>
        toast({
          title: result.claims === 0 ? 'No claims to ask about' : 'Status requested',
          description:
            result.claims === 0
              ? "No sent claim has waited its payer's days without an answer."
              : `${countOf(result.claims, 'claim')} asked about in ${countOf(result.requestIds.length, 'request')}.`,
        }),
      onError: (error) =>
        toast({ title: 'Status not requested', description: errorTextFor(error), variant: 'destructive' }),
    });
  return (
    <Card className="mt-6">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle as="h2">Status requests</CardTitle>
          <CardDescription>
            Each request is one 276 file asking a payer where sent claims stand. Claims are due once their payer has had
            them for its days (Settings → Payers) without paying or denying them.
          </CardDescription>
        </div>
        <Button variant="outline" onClick={askNow} disabled={ask.isPending}>
          <Search className="size-4" aria-hidden="true" /> {ask.isPending ? 'Asking…' : 'Ask payers now'}
        </Button>
      </CardHeader>
      <CardContent>
        {requests.isError && !requests.data ? (
          <div role="alert">
            <p className="mb-3">The status requests could not be loaded.</p>
            <Button variant="outline" onClick={() => void requests.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <DataTable
            label="Status requests"
            columns={columns}
            data={requests.data?.items ?? []}
            getRowId={(r) => String(r.id)}
            loading={requests.isPending}
            emptyMessage="No status requests yet"
            footer={(shown) => `Showing ${countOf(shown, 'request')}`}
          />
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The Claims screen's Batches view: claims Ready to send by payer, the batches sent (payer, claim count, total,
 * created, status, the 837 to download) and the upload of the clearinghouse's 999 and 277CA files.
 */
export default function ClaimBatchesView() {
  const batches = useClaimBatches();
  const [viewing, setViewing] = useState<ClaimBatch | null>(null);
  const columns = useMemo<ColumnDef<ClaimBatch>[]>(
    () => [
      { id: 'id', accessorKey: 'id', header: 'Batch', meta: { className: 'tabular-nums' } },
      { id: 'payer', accessorKey: 'payer', header: 'Payer', meta: { className: 'whitespace-nowrap font-medium' } },
      {
        id: 'claimCount',
        accessorKey: 'claimCount',
        header: 'Claims',
        meta: { align: 'right', className: 'tabular-nums' },
        cell: ({ row }) => row.original.claimCount.toLocaleString('en-US'),
      },
      {
        id: 'totalCents',
        accessorKey: 'totalCents',
        header: 'Total',
        meta: { align: 'right', className: 'tabular-nums' },
        cell: ({ row }) => formatDollars(row.original.totalCents),
      },
      {
        id: 'createdAt',
        accessorKey: 'createdAt',
        header: 'Created',
        meta: { className: 'whitespace-nowrap' },
        cell: ({ row }) => momentText(row.original.createdAt),
      },
      {
        id: 'status',
        accessorKey: 'status',
        header: 'Status',
        cell: ({ row }) => (
          <Badge variant={BATCH_STATUS_VARIANT[row.original.status]} className="whitespace-nowrap">
            {row.original.status}
          </Badge>
        ),
      },
      {
        id: 'answer',
        header: 'Acknowledged',
        enableSorting: false,
        cell: ({ row }) => answerOf(row.original),
      },
      {
        id: 'actions',
        header: 'Actions',
        enableSorting: false,
        meta: { align: 'right' },
        cell: ({ row }) => (
          <div className="flex justify-end gap-2">
            <Button
              size="sm"
              variant="outline"
              aria-label={`View batch ${row.original.id}`}
              onClick={() => setViewing(row.original)}
            >
              View
            </Button>
            <Button size="sm" variant="outline" asChild>
              <a
                href={batchFileUrl(row.original.id)}
                download={row.original.fileName}
                aria-label={`Download the 837 of batch ${row.original.id}`}
              >
                <Download className="size-4" aria-hidden="true" /> 837
              </a>
            </Button>
          </div>
        ),
      },
    ],
    [],
  );
  return (
    <>
      <ReadyToSend />
      <Card>
        <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4">
          <div className="grid gap-1.5">
            <CardTitle as="h2">Batches</CardTitle>
            <CardDescription>
              Each batch is one 837P file to its payer. Upload the clearinghouse&apos;s 999 and 277CA files, and the
              payers&apos; 277 status answers, here.
            </CardDescription>
          </div>
          <UploadAcknowledgementDialog />
        </CardHeader>
        <CardContent>
          {batches.isError && !batches.data ? (
            <div role="alert">
              <p className="mb-3">The batches could not be loaded.</p>
              <Button variant="outline" onClick={() => void batches.refetch()}>
                Try again
              </Button>
            </div>
          ) : (
            <DataTable
              label="Batches"
              columns={columns}
              data={batches.data?.items ?? []}
              getRowId={(b) => String(b.id)}
              loading={batches.isPending}
              emptyMessage="No batches yet"
              footer={(shown) => `Showing ${countOf(shown, 'batch', 'batches')}`}
            />
          )}
        </CardContent>
      </Card>
      <StatusRequests />
      {viewing && <BatchDialog key={viewing.id} batch={viewing} onClose={() => setViewing(null)} />}
    </>
  );
}
