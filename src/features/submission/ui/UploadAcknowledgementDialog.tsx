import { useState, type FormEvent } from 'react';
import { Upload } from 'lucide-react';
import { Button } from '@/client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/client/components/ui/dialog';
import { FormField } from '@/client/components/ui/form-field';
import { Input } from '@/client/components/ui/input';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { ACKNOWLEDGEMENT_MAX_BYTES, isClaimStatusResponse } from '../submission.schema';
import { useApplyAcknowledgement, useApplyClaimStatusResponse } from './submission.api';

/**
 * Upload acknowledgement: a 999 or 277CA file as the clearinghouse sent it, or a payer's 277 claim status response
 * (005010X212, sent to its own route), applied whole or refused whole with the server's reason shown here.
 */
export function UploadAcknowledgementDialog() {
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const acknowledgement = useApplyAcknowledgement();
  const claimStatus = useApplyClaimStatusResponse();
  const pending = acknowledgement.isPending || claimStatus.isPending;

  const reset = () => {
    setFile(null);
    setFileError(undefined);
    acknowledgement.reset();
    claimStatus.reset();
  };

  const refusedWith = (error: unknown) =>
    setFileError(
      error instanceof ApiError && error.serverMessage
        ? error.serverMessage.replace(/^body: /, '')
        : 'could not be applied; try again',
    );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setFileError('is required: choose the 999, 277CA or 277 file');
    if (file.size > ACKNOWLEDGEMENT_MAX_BYTES) return setFileError('must be at most 10 MB');
    setFileError(undefined);
    const text = await file.text();
    if (isClaimStatusResponse(text)) {
      claimStatus.mutate(
        { text, fileName: file.name },
        {
          onSuccess: (result) => {
            toast({ title: 'Claim status applied', description: `277: ${result.summary}` });
            reset();
            setOpen(false);
          },
          onError: refusedWith,
        },
      );
      return;
    }
    acknowledgement.mutate(text, {
      onSuccess: (result) => {
        toast({ title: 'Acknowledgement applied', description: `${result.kind}: ${result.summary}` });
        reset();
        setOpen(false);
      },
      onError: refusedWith,
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (pending) return;
        if (!next) reset();
        setOpen(next);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline">
          <Upload className="size-4" aria-hidden="true" /> Upload acknowledgement
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Upload acknowledgement</DialogTitle>
          <DialogDescription>
            A 999 from the clearinghouse accepts or rejects a batch&apos;s file; a 277CA accepts each claim or rejects
            it back to Draft with its reason; a payer&apos;s 277 answers a claim status request. The whole file is
            applied, or nothing is.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
          <FormField id="acknowledgement-file" label="999, 277CA or 277 file" error={fileError}>
            {(control) => (
              <Input
                {...control}
                type="file"
                accept=".txt,.x12,.edi,.999,.277,text/plain"
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
                  setFileError(undefined);
                  acknowledgement.reset();
                  claimStatus.reset();
                }}
              />
            )}
          </FormField>
          <DialogFooter>
            <Button
              variant="outline"
              onClick={() => {
                reset();
                setOpen(false);
              }}
              disabled={pending}
            >
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? 'Applying…' : 'Apply'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
