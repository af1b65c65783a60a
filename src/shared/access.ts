/**
 * The one access policy: roles, the screens each role may open, the API permissions behind those
 * screens, and the PHI masking rules. The server's guards, the client's route guard, the sidebar,
 * global search scoping and the permission matrix on /compliance are all derived from this file.
 * Imports nothing, so that it runs in the browser and in Node alike and adds no library to the sign-in
 * screen's download (the zod schema of a role lives in shared/api.ts).
 */

export const ROLES = ['guest', 'nurse_manager', 'doctor', 'billing_admin', 'patient', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The role name in the top bar shows underscores as spaces. */
export function roleLabel(role: Role): string {
  return role.replace(/_/g, ' ');
}

export const NAV_GROUPS = ['Main Menu', 'Analytics & Revenue', 'System'] as const;
export type NavGroup = (typeof NAV_GROUPS)[number];

/** Every screen of the product, in sidebar order. '/' is an alias of '/home'. */
export const SCREENS = [
  { path: '/home', label: 'Dashboard', group: 'Main Menu' },
  { path: '/patient-portal', label: 'Patient Portal', group: 'Main Menu' },
  { path: '/patients', label: 'Patients', group: 'Main Menu' },
  { path: '/appointments', label: 'Appointments', group: 'Main Menu' },
  { path: '/overdue-followups', label: 'Overdue Follow-ups', group: 'Main Menu' },
  { path: '/claims', label: 'Claims', group: 'Main Menu' },
  { path: '/remittances', label: 'Remittances', group: 'Main Menu' },
  { path: '/work-queue', label: 'Work Queue', group: 'Main Menu' },
  { path: '/kpis', label: 'KPIs', group: 'Analytics & Revenue' },
  { path: '/analytics', label: 'RCM Analytics', group: 'Analytics & Revenue' },
  { path: '/billing', label: 'Billing Summary', group: 'Analytics & Revenue' },
  { path: '/authorizations', label: 'Authorizations', group: 'Analytics & Revenue' },
  { path: '/compliance', label: 'Compliance', group: 'System' },
  { path: '/audit', label: 'Audit Logs', group: 'System' },
  { path: '/rtm', label: 'Traceability Matrix', group: 'System' },
  { path: '/settings', label: 'Settings', group: 'System' },
] as const satisfies readonly { path: string; label: string; group: NavGroup }[];

export type ScreenPath = (typeof SCREENS)[number]['path'];

/** The route table: the screens each role may open (docs/access.md; '/' is implied wherever '/home' is). */
export const SCREENS_BY_ROLE: Record<Role, readonly ScreenPath[]> = {
  guest: ['/home', '/settings'],
  nurse_manager: ['/home', '/patients', '/appointments', '/overdue-followups', '/authorizations', '/settings'],
  doctor: [
    '/home',
    '/patients',
    '/appointments',
    '/overdue-followups',
    '/authorizations',
    '/analytics',
    '/billing',
    '/rtm',
    '/settings',
  ],
  billing_admin: [
    '/home',
    '/claims',
    '/remittances',
    '/work-queue',
    '/kpis',
    '/analytics',
    '/billing',
    '/audit',
    '/rtm',
    '/settings',
  ],
  patient: ['/patient-portal', '/settings'],
  admin: [
    '/home',
    '/patients',
    '/appointments',
    '/overdue-followups',
    '/authorizations',
    '/claims',
    '/remittances',
    '/work-queue',
    '/analytics',
    '/billing',
    '/audit',
    '/compliance',
    '/rtm',
    '/settings',
  ],
};

/** Where '/' and the guard send a role. */
export function homePathFor(role: Role): ScreenPath {
  return role === 'patient' ? '/patient-portal' : '/home';
}

function normalisePath(path: string): string {
  const withoutQuery = path.split(/[?#]/)[0] ?? '/';
  const trimmed = withoutQuery.length > 1 ? withoutQuery.replace(/\/+$/, '') : withoutQuery;
  return trimmed === '' ? '/' : trimmed;
}

/** The screen a path belongs to ('/' counts as '/home'; sub-paths belong to their screen), or null. */
export function screenOf(path: string): ScreenPath | null {
  const p = normalisePath(path);
  if (p === '/') return '/home';
  for (const screen of SCREENS) {
    if (p === screen.path || p.startsWith(`${screen.path}/`)) return screen.path;
  }
  return null;
}

/** A role may open a route and its sub-paths. */
/**
 * A screen's path typed in another case (`/CLAIMS`, `/Patients/`) as the screen's own, so that the router
 * and the access check agree on it; null when the path is already canonical or names no screen.
 */
export function canonicalScreenPath(path: string): string | null {
  const p = normalisePath(path);
  const lower = p.toLowerCase();
  if (lower === p || screenOf(lower) === null) return null;
  return lower;
}

export function canOpen(role: Role, path: string): boolean {
  const screen = screenOf(path);
  return screen !== null && SCREENS_BY_ROLE[role].includes(screen);
}

/**
 * API permissions (docs/access.md): an API operation is open to a role exactly when that role may open a
 * screen that needs it; the few admin-only operations name their roles outright.
 */
const PERMISSION_RULES = {
  'dashboard:read': { screens: ['/home'], except: ['guest'] },
  'patients:read': { screens: ['/patients', '/appointments'] },
  'patients:write': { screens: ['/patients'] },
  'appointments:read': { screens: ['/appointments'] },
  'appointments:write': { screens: ['/appointments'] },
  'worklist:read': { screens: ['/overdue-followups'] },
  'authorizations:read': { screens: ['/authorizations'] },
  'authorizations:write': { screens: ['/authorizations'] },
  'claims:read': { screens: ['/claims', '/billing'] },
  'claims:write': { screens: ['/claims'] },
  /**
   * Sending claims to payers: the Claims screen's Batches view creates X12 837P batches, downloads their files
   * (PHI, audited) and posts the clearinghouse's 999 and 277CA acknowledgements (docs/x12-837.md).
   */
  'claims:submit': { screens: ['/claims'] },
  /**
   * A patient's insurance: the front desk (/patients) registers it, billing (/claims) corrects it and those
   * who bill or see a patient's record read it.
   */
  'coverage:read': { screens: ['/patients', '/claims', '/billing'] },
  /** Not the doctor, who reads a patient's insurance but does not register or correct it. */
  'coverage:write': { screens: ['/patients', '/claims'], except: ['doctor'] },
  /**
   * Asking payers whether a policy is in force (an X12 270, docs/x12-eligibility.md) and posting their 271
   * answers: the front desk before visits, billing before claims. Reading the answers is 'coverage:read'.
   */
  'eligibility:check': { screens: ['/patients', '/appointments', '/claims'] },
  /** Importing 835 remittances and reading what they posted (docs/remittances.md). */
  'remittances:read': { screens: ['/remittances'] },
  'remittances:write': { screens: ['/remittances'] },
  /** The work queue of denials, exceptions and holds (docs/work-queue.md). */
  'workqueue:read': { screens: ['/work-queue'] },
  'workqueue:write': { screens: ['/work-queue'] },
  /** Auto-assignment rules of the work queue: an admin's setting. */
  'workqueue:rules': { roles: ['admin'] },
  'analytics:read': { screens: ['/claims', '/kpis', '/analytics', '/billing'] },
  /** A KPI's drill-down names the patients behind the figure (PHI): the KPIs screen's, audited. */
  'analytics:drilldown': { screens: ['/kpis'] },
  'billing:read': { screens: ['/billing'] },
  'portal:read': { screens: ['/patient-portal'] },
  'portal:pay': { screens: ['/patient-portal'] },
  /** The guest landing's 'Pay Bill as Guest': a statement by account number and dob, and paying it. */
  'guest:pay': { roles: ['guest'] },
  'audit:read': { screens: ['/audit'] },
  /** Recomputing the whole hash chain reads every entry: an admin's check, not part of reading the log. */
  'audit:verify': { roles: ['admin'] },
  'compliance:read': { screens: ['/compliance'] },
  'rtm:run': { screens: ['/rtm'] },
  'settings:own': { screens: ['/settings'] },
  'settings:practice': { roles: ['nurse_manager', 'doctor', 'billing_admin', 'admin'] },
  /**
   * Changing one's own password: the roles whose Settings show the Security tab, patients included. Not
   * the guest, whose one shared demo account anyone could otherwise lock everyone else out of (an
   * admin-created guest account still replaces its temporary password: plugins/access.ts).
   */
  'account:password': { roles: ['patient', 'nurse_manager', 'doctor', 'billing_admin', 'admin'] },
  'users:manage': { roles: ['admin'] },
  /** Giving an account a patient record hands it that record's PHI: an admin's audited act, never automatic. */
  'users:link_patient': { roles: ['admin'] },
  'system:admin': { roles: ['admin'] },
  /** The clearinghouse mailbox's address, sign-in and schedule (docs/clearinghouse.md): an admin's setting. */
  'clearinghouse:manage': { roles: ['admin'] },
  /** The mailbox's log of files sent and received: what billing checks when a 999 or 835 is missing. */
  'clearinghouse:read': { roles: ['billing_admin', 'admin'] },
} as const satisfies Record<
  string,
  { screens: readonly ScreenPath[]; except?: readonly Role[] } | { roles: readonly Role[] }
>;

export type Permission = keyof typeof PERMISSION_RULES;
export const PERMISSIONS = Object.keys(PERMISSION_RULES) as Permission[];

/** What a server route declares: a permission, 'authenticated' (any signed-in role) or 'public'. */
export type RouteAccess = Permission | 'authenticated' | 'public';

export function rolesWith(permission: Permission): Role[] {
  const rule: { screens?: readonly ScreenPath[]; except?: readonly Role[]; roles?: readonly Role[] } =
    PERMISSION_RULES[permission];
  if (rule.roles) return [...rule.roles];
  return ROLES.filter(
    (role) =>
      !(rule.except ?? []).includes(role) && (rule.screens ?? []).some((s) => SCREENS_BY_ROLE[role].includes(s)),
  );
}

const GRANTS = new Map<Role, ReadonlySet<Permission>>(
  ROLES.map((role) => [role, new Set(PERMISSIONS.filter((p) => rolesWith(p).includes(role)))]),
);

export function can(role: Role, permission: Permission): boolean {
  return GRANTS.get(role)?.has(permission) ?? false;
}

/** Whether a caller (null = no session) passes a route's declared access. */
export function allows(access: RouteAccess, role: Role | null): boolean {
  if (access === 'public') return true;
  if (role === null) return false;
  if (access === 'authenticated') return true;
  return can(role, access);
}

/** Global search covers these screens' records; a role that opens none of them has no search box. */
export const SEARCHABLE_SCREENS = ['/patients', '/appointments', '/claims'] as const satisfies readonly ScreenPath[];

export function canSearch(role: Role): boolean {
  return SEARCHABLE_SCREENS.some((screen) => canOpen(role, screen));
}

/**
 * Roles that sign in without a second factor: none. Sign-in asks every account for its one-time code, an
 * admin-created guest account included, and the Compliance screen states this same list.
 */
export const MFA_EXEMPT_ROLES: readonly Role[] = [];

export function requiresMfa(role: Role): boolean {
  return !MFA_EXEMPT_ROLES.includes(role);
}

// ---------------------------------------------------------------------------------------------
// PHI masking (docs/access.md has the table of who sees what). Applied by the server before data
// leaves it; exports and prints use the same helper.

export const MASKED_FIELDS = ['dob', 'phone', 'mrn', 'notes', 'allergies', 'meds'] as const;
export type MaskedField = (typeof MASKED_FIELDS)[number];

export const FIELD_VISIBLE_TO: Record<MaskedField, readonly Role[]> = {
  dob: ['doctor', 'billing_admin', 'admin'],
  phone: ['nurse_manager', 'doctor', 'billing_admin', 'admin'],
  mrn: ['nurse_manager', 'doctor', 'admin'],
  notes: ['doctor', 'admin'],
  allergies: ['nurse_manager', 'doctor', 'admin'],
  meds: ['nurse_manager', 'doctor', 'admin'],
};

export const RESTRICTED = '[ACCESS RESTRICTED]';

export function seesField(role: Role, field: MaskedField): boolean {
  return FIELD_VISIBLE_TO[field].includes(role);
}

/** Whether any patient field is masked for this role (drives the '(PHI is masked for your role)' note). */
export function seesMaskedPhi(role: Role): boolean {
  return MASKED_FIELDS.some((f) => !seesField(role, f));
}

export function maskText(field: Exclude<MaskedField, 'allergies' | 'meds'>, value: string, role: Role): string {
  if (value === '' || seesField(role, field)) return value;
  switch (field) {
    case 'dob': {
      const year = /^(\d{4})/.exec(value)?.[1] ?? '';
      return `XX-XX-${year}`;
    }
    case 'phone': {
      const digits = value.replace(/\D/g, '');
      return digits.length < 4 ? '***' : `***-***-${digits.slice(-4)}`;
    }
    case 'mrn':
      return maskIdentifier(value);
    case 'notes':
      return RESTRICTED;
  }
}

/** Whether a role sees coverages' member ids whole (forms leave a masked one out of what they send back). */
export function seesMemberId(role: Role): boolean {
  return can(role, 'claims:write');
}

/**
 * A coverage's member id: whoever may edit claims bills with it and quotes it to payers, so sees it whole;
 * anyone else who reads a claim sees its last two characters, as a masked MRN shows.
 */
export function maskMemberId(value: string, role: Role): string {
  return seesMemberId(role) ? value : maskIdentifier(value);
}

/**
 * Whether a role sees a patient's street and ZIP: those who register insurance and bill with it (a claim
 * carries the address); others who read a patient's insurance (the doctor) see the city and state only.
 */
export function seesHomeAddress(role: Role): boolean {
  return can(role, 'coverage:write');
}

/** A street or ZIP as the role may see it: whole, or RESTRICTED (a null, nothing on file, stays null). */
export function maskHomeAddressPart(value: string | null, role: Role): string | null {
  return value === null || seesHomeAddress(role) ? value : RESTRICTED;
}

/** An identifier (MRN, member id) with all but its last two characters hidden. */
function maskIdentifier(value: string): string {
  return value.length <= 2 ? value.replace(/./g, '*') : '*'.repeat(value.length - 2) + value.slice(-2);
}

export function maskList(field: 'allergies' | 'meds', values: readonly string[], role: Role): string[] {
  if (values.length === 0 || seesField(role, field)) return [...values];
  return [RESTRICTED];
}

export interface PatientPhi {
  dob: string;
  phone: string;
  mrn: string;
  notes: string;
  allergies: string[];
  meds: string[];
}

/** Masks every PHI field a record carries; fields the record does not have stay absent. */
export function maskPatient<T extends Partial<PatientPhi>>(record: T, role: Role): T {
  const out: T = { ...record };
  if (record.dob !== undefined) out.dob = maskText('dob', record.dob, role);
  if (record.phone !== undefined) out.phone = maskText('phone', record.phone, role);
  if (record.mrn !== undefined) out.mrn = maskText('mrn', record.mrn, role);
  if (record.notes !== undefined) out.notes = maskText('notes', record.notes, role);
  if (record.allergies !== undefined) out.allergies = maskList('allergies', record.allergies, role);
  if (record.meds !== undefined) out.meds = maskList('meds', record.meds, role);
  return out;
}
