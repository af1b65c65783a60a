import { useState, type FormEvent, type ReactNode } from 'react';
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

const MB = 1024 * 1024;
const sizeText = (bytes: number) => (bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KB`);

/** What a posted file did, for the toast. */
export interface AppliedFile {
  title: string;
  description: string;
}

/**
 * A dialog that applies one X12 file as it came (a 999, 277CA, 277 or 271): the file is read as text and given to
 * `apply`, which posts it; the server applies the whole file or refuses it whole, and its reason shows under the
 * field (without the `body:`/`file:` field prefix the envelope puts on it). One shell for every such upload, so each
 * behaves alike: the size checked first, Escape and Cancel blocked while a file is being applied.
 */
export function X12FileDialog({
  trigger,
  triggerSize,
  title,
  description,
  fieldId,
  fieldLabel,
  accept,
  maxBytes,
  missing,
  apply,
}: {
  /** The button's words ("Upload 271"); also what the dialog is titled unless `title` says otherwise. */
  trigger: string;
  triggerSize?: 'sm';
  title?: string;
  description: ReactNode;
  fieldId: string;
  fieldLabel: string;
  accept: string;
  maxBytes: number;
  /** The field's error with no file chosen ("is required: choose the 271 file"). */
  missing: string;
  apply: (file: { text: string; fileName: string }) => Promise<AppliedFile>;
}) {
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  const reset = () => {
    setFile(null);
    setFileError(undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setFileError(missing);
    if (file.size > maxBytes) return setFileError(`must be at most ${sizeText(maxBytes)}`);
    setFileError(undefined);
    setPending(true);
    try {
      const applied = await apply({ text: await file.text(), fileName: file.name });
      toast(applied);
      reset();
      setOpen(false);
    } catch (error) {
      setFileError(
        error instanceof ApiError && error.serverMessage
          ? error.serverMessage.replace(/^(file|body): /, '')
          : 'could not be applied; try again',
      );
    } finally {
      setPending(false);
    }
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
        <Button variant="outline" {...(triggerSize ? { size: triggerSize } : {})}>
          <Upload className="size-4" aria-hidden="true" /> {trigger}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>{title ?? trigger}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
          <FormField id={fieldId} label={fieldLabel} error={fileError}>
            {(control) => (
              <Input
                {...control}
                type="file"
                accept={accept}
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
                  setFileError(undefined);
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
