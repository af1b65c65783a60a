import { describe, expect, it } from 'vitest';
import { DEFAULT_PRACTICE_HOURS } from '@/features/settings/practice.schema';
import {
  appointmentPatchSchema,
  formatTime12,
  newAppointmentSchema,
  freeSlots,
  rescheduleSchema,
  visitClash,
  type BookedVisit,
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

  const MONDAY = '2027-01-18';
  const EARLIER = { day: '2027-01-01', time: '12:00' };
  const visit = (time: string, minutes: number, providerId = 1, patientId = 10, id = 100): BookedVisit => ({
    id,
    providerId,
    patientId,
    time,
    minutes,
  });

  it('offers, on an empty day, starts one visit plus the buffer apart, the last ending by closing', () => {
    const slots = freeSlots(DEFAULT_PRACTICE_HOURS, [], { providerId: 1, patientId: 10 }, EARLIER, MONDAY);
    // 30-minute visits, 10 minutes between them, 08:00–17:00.
    expect(slots.slice(0, 3)).toEqual(['08:00', '08:40', '09:20']);
    expect(slots.at(-1)).toBe('16:00');
    const hours = { ...DEFAULT_PRACTICE_HOURS, appointmentMinutes: 45, bufferMinutes: 0, workdayEnd: '10:00' };
    expect(freeSlots(hours, [], { providerId: 1, patientId: 10 }, EARLIER, MONDAY)).toEqual(['08:00', '08:45']);
  });

  it("skips the provider's visits with the buffer around them, and the patient's visits with anyone", () => {
    const hours = { ...DEFAULT_PRACTICE_HOURS, appointmentMinutes: 15, workdayEnd: '12:00' };
    const booked = [visit('10:30', 15), visit('09:00', 30, 2, 11)];
    const slots = freeSlots(hours, booked, { providerId: 1, patientId: 11 }, EARLIER, MONDAY);
    // Provider 1 is busy 10:30–10:45 (+10 either side); patient 11 is with provider 2 09:00–09:30.
    expect(slots).toEqual(['08:00', '08:25', '09:30', '09:55', '10:55', '11:20', '11:45']);
    for (const time of slots)
      expect(visitClash(10, booked, { providerId: 1, patientId: 11, time, minutes: 15 })).toBeNull();
  });

  it('names the clash: a start inside a visit, within the buffer after it, or the same patient elsewhere', () => {
    const booked = [visit('10:30', 15, 1, 10, 7)];
    expect(visitClash(10, booked, { providerId: 1, patientId: 99, time: '10:45', minutes: 15 })).toEqual({
      kind: 'provider',
      visit: booked[0],
    });
    expect(visitClash(10, booked, { providerId: 1, patientId: 99, time: '10:15', minutes: 15 })?.kind).toBe('provider');
    expect(visitClash(10, booked, { providerId: 1, patientId: 99, time: '10:55', minutes: 15 })).toBeNull();
    expect(visitClash(0, booked, { providerId: 1, patientId: 99, time: '10:45', minutes: 15 })).toBeNull();
    expect(visitClash(10, booked, { providerId: 2, patientId: 10, time: '10:40', minutes: 30 })?.kind).toBe('patient');
    expect(visitClash(10, booked, { providerId: 2, patientId: 10, time: '10:45', minutes: 30 })).toBeNull();
    // Moving a visit does not clash with where it is now.
    expect(
      visitClash(10, booked, { providerId: 1, patientId: 10, time: '10:35', minutes: 15, exceptId: 7 }),
    ).toBeNull();
  });

  it('does not offer a time already past today', () => {
    const slots = freeSlots(
      DEFAULT_PRACTICE_HOURS,
      [],
      { providerId: 1, patientId: 10 },
      { day: MONDAY, time: '09:00' },
      MONDAY,
    );
    expect(slots[0]).toBe('09:20');
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
