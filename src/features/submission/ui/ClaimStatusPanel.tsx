import { Search } from 'lucide-react';
import { Button } from '@/client/components/ui/button';
import { Skeleton } from '@/client/components/ui/skeleton';
import { toast } from '@/client/components/ui/toast';
import { errorTextFor } from '@/client/lib/error-text';
import { momentText } from '@/client/lib/moment-text';
import { useAskClaimStatus, useClaimStatus } from './submission.api';

/**
 * The claim view's "Payer status" section: the payer's latest answer to a claim status request (277), in words,
 * and "Ask payer for status" for a claim sent and not yet decided.
 */
export function ClaimStatusPanel({ claimId }: { claimId: number }) {
  const status = useClaimStatus(claimId);
  const ask = useAskClaimStatus();
  const latest = status.data?.latest ?? null;
  const askNow = () =>
    ask.mutate([claimId], {
      onSuccess: () =>
        toast({ title: 'Status requested', description: 'A 276 asking the payer about this claim is ready to send.' }),
      onError: (error) =>
        toast({ title: 'Status not requested', description: errorTextFor(error), variant: 'destructive' }),
    });
  return (
    <section aria-labelledby="claim-view-payer-status" className="grid gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="claim-view-payer-status" className="font-semibold">
          Payer status
        </h3>
        {status.data?.askable && (
          <Button variant="outline" size="sm" onClick={askNow} disabled={ask.isPending}>
            <Search className="size-4" aria-hidden="true" /> {ask.isPending ? 'Asking…' : 'Ask payer for status'}
          </Button>
        )}
      </div>
      {status.isError ? (
        <div role="alert" className="grid justify-items-start gap-2 text-sm">
          <p>The payer status could not be loaded. {errorTextFor(status.error)}</p>
          <Button variant="outline" size="sm" onClick={() => void status.refetch()}>
            Try again
          </Button>
        </div>
      ) : status.isPending ? (
        <Skeleton className="h-10 w-full" aria-label="Loading the payer status" />
      ) : latest === null ? (
        <p className="text-sm text-muted-foreground">The payer has not been asked about this claim.</p>
      ) : latest.answeredAt === null ? (
        <p className="text-sm">Asked {momentText(latest.askedAt)}; no answer yet.</p>
      ) : (
        <div className="grid gap-1 text-sm">
          <p>
            <span className="font-medium">{latest.message}</span>
            {latest.needsAction && <span className="text-destructive"> · needs action (in the work queue)</span>}
          </p>
          <p className="text-muted-foreground">
            Answered {momentText(latest.answeredAt)}
            {latest.effectiveOn ? `, in effect from ${latest.effectiveOn}` : ''}; asked {momentText(latest.askedAt)}.
          </p>
        </div>
      )}
    </section>
  );
}
