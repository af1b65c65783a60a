/**
 * What each audit action means, in words staff read on the dashboard's Recent Activity. The audit log
 * itself keeps the action code (it is what filters and exports match on).
 */
const ACTION_LABELS: Record<string, string> = {
  'access.denied': 'Access denied',
  'access.refused.summary': 'Refused requests (summary)',
  'access.unauthenticated': 'Request without a session refused',
  'appointment.create': 'Booked an appointment',
  'appointment.export': 'Exported the call list',
  'appointment.update': 'Changed an appointment',
  'appointments.list.view': 'Viewed the appointments list',
  'audit.hmac.anchor': 'Sealed the audit trail',
  'audit.verify': 'Verified the audit trail',
  'auth.locked': 'Sign-in locked after wrong codes',
  'auth.login.failure': 'Sign-in refused',
  'auth.login.locked_out': 'Sign-in refused while locked',
  'auth.login.success': 'Signed in',
  'auth.login.temporary_password_expired': 'Sign-in refused: temporary password expired',
  'auth.login.throttled': 'Sign-in throttled',
  'auth.logout': 'Signed out',
  'auth.mfa.enrolled': 'Set up an authenticator',
  'auth.mfa.enrolment.failure': 'Authenticator setup failed',
  'auth.mfa.enrolment.started': 'Started authenticator setup',
  'auth.mfa.expired': 'Sign-in code expired',
  'auth.mfa.failure': 'Wrong sign-in code',
  'auth.mfa.locked_out': 'Sign-in code refused while locked',
  'auth.password.accepted': 'Password accepted',
  'auth.password.change': 'Changed the password',
  'auth.password.change.failure': 'Password change refused',
  'auth.register': 'Registered an account',
  'authorization.update': 'Decided an authorization',
  'authorizations.list.view': 'Viewed the authorizations list',
  'analytics.missed_charges.view': 'Viewed the visits with missed charges',
  'claim.appeal': 'Appealed a claim',
  'claim.void': 'Voided a claim',
  'claim.scrub': 'Scrubbed a claim',
  'claims.charge_ceiling.update': 'Changed a charge ceiling',
  'claim.appeal.outcome': "Recorded an appeal's outcome",
  'claims.import': 'Imported claims',
  'claims.import.refused': 'Claims import refused',
  'claims.list.view': 'Viewed the claims list',
  'compliance.gap.update': 'Updated a compliance gap',
  'export.csv': 'Exported a CSV file',
  'guest.lookup.locked': 'Guest statement lookups locked',
  'guest.lookup.locked_out': 'Guest lookup refused while locked',
  'guest.payment.not_found': 'Guest payment: statement not found',
  'guest.statement.not_found': 'Guest lookup: statement not found',
  'guest.statement.view': 'Guest viewed a statement',
  'patient.create': 'Added a patient',
  'patient.view': 'Viewed a patient',
  'patients.list.view': 'Viewed the patients list',
  'patients.picker.view': 'Searched patients in a picker',
  'patients.duplicates.view': 'Shown likely duplicates of a new patient',
  'payment.guest': 'Guest payment',
  'payment.patient': 'Patient payment',
  'portal.view': 'Viewed the patient portal',
  'rtm.verify': 'Ran a traceability check',
  'search.view': 'Searched',
  'security.check': 'Ran a security check',
  'selftest.run': 'Ran the self-tests',
  'security.role_header_mismatch': 'Role header disagreed with the session',
  'settings.integrations.update': 'Changed integrations',
  'settings.notifications.update': 'Changed notification settings',
  'settings.practice.update': 'Changed practice settings',
  'settings.practice_time_zone.update': "Changed the practice's time zone",
  'settings.update': 'Changed display settings',
  'statement.export': 'Exported a statement',
  'statement.view': 'Viewed a statement',
  'payer.create': 'Added a payer',
  'payer.update': 'Changed a payer',
  'provider.create': 'Added a provider',
  'provider.update': 'Changed a provider',
  'system.reset': 'Reset all clinic data',
  'system.seed': 'Seeded the demo data',
  'user.create': 'Added a user',
  'user.mfa.reset': "Reset a user's authenticator",
  'user.patient_link': 'Linked an account to a patient record',
  'user.update': 'Changed a user',
  'worklist.view': 'Viewed the overdue follow-ups',
};

/** The action in words; an action without a label yet reads as its code made readable ("foo.bar_baz": "Foo bar baz"). */
export function describeAuditAction(action: string): string {
  const label = ACTION_LABELS[action];
  if (label) return label;
  const words = action.replace(/[._]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : action;
}

export function hasAuditActionLabel(action: string): boolean {
  return action in ACTION_LABELS;
}
