/**
 * How dates and times read wherever people see them, in the browser and in the server's messages: dates as
 * 'Jan 18, 2027', times in 12-hour form ('11:30 AM', R 012). The API's fields stay ISO (YYYY-MM-DD, HH:mm);
 * only the words shown change.
 */
// No date-fns here: the shell's global search uses these, and date-fns' formatter with its locale would
// add kilobytes to the first download (e2e/client-weight) for three month letters.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]?\d|2[0-3]):([0-5]\d)(:[0-5]\d)?$/;

/** A YYYY-MM-DD date as 'Jan 18, 2027'; anything else (a masked 'XX-XX-1984', '') is shown as it came. */
export function formatDate(value: string): string {
  const match = ISO_DATE.exec(value);
  if (!match) return value;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  // A date that is not on the calendar (2026-02-30) is shown as it came, as an unreadable one is.
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return value;
  return `${MONTHS[month - 1]} ${day}, ${match[1]}`;
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
