const APPOINTMENTS = '/api/appointments';

// At the feature's root, not in ui/: saving the practice hours in settings refreshes the booking form's
// copy, and a feature may import another's root modules but never its ui/ (eslint.config.js).
export const appointmentKeys = {
  /** Every day's list (not the practice hours, whose first segment differs). */
  days: [APPOINTMENTS] as const,
  day: (date: string) => [APPOINTMENTS, { date }] as const,
  practiceHours: ['/api/appointments/practice-hours'] as const,
  providers: ['/api/providers'] as const,
  patientNames: (search: string) => ['/api/patients/names', { search }] as const,
};
