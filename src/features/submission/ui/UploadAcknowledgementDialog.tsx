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
import { ACKNOWLEDGEMENT_MAX_BYTES } from '../submission.schema';
import { useApplyAcknowledgement } from './submission.api';

/**
 * Upload acknowledgement: a 999 or 277CA file as the clearinghouse sent it, applied whole or refused whole with
 * the server's reason shown here.
 */
export function UploadAcknowledgementDialog() {
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const apply = useApplyAcknowledgement();

  const reset = () => {
    setFile(null);
    setFileError(undefined);
    apply.reset();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setFileError('is required: choose the 999 or 277CA file');
    if (file.size > ACKNOWLEDGEMENT_MAX_BYTES) return setFileError('must be at most 10 MB');
    setFileError(undefined);
    const text = await file.text();
    apply.mutate(text, {
      onSuccess: (result) => {
        toast({ title: 'Acknowledgement applied', description: `${result.kind}: ${result.summary}` });
        reset();
        setOpen(false);
      },
      onError: (error) => {
        setFileError(
          error instanceof ApiError && error.serverMessage
            ? error.serverMessage.replace(/^body: /, '')
            : 'could not be applied; try again',
        );
      },
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (apply.isPending) return;
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
            it back to Draft with its reason. The whole file is applied, or nothing is.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
          <FormField id="acknowledgement-file" label="999 or 277CA file" error={fileError}>
            {(control) => (
              <Input
                {...control}
                type="file"
                accept=".txt,.x12,.edi,.999,.277,text/plain"
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
                  setFileError(undefined);
                  apply.reset();
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
              disabled={apply.isPending}
            >
              Cancel
            </Button>
            <Button type="submit" disabled={apply.isPending}>
              {apply.isPending ? 'Applying…' : 'Apply'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
