import { useRef, useState } from 'react';
import { Download, Upload } from 'lucide-react';
import { formatDollars } from '@/shared/api';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import { Card } from '@/client/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/client/components/ui/dialog';
import { Skeleton } from '@/client/components/ui/skeleton';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { downloadCsv, toCsv } from '@/client/lib/csv';
import { countOf } from '@/shared/plural';
import { CLAIM_STATUS_CODE_LABELS, type RemittanceDetail, type RemittanceSummary } from '../remittances.schema';
import { fetchRemittanceExport, useRemittance, useRemittances, useUploadEra } from './remittances.api';

const BUCKET_LABELS: Record<string, string> = {
  paid: 'Paid',
  contractual: 'Contractual',
  patient: 'Patient responsibility',
  forwarded: 'Forwarded to next payer',
  other: 'Other adjustment',
};

const PATIENT_SHARE: Record<string, string> = { '1': 'deductible', '2': 'coinsurance', '3': 'copay' };

/** One row per ledger entry (and one per claim sent to the work queue), for the CSV download. */
function csvRows(detail: RemittanceDetail) {
  return detail.claims.flatMap((c) => {
    const base = {
      account: c.patientControlNumber,
      patient: c.patientName ?? '',
      status: `${c.statusCode} ${CLAIM_STATUS_CODE_LABELS[c.statusCode] ?? ''}`.trim(),
      outcome:
        c.outcome === 'posted' ? (c.reversal ? 'reversal posted' : 'posted') : `exception: ${c.exceptionReason ?? ''}`,
    };
    if (c.entries.length === 0) return [{ ...base, line: '', kind: '', code: '', bucket: '', amount: '' }];
    return c.entries.map((e) => ({
      ...base,
      line: e.lineControlNumber ?? '',
      kind: e.kind,
      code: e.groupCode ? `${e.groupCode}-${e.reasonCode}` : '',
      bucket: BUCKET_LABELS[e.bucket] ?? e.bucket,
      amount: (e.amountCents / 100).toFixed(2),
    }));
  });
}

const CSV_COLUMNS = [
  { header: 'Account', value: (r: ReturnType<typeof csvRows>[number]) => r.account },
  { header: 'Patient', value: (r: ReturnType<typeof csvRows>[number]) => r.patient },
  { header: 'Claim status (CLP02)', value: (r: ReturnType<typeof csvRows>[number]) => r.status },
  { header: 'Outcome', value: (r: ReturnType<typeof csvRows>[number]) => r.outcome },
  { header: 'Line control number', value: (r: ReturnType<typeof csvRows>[number]) => r.line },
  { header: 'Entry', value: (r: ReturnType<typeof csvRows>[number]) => r.kind },
  { header: 'Adjustment', value: (r: ReturnType<typeof csvRows>[number]) => r.code },
  { header: 'Counts as', value: (r: ReturnType<typeof csvRows>[number]) => r.bucket },
  { header: 'Amount', value: (r: ReturnType<typeof csvRows>[number]) => r.amount },
];

function RemittanceDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const detail = useRemittance(id);
  const [exporting, setExporting] = useState(false);
  const data = detail.data;
  const exportCsv = async () => {
    if (id === null) return;
    setExporting(true);
    try {
      const rows = await fetchRemittanceExport(id);
      downloadCsv(`remittance-${rows.remittance.traceNumber}.csv`, toCsv(csvRows(rows), CSV_COLUMNS));
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
    <Dialog open={id !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-4xl">
        <DialogHeader>
          <DialogTitle>
            {data ? `${data.remittance.payer} · trace ${data.remittance.traceNumber}` : 'Remittance'}
          </DialogTitle>
          <DialogDescription>
            {data
              ? `Payment ${formatDollars(data.remittance.paymentCents)}${data.remittance.paymentDate ? ` on ${data.remittance.paymentDate}` : ''}: ${countOf(data.remittance.claimsPosted, 'claim')} posted, ${data.remittance.claimsExceptions} sent to the work queue.${billedNextText(data.remittance.claimsBilledNext)}`
              : 'Loading the remittance…'}
          </DialogDescription>
        </DialogHeader>
        {!data ? (
          <Skeleton className="h-40 w-full" />
        ) : (
          <>
            <div>
              <Button variant="outline" onClick={() => void exportCsv()} disabled={exporting}>
                <Download className="size-4" aria-hidden="true" /> {exporting ? 'Exporting…' : 'Download CSV'}
              </Button>
            </div>
            <ul className="grid gap-3" aria-label="Claims in this remittance">
              {data.claims.map((c) => (
                <li key={c.seq} className="rounded-md border border-border p-3">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{c.patientControlNumber}</span>
                    {c.patientName && <span className="text-sm text-muted-foreground">{c.patientName}</span>}
                    <Badge variant={c.outcome === 'posted' ? 'secondary' : 'warning'}>
                      {c.outcome === 'posted' ? (c.reversal ? 'Reversal posted' : 'Posted') : 'In work queue'}
                    </Badge>
                    <span className="text-sm">
                      {CLAIM_STATUS_CODE_LABELS[c.statusCode] ?? `CLP02 ${c.statusCode}`} · billed{' '}
                      {formatDollars(c.chargeCents)} · paid {formatDollars(c.paidCents)}
                    </span>
                  </div>
                  {c.exceptionReason && <p className="mt-1 text-sm">{c.exceptionReason}</p>}
                  {c.entries.length > 0 && (
                    <table className="mt-2 w-full text-sm">
                      <thead>
                        <tr className="text-left text-muted-foreground">
                          <th className="py-1 font-medium">Line</th>
                          <th className="py-1 font-medium">Entry</th>
                          <th className="py-1 font-medium">Counts as</th>
                          <th className="py-1 text-right font-medium">Amount</th>
                        </tr>
                      </thead>
                      <tbody>
                        {c.entries.map((e, i) => (
                          <tr key={i}>
                            <td className="py-0.5">{e.procedureCode ?? 'Claim'}</td>
                            <td className="py-0.5">
                              {e.kind === 'payment'
                                ? 'Payment'
                                : e.kind === 'opening'
                                  ? 'Before first posting'
                                  : `${e.groupCode}-${e.reasonCode}${
                                      e.groupCode === 'PR' && e.reasonCode && PATIENT_SHARE[e.reasonCode]
                                        ? ` (${PATIENT_SHARE[e.reasonCode]})`
                                        : ''
                                    }`}
                            </td>
                            <td className="py-0.5">{BUCKET_LABELS[e.bucket]}</td>
                            <td className="py-0.5 text-right tabular-nums">{formatDollars(e.amountCents)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  )}
                </li>
              ))}
            </ul>
            {data.providerAdjustments.length > 0 && (
              <section aria-label="Provider adjustments">
                <h3 className="mb-1 font-medium">Provider adjustments (PLB)</h3>
                <ul className="text-sm">
                  {data.providerAdjustments.map((p, i) => (
                    <li key={i}>
                      {p.reason} {p.reference}: {formatDollars(p.amountCents)}
                      {p.amountCents > 0 ? ' withheld' : ' added'}
                    </li>
                  ))}
                </ul>
              </section>
            )}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** What an import did beyond posting: the claims it billed on to the patients' next policies, as Drafts. */
function billedNextText(claims: number): string {
  return claims > 0 ? ` ${countOf(claims, 'claim')} billed on to the patients' next policies, as Drafts to send.` : '';
}

/** What an upload did, in one toast: a file may hold several remittances, some of them imported before. */
export function importToast(remittances: readonly RemittanceSummary[]): { title: string; description: string } {
  const fresh = remittances.filter((r) => !r.duplicate);
  const before = remittances.filter((r) => r.duplicate);
  if (fresh.length === 0) {
    return {
      title: 'Already imported',
      description:
        before.length === 1
          ? `${before[0]!.payer} trace ${before[0]!.traceNumber} was imported before; nothing was posted again.`
          : `All ${before.length} remittances in the file were imported before; nothing was posted again.`,
    };
  }
  const posted = fresh.reduce((sum, r) => sum + r.claimsPosted, 0);
  const postedCents = fresh.reduce((sum, r) => sum + r.postedCents, 0);
  const exceptions = fresh.reduce((sum, r) => sum + r.claimsExceptions, 0);
  const billedNext = fresh.reduce((sum, r) => sum + r.claimsBilledNext, 0);
  const what = `${countOf(posted, 'claim')} posted (${formatDollars(postedCents)}), ${exceptions} sent to the work queue.${billedNextText(billedNext)}`;
  if (remittances.length === 1) return { title: 'Remittance imported', description: what };
  return {
    title: `${fresh.length} remittances imported`,
    description:
      what +
      (before.length > 0
        ? ` ${countOf(before.length, 'other')} imported before: ${before.map((r) => `${r.payer} trace ${r.traceNumber}`).join(', ')}; not posted again.`
        : ''),
  };
}

/** Imported 835 remittances: upload a file, see what each posted and what went to the work queue. */
export default function RemittancesPage() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const list = useRemittances(cursor);
  const upload = useUploadEra();
  const input = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState<number | null>(null);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      const { remittances } = await upload.mutateAsync(await file.text());
      setCursors([undefined]);
      toast(importToast(remittances));
    } catch (err) {
      toast({
        title: 'Import failed',
        description:
          err instanceof ApiError && err.serverMessage ? err.serverMessage.replace(/^file: /, '') : 'Please try again.',
        variant: 'destructive',
      });
    } finally {
      if (input.current) input.current.value = '';
    }
  };

  const page = list.data;
  return (
    <section aria-busy={list.isPending || upload.isPending}>
      <PageHeader
        title="Remittances"
        subtitle="Electronic remittance advice (X12 835) posted to claims"
        actions={
          <>
            <input
              ref={input}
              type="file"
              accept=".835,.edi,.x12,.txt,text/plain"
              className="hidden"
              aria-label="ERA file"
              data-testid="era-file"
              onChange={(e) => void onFile(e.target.files?.[0])}
            />
            <Button onClick={() => input.current?.click()} disabled={upload.isPending}>
              <Upload className="size-4" aria-hidden="true" /> {upload.isPending ? 'Importing…' : 'Upload ERA'}
            </Button>
          </>
        }
      />
      {list.isError ? (
        <Card role="alert" className="p-6">
          <p className="mb-3">The remittances could not be loaded.</p>
          <Button variant="outline" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </Card>
      ) : (
        <Card className="overflow-x-auto p-0">
          <table className="w-full text-sm" aria-label="Remittances">
            <thead>
              <tr className="border-b border-border text-left">
                <th className="p-3 font-medium">Payer</th>
                <th className="p-3 font-medium">Trace</th>
                <th className="p-3 font-medium">Payment date</th>
                <th className="p-3 text-right font-medium">Amount</th>
                <th className="p-3 text-right font-medium">Posted</th>
                <th className="p-3 text-right font-medium">Exceptions</th>
                <th className="p-3 font-medium">Imported</th>
              </tr>
            </thead>
            <tbody>
              {!page ? (
                <tr>
                  <td colSpan={7} className="p-3">
                    <Skeleton className="h-6 w-full" />
                  </td>
                </tr>
              ) : page.items.length === 0 ? (
                <tr>
                  <td colSpan={7} className="p-6 text-center text-muted-foreground">
                    No remittances imported yet
                  </td>
                </tr>
              ) : (
                page.items.map((r) => (
                  <tr key={r.remittanceId} className="border-b border-border last:border-0">
                    <td className="p-3">{r.payer}</td>
                    <td className="p-3">
                      <Button variant="link" className="h-auto p-0" onClick={() => setOpen(r.remittanceId)}>
                        {r.traceNumber}
                      </Button>
                    </td>
                    <td className="p-3 whitespace-nowrap">{r.paymentDate ?? '—'}</td>
                    <td className="p-3 text-right tabular-nums">{formatDollars(r.paymentCents)}</td>
                    <td className="p-3 text-right tabular-nums">
                      {r.claimsPosted} ({formatDollars(r.postedCents)})
                    </td>
                    <td className="p-3 text-right tabular-nums">{r.claimsExceptions}</td>
                    <td className="p-3 whitespace-nowrap">
                      {r.importedAt.slice(0, 10)}
                      {r.importedBy ? ` by ${r.importedBy}` : ''}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </Card>
      )}
      <div className="mt-3 flex items-center gap-2">
        <Button variant="outline" disabled={cursors.length === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous
        </Button>
        <Button
          variant="outline"
          disabled={!page?.nextCursor}
          onClick={() => page?.nextCursor && setCursors((c) => [...c, page.nextCursor ?? undefined])}
        >
          Next
        </Button>
        {page?.total !== null && page?.total !== undefined && (
          <span className="text-sm text-muted-foreground">{page.total} remittances</span>
        )}
      </div>
      <RemittanceDialog id={open} onClose={() => setOpen(null)} />
    </section>
  );
}
