import { z } from 'zod';
import { timeSchema } from '@/shared/api';

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

export const practiceHoursSchema = z.object({
  appointmentMinutes: z.number().int(),
  bufferMinutes: z.number().int(),
  workdayStart: timeSchema,
  workdayEnd: timeSchema,
  workingDays: z.array(z.enum(WEEKDAYS)),
});
export type PracticeHours = z.infer<typeof practiceHoursSchema>;

/** SPEC 9 defaults. */
export const DEFAULT_PRACTICE_HOURS: PracticeHours = {
  appointmentMinutes: 30,
  bufferMinutes: 10,
  workdayStart: '08:00',
  workdayEnd: '17:00',
  workingDays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
};

/** Why a slot is outside the practice's hours, or null when it fits. */
export function slotProblem(hours: PracticeHours, date: string, time: string): string | null {
  const weekday = WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7];
  if (!weekday || !hours.workingDays.includes(weekday)) {
    return `the practice is closed on ${weekday ?? 'that day'} (open ${hours.workingDays.join(', ')})`;
  }
  const toMinutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
  const start = toMinutes(time);
  if (start < toMinutes(hours.workdayStart) || start + hours.appointmentMinutes > toMinutes(hours.workdayEnd)) {
    return `must start between ${hours.workdayStart} and ${hours.workdayEnd} with ${hours.appointmentMinutes} minutes before closing`;
  }
  return null;
}
