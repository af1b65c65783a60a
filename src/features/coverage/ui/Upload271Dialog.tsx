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
import { ELIGIBILITY_RESPONSE_MAX_BYTES } from '../coverage.eligibility.schema';
import { usePost271 } from './coverage.api';

/**
 * Upload 271: a payer's eligibility answer as the clearinghouse sent it, applied whole or refused whole with the
 * server's reason shown here (the mailbox applies the ones it fetches itself).
 */
export function Upload271Dialog() {
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const post = usePost271();

  const reset = () => {
    setFile(null);
    setFileError(undefined);
    post.reset();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setFileError('is required: choose the 271 file');
    if (file.size > ELIGIBILITY_RESPONSE_MAX_BYTES) return setFileError('must be at most 10 MB');
    setFileError(undefined);
    const text = await file.text();
    post.mutate(
      { text, fileName: file.name },
      {
        onSuccess: (result) => {
          toast({ title: 'Eligibility answers recorded', description: result.summary });
          reset();
          setOpen(false);
        },
        onError: (error) => {
          setFileError(
            error instanceof ApiError && error.serverMessage
              ? error.serverMessage.replace(/^(file|body): /, '')
              : 'could not be applied; try again',
          );
        },
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (post.isPending) return;
        if (!next) reset();
        setOpen(next);
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm" variant="outline">
          <Upload className="size-4" aria-hidden="true" /> Upload 271
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Upload 271</DialogTitle>
          <DialogDescription>
            A payer&apos;s answer to eligibility checks. Each answer must match a check awaiting it; otherwise the whole
            file is refused and nothing changes.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
          <FormField id="eligibility-response-file" label="271 file" error={fileError}>
            {(control) => (
              <Input
                {...control}
                type="file"
                accept=".txt,.x12,.edi,.271,text/plain"
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
                  setFileError(undefined);
                  post.reset();
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
              disabled={post.isPending}
            >
              Cancel
            </Button>
            <Button type="submit" disabled={post.isPending}>
              {post.isPending ? 'Applying…' : 'Apply'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
