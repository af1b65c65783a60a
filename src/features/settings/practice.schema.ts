import { z } from 'zod';
import { timeSchema } from '@/shared/api';
import { formatTime12 } from '@/shared/dates';

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The choices the Practice tab offers. */
export const APPOINTMENT_DURATIONS = [15, 30, 45, 60] as const;
export const BUFFER_CHOICES = [0, 5, 10, 15] as const;

export const practiceHoursSchema = z.object({
  appointmentMinutes: z.number().int(),
  bufferMinutes: z.number().int(),
  workdayStart: timeSchema,
  workdayEnd: timeSchema,
  workingDays: z.array(z.enum(WEEKDAYS)),
});
export type PracticeHours = z.infer<typeof practiceHoursSchema>;

function oneOfNumbers(choices: readonly number[], unit: string) {
  return z
    .number({ error: 'is required' })
    .int()
    .refine((v) => choices.includes(v), `must be one of ${choices.join(', ')} ${unit}`);
}

/** `PUT /api/settings/practice`: the Practice tab's form, checked the same way in the browser and on the server. */
export const practiceHoursUpdateSchema = z
  .object({
    appointmentMinutes: oneOfNumbers(APPOINTMENT_DURATIONS, 'minutes'),
    bufferMinutes: oneOfNumbers(BUFFER_CHOICES, 'minutes'),
    workdayStart: timeSchema,
    workdayEnd: timeSchema,
    workingDays: z
      .array(z.enum(WEEKDAYS))
      .min(1, 'must include at least one day')
      .refine((days) => new Set(days).size === days.length, 'must not list a day twice'),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.workdayStart >= value.workdayEnd) {
      ctx.addIssue({ code: 'custom', path: ['workdayEnd'], message: 'must be later than the opening time' });
    }
  });
export type PracticeHoursUpdate = z.infer<typeof practiceHoursUpdateSchema>;

/** The practice's defaults. */
export const DEFAULT_PRACTICE_HOURS: PracticeHours = {
  appointmentMinutes: 30,
  bufferMinutes: 10,
  workdayStart: '08:00',
  workdayEnd: '17:00',
  workingDays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
};

/** The practice's name, address and phone, as printed at the top of a statement. */
export const practiceLetterheadSchema = z.object({ name: z.string(), address: z.string(), phone: z.string() });
export type PracticeLetterhead = z.infer<typeof practiceLetterheadSchema>;

/** The demo practice's letterhead (555-01xx is a number reserved for fiction). */
export const DEFAULT_PRACTICE_LETTERHEAD: PracticeLetterhead = {
  name: 'Riverside Family Practice',
  address: '1200 Main Street, Suite 200, Springfield, IL 62701',
  phone: '(217) 555-0142',
};

/** Days in week order, whatever order they were ticked in. */
export function sortWeekdays(days: readonly Weekday[]): Weekday[] {
  return WEEKDAYS.filter((d) => days.includes(d));
}

/** Why a slot is outside the practice's hours, or null when it fits. */
export function slotProblem(hours: PracticeHours, date: string, time: string): string | null {
  const weekday = WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7];
  if (!weekday || !hours.workingDays.includes(weekday)) {
    return `the practice is closed on ${weekday ?? 'that day'} (open ${hours.workingDays.join(', ')})`;
  }
  const toMinutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
  const start = toMinutes(time);
  if (start < toMinutes(hours.workdayStart) || start + hours.appointmentMinutes > toMinutes(hours.workdayEnd)) {
    return `must start between ${formatTime12(hours.workdayStart)} and ${formatTime12(hours.workdayEnd)} with ${hours.appointmentMinutes} minutes before closing`;
  }
  return null;
}
