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
import { voidClaimSchema, type ClaimRow } from '../claims.schema';
import { useVoidClaim } from './claims.api';
import { formatDate } from '@/shared/dates';

/**
 * Voids a claim entered by mistake (a bad import) after the user gives a reason: it stays listed as Voided
 * and in the audit trail, and no KPI or total counts it any more. Mounted while open.
 */
export function VoidClaimDialog({ claim, onClose }: { claim: ClaimRow; onClose: () => void }) {
  const voidClaim = useVoidClaim();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();

  const submit = () => {
    const checked = voidClaimSchema.safeParse({ reason });
    if (!checked.success) return setError(checked.error.issues[0]?.message);
    voidClaim.mutate(
      { id: claim.id, ...checked.data },
      {
        onSuccess: (updated) => {
          toast({
            title: 'Claim voided',
            description: `Claim ${updated.accountNumber} no longer counts in the KPIs and totals.`,
          });
          onClose();
        },
        onError: (failure) => {
          const field = failure instanceof ApiError ? failure.fields.find((f) => f.field === 'reason') : undefined;
          if (field) return setError(field.message);
          const refused = failure instanceof ApiError && failure.status === 409;
          toast({
            title: refused ? 'Claim cannot be voided' : 'Error',
            description: refused
              ? `This claim ${failure.fields[0]?.message ?? 'cannot be voided'}.`
              : 'Failed to void the claim. Please try again.',
            variant: 'destructive',
          });
          if (refused) onClose();
        },
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !voidClaim.isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Void claim {claim.accountNumber}?</DialogTitle>
          <DialogDescription>
            {`${claim.patient}, ${claim.procedure} on ${formatDate(claim.serviceDate)}, billed ${formatDollars(claim.billedCents)} to ${claim.payer}. `}
            A voided claim stays in the list as Voided and in the audit trail, and no KPI or total counts it.
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
          <FormField id="void-reason" label="Reason" error={error}>
            {(control) => (
              <Input
                {...control}
                autoComplete="off"
                placeholder="e.g. wrong service date in the imported file"
                value={reason}
                onChange={(e) => {
                  setReason(e.target.value);
                  setError(undefined);
                }}
              />
            )}
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={voidClaim.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={voidClaim.isPending}>
              {voidClaim.isPending ? 'Voiding…' : 'Void claim'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
