import { z } from 'zod';
import { isoDateSchema, timeSchema } from '@/shared/api';

export const APPOINTMENT_STATUSES = ['Scheduled', 'Completed', 'Cancelled', 'No-Show', 'Rescheduled'] as const;
export const appointmentStatusSchema = z.enum(APPOINTMENT_STATUSES);
export type AppointmentStatus = z.infer<typeof appointmentStatusSchema>;

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

export const appointmentDayQuerySchema = z.object({ date: isoDateSchema.optional() });

/** PATCH body: either a new status, or a new date and time (a reschedule keeps the status, SPEC 4). */
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

export const newAppointmentSchema = z.object({
  patientId: z.number().int().positive('is required'),
  providerId: z.number().int().positive('is required'),
  reason: z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  date: isoDateSchema,
  time: timeSchema,
});
export type NewAppointment = z.infer<typeof newAppointmentSchema>;

/** SPEC 2.7 / R 012: times show in 12-hour format. */
export function formatTime12(time: string): string {
  const [h = '0', m = '00'] = time.split(':');
  const hour = Number(h);
  const suffix = hour >= 12 ? 'PM' : 'AM';
  return `${hour % 12 === 0 ? 12 : hour % 12}:${m} ${suffix}`;
}
