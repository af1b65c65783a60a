import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { errorTextFor } from '@/client/lib/error-text';

/** What the server said, in words a person reads: the field messages when there are any. */
export function serverMessageOf(error: unknown): string {
  return errorTextFor(error);
}

/**
 * Shows a refused write: each error the server tied to one of the form's fields appears on that field,
 * and a destructive toast carries the server's message.
 */
export function showServerErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
  title: string,
) {
  if (error instanceof ApiError) {
    for (const f of error.fields) {
      const field = fields.find((name) => name === f.field);
      if (field) setError(field, { type: 'server', message: f.message }, { shouldFocus: true });
    }
  }
  toast({ title, description: serverMessageOf(error), variant: 'destructive' });
}
