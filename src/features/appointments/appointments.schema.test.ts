import { describe, expect, it } from 'vitest';
import { DEFAULT_PRACTICE_HOURS } from '@/features/settings/practice.schema';
import {
  appointmentPatchSchema,
  formatTime12,
  newAppointmentSchema,
  practiceSlots,
  rescheduleSchema,
} from './appointments.schema';

function fieldsOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return (result.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('appointments contract', () => {
  it('formats times in 12-hour form', () => {
    expect(formatTime12('00:05')).toBe('12:05 AM');
    expect(formatTime12('09:30')).toBe('9:30 AM');
    expect(formatTime12('12:00')).toBe('12:00 PM');
    expect(formatTime12('16:30')).toBe('4:30 PM');
  });

  it('offers the practice slots from opening to the last start that ends by closing', () => {
    const slots = practiceSlots(DEFAULT_PRACTICE_HOURS);
    expect(slots[0]).toBe('08:00');
    expect(slots.at(-1)).toBe('16:30');
    expect(slots).toHaveLength(18);
    expect(practiceSlots({ ...DEFAULT_PRACTICE_HOURS, appointmentMinutes: 45, workdayEnd: '10:00' })).toEqual([
      '08:00',
      '08:45',
    ]);
  });

  it('needs both a new date and a new time to reschedule', () => {
    expect(fieldsOf(rescheduleSchema.safeParse({ date: '', time: '' }))).toEqual([
      'date: is required',
      'time: is required',
    ]);
    expect(rescheduleSchema.safeParse({ date: '2026-11-23', time: '09:00' }).success).toBe(true);
  });

  it('takes a status or a reschedule in a PATCH, never both', () => {
    expect(appointmentPatchSchema.safeParse({ status: 'No-Show' }).success).toBe(true);
    expect(fieldsOf(appointmentPatchSchema.safeParse({ status: 'Completed', date: '2026-11-23' }))).toEqual([
      'status: send either a status or a new date and time, not both',
    ]);
    expect(fieldsOf(appointmentPatchSchema.safeParse({ time: '09:00' }))).toEqual(['date: is required']);
    expect(fieldsOf(appointmentPatchSchema.safeParse({}))).toEqual(['status: is required (or a new date and time)']);
  });

  it('names every missing field of a new appointment', () => {
    expect(fieldsOf(newAppointmentSchema.safeParse({ reason: ' ', date: '', time: '' }))).toEqual([
      'patientId: is required',
      'providerId: is required',
      'reason: is required',
      'date: is required',
      'time: is required',
    ]);
  });
});
