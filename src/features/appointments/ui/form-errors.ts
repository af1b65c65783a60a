import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';

/** What the server said, in words a person reads: the field messages when there are any. */
export function serverMessageOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.fields.length > 0) return error.fields.map((f) => f.message).join('; ');
    return error.serverMessage ?? error.message;
  }
  return error instanceof Error ? error.message : String(error);
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
