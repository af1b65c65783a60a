/**
 * Query keys of answers that a write in one feature makes stale in a feature later in the one-way order
 * of features (docs/layout.md): adding a patient changes the dashboard's count, a payment in My Billing
 * the portal's claims, saving practice hours the booking form's hours, correcting a patient's address or
 * coverage the claims and work queue (their held claims are scrubbed again). The earlier feature may not import
 * the later one, so both take these keys from the shell; each feature's own key factory uses them. A later
 * feature's write may make an earlier one's answers stale too (a claim batch changes the claims' statuses): its
 * screens may not import the earlier feature's screens' hooks either, so it takes the key from here as well.
 */
export const crossFeatureKeys = {
  claims: ['/api/claims'] as const,
  workQueue: ['/api/work-queue'] as const,
  dashboardSummary: ['/api/dashboard/summary'] as const,
  portalAppointments: ['/api/portal/appointments'] as const,
  portalClaims: ['/api/portal/claims'] as const,
  practiceHours: ['/api/appointments/practice-hours'] as const,
  /** Every day's schedule and the next day's eligibility notice: a 271 posted on a patient's page answers them. */
  appointments: ['/api/appointments'] as const,
};
