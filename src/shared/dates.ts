/**
 * How dates and times read wherever people see them, in the browser and in the server's messages: dates as
 * 'Jan 18, 2027', times in 12-hour form ('11:30 AM', R 012). The API's fields stay ISO (YYYY-MM-DD, HH:mm);
 * only the words shown change.
 */
import { format, isValid, parseISO } from 'date-fns';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]?\d|2[0-3]):([0-5]\d)(:[0-5]\d)?$/;

/** A YYYY-MM-DD date as 'Jan 18, 2027'; anything else (a masked 'XX-XX-1984', '') is shown as it came. */
export function formatDate(value: string): string {
  if (!ISO_DATE.test(value)) return value;
  const date = parseISO(value);
  return isValid(date) ? format(date, 'MMM d, yyyy') : value;
}

/** An HH:mm (or HH:mm:ss) time as '11:30 AM' / '1:30 PM'; anything else is shown as it came. */
export function formatTime12(time: string): string {
  const match = TIME.exec(time);
  if (!match) return time;
  const hour = Number(match[1]);
  const suffix = hour >= 12 ? 'PM' : 'AM';
  return `${hour % 12 === 0 ? 12 : hour % 12}:${match[2]} ${suffix}`;
}

/** A day and a time as 'Jan 18, 2027 at 11:30 AM'. */
export function formatDateTime(date: string, time: string): string {
  return `${formatDate(date)} at ${formatTime12(time)}`;
}
