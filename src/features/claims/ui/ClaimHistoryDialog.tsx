import { useState } from 'react';
import { format } from 'date-fns';
import { dollarsToCents, formatDollars } from '@/shared/api';
import { Button } from '@/client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/client/components/ui/dialog';
import { FormField } from '@/client/components/ui/form-field';
import { Input } from '@/client/components/ui/input';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import {
  APPEAL_LEVEL_LABELS,
  APPEAL_OUTCOMES,
  APPEAL_OUTCOME_LABELS,
  type AppealOutcome,
  type ClaimAppeal,
  type ClaimRow,
} from '../claims.schema';
import { useClaimAppeals, useRecordAppealOutcome } from './claims.api';
import { formatDate } from '@/shared/dates';

/** The one date formatter (src/shared/dates.ts). */
const day = formatDate;
const moment = (iso: string) => format(new Date(iso), 'MMM d, yyyy h:mm a');

export const nativeSelectClass =
  'h-9 w-full rounded-md border border-border bg-background px-3 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

/** The payer's answer to an open appeal: outcome and the amount it pays (none for a lost appeal). */
function OutcomeForm({ claim, appeal }: { claim: ClaimRow; appeal: ClaimAppeal }) {
  const record = useRecordAppealOutcome();
  const [outcome, setOutcome] = useState<AppealOutcome>('won');
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = () => {
    const cents = outcome === 'lost' ? 0 : dollarsToCents(amount);
    if (cents === null || (outcome !== 'lost' && cents === 0)) {
      setError('must be an amount in dollars such as 149.00, more than 0.00');
      return;
    }
    setError(undefined);
    record.mutate(
      { claimId: claim.id, appealId: appeal.id, outcome, amountCents: cents },
      {
        onSuccess: (updated) =>
          toast({
            title: 'Appeal outcome recorded',
            description: `Claim ${updated.accountNumber} is now ${updated.status}.`,
          }),
        onError: (err) => {
          const message = err instanceof ApiError ? err.fields[0]?.message : undefined;
          if (message) setError(message);
          toast({
            title: 'Error',
            description: message ? `The outcome ${message}.` : 'Failed to record the outcome. Please try again.',
            variant: 'destructive',
          });
        },
      },
    );
  };
  const id = `appeal-${appeal.id}`;
  return (
    <form
      noValidate
      className="mt-2 flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="grid w-36 gap-1.5">
        <label htmlFor={`${id}-outcome`} className="text-sm font-medium">
          Outcome
        </label>
        <select
          id={`${id}-outcome`}
          className={nativeSelectClass}
          value={outcome}
          onChange={(event) => setOutcome(event.target.value as AppealOutcome)}
        >
          {APPEAL_OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {APPEAL_OUTCOME_LABELS[o]}
            </option>
          ))}
        </select>
      </div>
      {outcome !== 'lost' && (
        <div className="w-40">
          <FormField id={`${id}-amount`} label="Amount paid" error={error}>
            {(control) => (
              <Input
                {...control}
                inputMode="decimal"
                placeholder="149.00"
                value={amount}
                onChange={(event) => setAmount(event.target.value)}
              />
            )}
          </FormField>
        </div>
      )}
      <Button type="submit" size="sm" disabled={record.isPending}>
        {record.isPending ? 'Recording…' : 'Record outcome'}
      </Button>
    </form>
  );
}

/** A claim's history: its appeals with level, deadline, reason and how each ended. */
export function ClaimHistoryDialog({
  claim,
  canWrite,
  onClose,
}: {
  claim: ClaimRow | null;
  canWrite: boolean;
  onClose: () => void;
}) {
  const appeals = useClaimAppeals(claim?.id ?? null);
  return (
    <Dialog open={claim !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Claim history</DialogTitle>
          <DialogDescription>
            {claim &&
              `${claim.accountNumber}: ${claim.patient}, ${claim.procedure} on ${day(claim.serviceDate)}, billed ` +
                `${formatDollars(claim.billedCents)} to ${claim.payer}; ${claim.status}.`}
          </DialogDescription>
        </DialogHeader>
        {appeals.isPending ? (
          <p>Loading appeals…</p>
        ) : appeals.isError ? (
          <p role="alert">The appeals could not be loaded.</p>
        ) : appeals.data.length === 0 ? (
          <p className="text-muted-foreground">No appeals recorded for this claim.</p>
        ) : (
          <ol className="grid gap-3" aria-label="Appeals">
            {appeals.data.map((appeal) => (
              <li key={appeal.id} className="rounded-md border border-border p-3 text-sm">
                <p className="font-medium">
                  {APPEAL_LEVEL_LABELS[appeal.level]} appeal, filed {moment(appeal.filedAt)}
                  {appeal.filedBy ? ` by ${appeal.filedBy}` : ''}
                </p>
                <p>Reason: {appeal.reason}</p>
                {appeal.note && <p className="text-muted-foreground">Note: {appeal.note}</p>}
                <p>Deadline: {appeal.deadline ? day(appeal.deadline) : 'none recorded'}</p>
                <p>
                  Outcome:{' '}
                  {appeal.outcome
                    ? `${APPEAL_OUTCOME_LABELS[appeal.outcome]}, ${formatDollars(appeal.outcomeAmountCents ?? 0)}` +
                      (appeal.decidedOn ? ` on ${day(appeal.decidedOn)}` : '')
                    : 'awaiting the payer'}
                </p>
                {canWrite && claim && appeal.outcome === null && claim.status === 'Appealed' && (
                  <OutcomeForm claim={claim} appeal={appeal} />
                )}
              </li>
            ))}
          </ol>
        )}
      </DialogContent>
    </Dialog>
  );
}
