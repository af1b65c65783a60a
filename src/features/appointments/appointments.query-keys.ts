const APPOINTMENTS = '/api/appointments';

import { crossFeatureKeys } from '@/client/lib/cross-feature-keys';

// Saving the practice hours in settings refreshes the booking form's copy: that key is one of the shell's
// cross-feature keys.
export const appointmentKeys = {
  /** Every day's list (not the practice hours, whose first segment differs). */
  days: [APPOINTMENTS] as const,
  day: (date: string) => [APPOINTMENTS, { date }] as const,
  /** Under `days`, so whatever refreshes the lists after a booking refreshes the free times too. */
  freeSlots: (query: Record<string, string>) => [APPOINTMENTS, 'free-slots', query] as const,
  /** Under `days`: booking or cancelling a visit changes the next day's notice too. */
  uncoveredNextDay: [APPOINTMENTS, 'eligibility', 'next-day'] as const,
  practiceHours: crossFeatureKeys.practiceHours,
  providers: ['/api/providers'] as const,
  patientNames: (search: string) => ['/api/patients/names', { search }] as const,
};
