import { z } from 'zod';
import { MAX_ROW_ID, cursorPageShape, isoDateSchema, timeSchema, today, yearsFrom } from '@/shared/api';
import { slotProblem, type PracticeHours } from '@/features/settings/practice.schema';

export const APPOINTMENT_STATUSES = ['Scheduled', 'Completed', 'Cancelled', 'No-Show', 'Rescheduled'] as const;
export const appointmentStatusSchema = z.enum(APPOINTMENT_STATUSES);
export type AppointmentStatus = z.infer<typeof appointmentStatusSchema>;

/**
 * Statuses that give the provider's slot back: the appointment will not happen at that time. The unique
 * index `appointments_provider_slot_uq` uses the same list.
 */
export const SLOT_FREEING_STATUSES: readonly AppointmentStatus[] = ['Cancelled', 'Rescheduled', 'No-Show'];

export function holdsSlot(status: AppointmentStatus): boolean {
  return !SLOT_FREEING_STATUSES.includes(status);
}

export const appointmentSchema = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  patient: z.string(),
  providerId: z.number().int(),
  provider: z.string(),
  reason: z.string(),
  date: z.string(),
  time: z.string(),
  status: appointmentStatusSchema,
});
export type Appointment = z.infer<typeof appointmentSchema>;

/**
 * One day's schedule, keyset-paged by (time, id) (docs/paging.md): `cursor` is the `nextCursor` of the
 * page before, issued for the same day; `total` (the day's count) comes with a first page only.
 */
export const appointmentDayQuerySchema = z.object({
  date: isoDateSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().max(2000).optional(),
  /** `false` skips counting the day's appointments on a first page (`total` is then null). */
  count: z.enum(['true', 'false']).default('true'),
});
export type AppointmentDayQuery = z.infer<typeof appointmentDayQuerySchema>;

export const appointmentPageSchema = z.object({ items: z.array(appointmentSchema), ...cursorPageShape });
export type AppointmentPage = z.infer<typeof appointmentPageSchema>;

/** PATCH body: either a new status, or a new date and time (a reschedule keeps the status). */
export const appointmentPatchSchema = z
  .object({ status: appointmentStatusSchema.optional(), date: isoDateSchema.optional(), time: timeSchema.optional() })
  .strict()
  .superRefine((body, ctx) => {
    const reschedule = body.date !== undefined || body.time !== undefined;
    if (body.status !== undefined && reschedule) {
      ctx.addIssue({
        code: 'custom',
        path: ['status'],
        message: 'send either a status or a new date and time, not both',
      });
    } else if (!reschedule && body.status === undefined) {
      ctx.addIssue({ code: 'custom', path: ['status'], message: 'is required (or a new date and time)' });
    } else if (reschedule && body.date === undefined) {
      ctx.addIssue({ code: 'custom', path: ['date'], message: 'is required' });
    } else if (reschedule && body.time === undefined) {
      ctx.addIssue({ code: 'custom', path: ['time'], message: 'is required' });
    }
  });
export type AppointmentPatch = z.infer<typeof appointmentPatchSchema>;

/** An empty form field says "is required" rather than a format rule. */
const requiredDate = z.string({ error: 'is required' }).min(1, 'is required').pipe(isoDateSchema);
const requiredTime = z.string({ error: 'is required' }).min(1, 'is required').pipe(timeSchema);
const requiredId = z
  .number({ error: 'is required' })
  .int()
  .positive('is required')
  .max(MAX_ROW_ID, 'is not a known id');

/** The reschedule dialog needs both a new date and a new time. */
export const rescheduleSchema = z.object({ date: requiredDate, time: requiredTime });
export type Reschedule = z.infer<typeof rescheduleSchema>;

export const newAppointmentSchema = z.object({
  patientId: requiredId,
  providerId: requiredId,
  reason: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  date: requiredDate,
  time: requiredTime,
});
export type NewAppointment = z.infer<typeof newAppointmentSchema>;

/** The call list export: the day's appointments, served by a POST that records the export. */
export const callListExportSchema = z.object({ date: isoDateSchema });

/** A call list line: the appointment and the patient's phone, masked as the caller's role requires. */
export const callListRowSchema = appointmentSchema.extend({ phone: z.string() });
export type CallListRow = z.infer<typeof callListRowSchema>;

/** The call list's columns, in order. */
export const CALL_LIST_COLUMNS = ['Date', 'Time', 'Patient', 'Phone', 'Provider', 'Reason', 'Status'] as const;

/** R 012: times show in 12-hour format. */
export function formatTime12(time: string): string {
  const [h = '0', m = '00'] = time.split(':');
  const hour = Number(h);
  const suffix = hour >= 12 ? 'PM' : 'AM';
  return `${hour % 12 === 0 ? 12 : hour % 12}:${m} ${suffix}`;
}

function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

function timeOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * The start times the booking form offers: one appointment length apart, from opening until the last
 * start that still ends by closing (30-minute visits, 08:00–17:00 → 08:00 … 16:30).
 */
export function practiceSlots(hours: PracticeHours): string[] {
  const step = Math.max(hours.appointmentMinutes, 5);
  const slots: string[] = [];
  for (let start = minutesOf(hours.workdayStart); start + step <= minutesOf(hours.workdayEnd); start += step) {
    slots.push(timeOf(start));
  }
  return slots;
}

/** The clinic's current day and clock time (HH:mm), in the local zone of whoever asks. */
export function clinicNow(now: Date): { day: string; time: string } {
  return {
    day: today(now),
    time: `${String(now.getHours()).padStart(2, '0')}:${String(now.getMinutes()).padStart(2, '0')}`,
  };
}

/** How far from today the schedule reaches: bookings up to this many years ahead, a day's list as far back. */
export const APPOINTMENT_HORIZON_YEARS = 2;

/** Why a day's schedule (the list, the call list) cannot be asked for: further than the horizon either way. */
export function appointmentDayProblem(date: string, today: string): string | null {
  const outside =
    date > yearsFrom(today, APPOINTMENT_HORIZON_YEARS) || date < yearsFrom(today, -APPOINTMENT_HORIZON_YEARS);
  return outside ? `must be within ${APPOINTMENT_HORIZON_YEARS} years of today` : null;
}

export interface BookingProblem {
  code: 'IN_THE_PAST' | 'TOO_FAR_AHEAD' | 'OUTSIDE_HOURS';
  field: 'date' | 'time';
  message: string;
}

/**
 * Why a visit cannot be booked (or moved) to this date and time: it is in the past, more than the horizon
 * ahead, or outside the practice's days and hours. The server enforces it; the forms use it to say so before sending.
 */
export function bookingProblem(
  hours: PracticeHours,
  now: { day: string; time: string },
  date: string,
  time: string,
): BookingProblem | null {
  if (date < now.day) return { code: 'IN_THE_PAST', field: 'date', message: 'cannot be in the past' };
  if (date > yearsFrom(now.day, APPOINTMENT_HORIZON_YEARS)) {
    const message = `cannot be more than ${APPOINTMENT_HORIZON_YEARS} years ahead`;
    return { code: 'TOO_FAR_AHEAD', field: 'date', message };
  }
  if (date === now.day && time <= now.time) {
    return { code: 'IN_THE_PAST', field: 'time', message: 'has already passed today' };
  }
  const problem = slotProblem(hours, date, time);
  return problem ? { code: 'OUTSIDE_HOURS', field: 'time', message: problem } : null;
}
