import type { ReactNode } from 'react';
import { Label } from './label';

/** What a form control needs so its label, hint and error are announced with it. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * A labelled form control with an optional hint and its error shown under it. Errors of our schemas read
 * as the end of a sentence ('is required', 'must be…'), so they are prefixed with the field's label.
 */
export function FormField({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  /** The control, or a function that receives the props tying a control to the label, hint and error. */
  children: ReactNode | ((control: FieldControlProps) => ReactNode);
}) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      {typeof children === 'function'
        ? children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })
        : children}
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-destructive" role="alert">
          {fieldMessage(label, error)}
        </p>
      )}
    </div>
  );
}

/** 'is required' under 'Name' reads 'Name is required'; a full sentence is only capitalised. */
export function fieldMessage(label: string, message: string): string {
  if (/^(is|are|must|may|cannot|can't|should|does|do)\b/.test(message)) return `${label} ${message}`;
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** Props that tie a control placed inside a FormField (as a plain child) to its error. */
export function invalidProps(id: string, error: string | undefined) {
  return error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};
}
