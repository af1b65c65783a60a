import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client';

/**
 * Shows a refusal's field errors (the error envelope's `fields`) under the form's own fields, as the form's
 * own checks show theirs (aria-invalid, the message tied to the input), and moves focus there. `names` are
 * the form's fields: an error on a path inside one (`address.zip`) goes to that field; one on a field the form
 * does not have is left to the caller's message. Answers how many were shown.
 */
export function showFieldErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  names: readonly Path<T>[],
): number {
  if (!(error instanceof ApiError)) return 0;
  let shown = 0;
  for (const f of error.fields) {
    const name = names.find((n) => f.field === n || f.field.startsWith(`${n}.`));
    if (name === undefined) continue;
    setError(name, { type: 'server', message: f.message }, { shouldFocus: true });
    shown += 1;
  }
  return shown;
}
