import { useState } from 'react';
import { formatDollars } from '@/shared/api';
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
import { ApiError } from '@/client/lib/api-client';
import { writeOffClaimSchema, type ClaimDetail } from '../claims.schema';
import { useWriteOffClaim } from './claims.api';

/**
 * Writes off the rest of a Denied or Partially Paid claim's balance after the user gives a reason: the claim
 * becomes Written Off, its open work-queue items are resolved, and the patient's own share stays due. Mounted
 * while open.
 */
export function WriteOffClaimDialog({ claim, onClose }: { claim: ClaimDetail; onClose: () => void }) {
  const writeOff = useWriteOffClaim();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();

  const submit = () => {
    const checked = writeOffClaimSchema.safeParse({ reason });
    if (!checked.success) return setError(checked.error.issues[0]?.message);
    writeOff.mutate(
      { id: claim.id, ...checked.data },
      {
        onSuccess: (updated) => {
          toast({
            title: 'Claim written off',
            description: `Claim ${updated.accountNumber} is Written Off.`,
          });
          onClose();
        },
        onError: (failure) => {
          const field = failure instanceof ApiError ? failure.fields.find((f) => f.field === 'reason') : undefined;
          if (field) return setError(field.message);
          const refused = failure instanceof ApiError && failure.status === 409;
          toast({
            title: refused ? 'Claim cannot be written off' : 'Error',
            description: refused
              ? `This claim ${failure.fields[0]?.message ?? 'cannot be written off'}.`
              : 'Failed to write off the claim. Please try again.',
            variant: 'destructive',
          });
          if (refused) onClose();
        },
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !writeOff.isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Write off claim {claim.accountNumber}?</DialogTitle>
          <DialogDescription>
            {`${formatDollars(claim.balanceCents)} is still owed on this claim. Written off, what ${claim.payer} did not pay is not pursued and counts as revenue lost; `}
            {`the patient's own share (${formatDollars(claim.patientResponsibilityCents)}) stays due.`}
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <FormField id="write-off-reason" label="Reason" error={error}>
            {(control) => (
              <Input
                {...control}
                autoComplete="off"
                placeholder="e.g. below the cost of an appeal"
                value={reason}
                onChange={(e) => {
                  setReason(e.target.value);
                  setError(undefined);
                }}
              />
            )}
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={writeOff.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={writeOff.isPending}>
              {writeOff.isPending ? 'Writing off…' : 'Write off'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
