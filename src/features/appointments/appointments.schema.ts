import { z } from 'zod';
import { MAX_ROW_ID, cursorPageShape, idSchema, isoDateSchema, timeSchema, today, yearsFrom } from '@/shared/api';
import { slotProblem, type PracticeHours } from '@/features/settings/practice.schema';
import { timeInZone } from '@/shared/practice-zone';
import { formatDate, formatTime12 } from '@/shared/dates';
import { eligibilityBriefSchema } from '@/features/coverage/coverage.eligibility.schema';

export const APPOINTMENT_STATUSES = ['Scheduled', 'Completed', 'Cancelled', 'No-Show', 'Rescheduled'] as const;
export const appointmentStatusSchema = z.enum(APPOINTMENT_STATUSES);
export type AppointmentStatus = z.infer<typeof appointmentStatusSchema>;

/**
 * Statuses that give the provider's slot back: the appointment will not happen at that time. The unique
 * index `appointments_provider_slot_uq` uses the same list.
 */
export const SLOT_FREEING_STATUSES: readonly AppointmentStatus[] = ['Cancelled', 'Rescheduled', 'No-Show'];

/** Statuses that say how a visit went: they can be set once its start time has come, not before. */
export const AFTER_THE_VISIT_STATUSES: readonly AppointmentStatus[] = ['Completed', 'No-Show'];

/**
 * Why a visit cannot take this status now: Completed and No-Show record what happened, so a visit that
 * has not started yet cannot have them. The server enforces it; the status dropdown does not offer them.
 */
export function statusProblem(
  status: AppointmentStatus,
  visit: { date: string; time: string },
  now: { day: string; time: string },
): string | null {
  if (!AFTER_THE_VISIT_STATUSES.includes(status)) return null;
  const started = visit.date < now.day || (visit.date === now.day && visit.time <= now.time);
  return started
    ? null
    : `cannot be ${status} before the visit starts (${formatDay(visit.date)} at ${formatTime12(visit.time)})`;
}

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
  /**
   * The patient's primary policy's eligibility for the visit's day (docs/x12-eligibility.md): on a day's schedule
   * only; absent from other answers.
   */
  eligibility: eligibilityBriefSchema.optional(),
});
export type Appointment = z.infer<typeof appointmentSchema>;

/** `GET /api/appointments/eligibility/next-day`: the next working day's visits not known to be covered. */
export const uncoveredAppointmentsSchema = z.object({
  date: z.string().nullable(),
  appointments: z.array(
    z.object({
      appointmentId: z.number().int(),
      patientId: z.number().int(),
      patient: z.string(),
      time: z.string(),
      provider: z.string(),
      payer: z.string().nullable(),
      eligibility: eligibilityBriefSchema,
    }),
  ),
});
export type UncoveredAppointments = z.infer<typeof uncoveredAppointmentsSchema>;

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

/**
 * `GET /api/appointments/free-slots`: the times a visit can start on a day. A new booking names the provider
 * (and the patient once chosen); a reschedule names the appointment, whose provider and patient count.
 */
export const freeSlotsQuerySchema = z
  .object({
    date: isoDateSchema,
    providerId: idSchema.optional(),
    patientId: idSchema.optional(),
    appointmentId: idSchema.optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.appointmentId === undefined && q.providerId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['providerId'], message: 'is required (or an appointmentId)' });
    }
  });
export type FreeSlotsQuery = z.infer<typeof freeSlotsQuerySchema>;
export const freeSlotsSchema = z.object({ times: z.array(z.string()) });
export type FreeSlots = z.infer<typeof freeSlotsSchema>;

/** The call list export: the day's appointments, served by a POST that records the export. */
export const callListExportSchema = z.object({ date: isoDateSchema });

/** A call list line: the appointment and the patient's phone, masked as the caller's role requires. */
export const callListRowSchema = appointmentSchema.extend({ phone: z.string() });
export type CallListRow = z.infer<typeof callListRowSchema>;

/** The call list's columns, in order. */
export const CALL_LIST_COLUMNS = ['Date', 'Time', 'Patient', 'Phone', 'Provider', 'Reason', 'Status'] as const;

/** R 012: times show in 12-hour format; the one formatter lives with the date formatter in src/shared/dates.ts. */
export { formatTime12 };

/** A day as people read it ('Jan 18, 2027'), for messages: the one date formatter of src/shared/dates.ts. */
export const formatDay = formatDate;

export function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

export function timeOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** A visit that holds its time on a day: the provider's and the patient's. */
export interface BookedVisit {
  id: number;
  providerId: number;
  patientId: number;
  time: string;
  minutes: number;
}

/** The visit being booked or moved: who, when, and for how long. */
export interface WantedVisit {
  providerId: number;
  patientId: number;
  time: string;
  minutes: number;
  /** The visit being moved, which does not clash with itself. */
  exceptId?: number;
}

export interface VisitClash {
  kind: 'provider' | 'patient';
  visit: BookedVisit;
}

/**
 * The first booked visit the wanted one runs into: the provider's visits need `bufferMinutes` between them
 * (Settings → Practice); a patient cannot be in two visits at once, with any providers.
 */
export function visitClash(
  bufferMinutes: number,
  booked: readonly BookedVisit[],
  wanted: WantedVisit,
): VisitClash | null {
  const start = minutesOf(wanted.time);
  const end = start + wanted.minutes;
  for (const visit of booked) {
    if (visit.id === wanted.exceptId) continue;
    const from = minutesOf(visit.time);
    const to = from + visit.minutes;
    if (visit.providerId === wanted.providerId && start < to + bufferMinutes && from < end + bufferMinutes) {
      return { kind: 'provider', visit };
    }
    if (visit.patientId === wanted.patientId && start < to && from < end) return { kind: 'patient', visit };
  }
  return null;
}

/**
 * The start times the booking form offers on a day: free for the provider (with the buffer) and the
 * patient, inside the practice's hours, not yet past. From opening, one visit plus the buffer apart; after
 * a booked visit, from the first free minute (on the 5-minute grid) after it.
 */
export function freeSlots(
  hours: PracticeHours,
  booked: readonly BookedVisit[],
  wanted: Omit<WantedVisit, 'time' | 'minutes'>,
  now: { day: string; time: string },
  date: string,
): string[] {
  const minutes = hours.appointmentMinutes;
  const close = minutesOf(hours.workdayEnd);
  const slots: string[] = [];
  let start = minutesOf(hours.workdayStart);
  while (start + minutes <= close) {
    const time = timeOf(start);
    const clash = visitClash(hours.bufferMinutes, booked, { ...wanted, time, minutes });
    if (!clash) {
      if (!bookingProblem(hours, now, date, time)) slots.push(time);
      start += minutes + hours.bufferMinutes;
    } else {
      const free =
        minutesOf(clash.visit.time) + clash.visit.minutes + (clash.kind === 'provider' ? hours.bufferMinutes : 0);
      start = Math.max(start + 5, Math.ceil(free / 5) * 5);
    }
  }
  return slots;
}

/** The clinic's current day and clock time (HH:mm), in the practice's time zone whoever asks. */
export function clinicNow(now: Date): { day: string; time: string } {
  return { day: today(now), time: timeInZone(now) };
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
