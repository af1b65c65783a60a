import { formatDate, formatDateTime } from '@/shared/dates';
import { dayInZone, timeInZone } from '@/shared/practice-zone';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * An event's moment as people read it: a calendar day alone as 'Jul 1, 2026', an instant as the practice's
 * wall clock ('Jul 1, 2026 at 2:05 PM'), so staff in another zone see the clinic's day.
 */
export function momentText(at: string): string {
  if (ISO_DAY.test(at)) return formatDate(at);
  const instant = new Date(at);
  if (Number.isNaN(instant.getTime())) return at;
  return formatDateTime(dayInZone(instant), timeInZone(instant));
}
