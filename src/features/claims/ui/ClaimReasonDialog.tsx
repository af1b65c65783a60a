import { useState, type ReactNode } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
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
import type { ClaimRow } from '../claims.schema';

/** What a claim action that asks for a reason (void, write-off) says at each step. */
export interface ClaimReasonTexts {
  title: string;
  description: ReactNode;
  placeholder: string;
  submit: string;
  pending: string;
  done: (updated: ClaimRow) => { title: string; description: string };
  /** The toast's title when the server refuses the claim's status (409); its message follows "This claim". */
  refused: string;
  /** The toast's text for any other failure. */
  failed: string;
}

/**
 * A claim action taken with a reason: the reason checked as the server checks it (`reasonOf`), sent, the server's
 * answer under the field or as a toast. Mounted while open.
 */
export function ClaimReasonDialog({
  claimId,
  fieldId,
  texts,
  reasonOf,
  action,
  onClose,
}: {
  claimId: number;
  fieldId: string;
  texts: ClaimReasonTexts;
  reasonOf: (reason: string) => { ok: true; reason: string } | { ok: false; message: string | undefined };
  action: UseMutationResult<ClaimRow, Error, { id: number; reason: string }>;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();

  const submit = () => {
    const checked = reasonOf(reason);
    if (!checked.ok) return setError(checked.message);
    action.mutate(
      { id: claimId, reason: checked.reason },
      {
        onSuccess: (updated) => {
          toast(texts.done(updated));
          onClose();
        },
        onError: (failure) => {
          const field = failure instanceof ApiError ? failure.fields.find((f) => f.field === 'reason') : undefined;
          if (field) return setError(field.message);
          const refused = failure instanceof ApiError && failure.status === 409;
          toast({
            title: refused ? texts.refused : 'Error',
            description: refused ? `This claim ${failure.fields[0]?.message ?? 'cannot be changed'}.` : texts.failed,
            variant: 'destructive',
          });
          if (refused) onClose();
        },
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !action.isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{texts.title}</DialogTitle>
          <DialogDescription>{texts.description}</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <FormField id={fieldId} label="Reason" error={error}>
            {(control) => (
              <Input
                {...control}
                autoComplete="off"
                placeholder={texts.placeholder}
                value={reason}
                onChange={(e) => {
                  setReason(e.target.value);
                  setError(undefined);
                }}
              />
            )}
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={action.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={action.isPending}>
              {action.isPending ? texts.pending : texts.submit}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
