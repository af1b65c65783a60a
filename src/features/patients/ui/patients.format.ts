import { formatDate } from '@/shared/dates';

/** A YYYY-MM-DD date as 'Dec 1, 2026'; anything else (a masked 'XX-XX-1984', '') is shown as it came. */
export const readableDate = formatDate;

/** A tel: link for a phone number, or null when the number is masked or has no digits. */
export function telHref(phone: string): string | null {
  if (phone.includes('*')) return null;
  const dialable = phone.replace(/[^\d+]/g, '');
  return /\d/.test(dialable) ? `tel:${dialable}` : null;
}

/** A ZIP+4 is stored as 9 digits, as a claim carries it; people read and type it with its dash. */
export function readableZip(zip: string): string {
  return /^\d{9}$/.test(zip) ? `${zip.slice(0, 5)}-${zip.slice(5)}` : zip;
}
