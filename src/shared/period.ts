import { addDays, format, parseISO } from 'date-fns';
import { today } from './api';

/** A run of calendar days, both ends included, as YYYY-MM-DD. */
export interface Period {
  days: number;
  start: string;
  end: string;
}

function shift(day: string, days: number): string {
  return format(addDays(parseISO(day), days), 'yyyy-MM-dd');
}

/** The last `days` calendar days, ending today (the server's clock day, as everywhere else). */
export function periodEndingToday(now: Date, days: number): Period {
  const end = today(now);
  return { days, start: shift(end, -(days - 1)), end };
}

/** The period of the same length just before `period` (for trends: this period against the last). */
export function previousPeriod(period: Period): Period {
  return { days: period.days, start: shift(period.start, -period.days), end: shift(period.start, -1) };
}
