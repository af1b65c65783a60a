import { format, isValid, parseISO } from 'date-fns';

/** A YYYY-MM-DD date as 'Dec 1, 2026'; anything else (a masked 'XX-XX-1984', '') is shown as it came. */
export function readableDate(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const date = parseISO(value);
  return isValid(date) ? format(date, 'MMM d, yyyy') : value;
}

/** A tel: link for a phone number, or null when the number is masked or has no digits. */
export function telHref(phone: string): string | null {
  if (phone.includes('*')) return null;
  const dialable = phone.replace(/[^\d+]/g, '');
  return /\d/.test(dialable) ? `tel:${dialable}` : null;
}
