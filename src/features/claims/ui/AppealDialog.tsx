import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { zodResolver } from '@hookform/resolvers/zod';
import { formatDollars } from '@/shared/api';
import { formatDate } from '@/shared/dates';
import { Button } from '@/client/components/ui/button';
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
import { toast } from '@/client/components/ui/toast';
import { showFieldErrors } from '@/client/lib/form-errors';
import { ApiError } from '@/client/lib/api-client';
import { cn } from '@/client/lib/cn';
import { APPEAL_LEVELS, APPEAL_LEVEL_LABELS, newAppealSchema, type ClaimRow } from '../claims.schema';
import { nativeSelectClass } from './ClaimHistoryDialog';
import { useAppealClaim } from './claims.api';

type AppealInput = z.input<typeof newAppealSchema>;
type Appeal = z.output<typeof newAppealSchema>;

/** What the appeal dialog says of the claim: a row of the Claims list, or the claim's own view. */
export type AppealedClaim = Pick<
  ClaimRow,
  'id' | 'accountNumber' | 'patient' | 'procedure' | 'serviceDate' | 'billedCents' | 'payer' | 'status' | 'reason'
>;

/** An appeal of a denied (or partially paid) claim, with a reason and a note; audited. */
export function AppealDialog({ claim, onClose }: { claim: AppealedClaim | null; onClose: () => void }) {
  const appeal = useAppealClaim();
  const form = useForm<AppealInput, unknown, Appeal>({
    resolver: zodResolver(newAppealSchema),
    defaultValues: { reason: '', note: '', level: 'first', deadline: '' },
  });
  const { errors } = form.formState;
  const close = () => {
    form.reset();
    appeal.reset();
    onClose();
  };

  const submit = form.handleSubmit((values) => {
    if (!claim) return;
    appeal.mutate(
      { id: claim.id, ...values },
      {
        onSuccess: (updated) => {
          toast({
            title: 'Appeal recorded',
            description: `Claim ${updated.accountNumber} for ${updated.patient} is now ${updated.status}.`,
          });
          close();
        },
        onError: (error) => {
          showFieldErrors(form.setError, error, ['reason', 'note', 'level', 'deadline']);
          const stale = error instanceof ApiError && error.status === 409;
          toast({
            title: stale ? 'Claim cannot be appealed' : 'Error',
            description: stale
              ? `This claim ${error.fields[0]?.message ?? 'is no longer denied'}.`
              : 'Failed to record the appeal. Please try again.',
            variant: 'destructive',
          });
          if (stale) close();
        },
      },
    );
  });

  return (
    <Dialog open={claim !== null} onOpenChange={(open) => !open && !appeal.isPending && close()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Appeal claim</DialogTitle>
          <DialogDescription>
            {claim &&
              `${claim.accountNumber}: ${claim.patient}, ${claim.procedure} on ${formatDate(claim.serviceDate)}, billed ` +
                `${formatDollars(claim.billedCents)} to ${claim.payer}; ${claim.status}` +
                (claim.reason ? ` (${claim.reason})` : '') +
                '. The appeal is recorded in the audit log and the claim becomes Appealed.'}
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
          <div className="grid grid-cols-2 gap-4">
            <FormField id="appeal-level" label="Level" error={errors.level?.message}>
              {(control) => (
                <select {...control} className={nativeSelectClass} {...form.register('level')}>
                  {APPEAL_LEVELS.map((level) => (
                    <option key={level} value={level}>
                      {APPEAL_LEVEL_LABELS[level]}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
            <FormField
              id="appeal-deadline"
              label="Deadline"
              error={errors.deadline?.message}
              hint="Optional: the payer's last day"
            >
              {(control) => <Input {...control} type="date" {...form.register('deadline')} />}
            </FormField>
          </div>
          <FormField id="appeal-reason" label="Reason" error={errors.reason?.message} hint="At most 200 characters">
            {(control) => <Input {...control} autoComplete="off" maxLength={200} {...form.register('reason')} />}
          </FormField>
          <FormField
            id="appeal-note"
            label="Note"
            error={errors.note?.message}
            hint="Optional: what was corrected or attached (at most 2000 characters)"
          >
            {(control) => (
              <textarea
                {...control}
                rows={4}
                maxLength={2000}
                className={cn(
                  'w-full rounded-md border border-border bg-background px-3 py-2 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none aria-[invalid=true]:border-destructive',
                )}
                {...form.register('note')}
              />
            )}
          </FormField>
          <DialogFooter>
            <Button variant="outline" onClick={close} disabled={appeal.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={appeal.isPending}>
              {appeal.isPending ? 'Submitting…' : 'Submit appeal'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
