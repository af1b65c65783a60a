import { hipaaAuditItems, wcagChecks } from '@/features/compliance/server/compliance.table';
import type { Tx } from '../types';

type Safeguard = 'Administrative' | 'Physical' | 'Technical';
type ItemStatus = 'Compliant' | 'Partial' | 'Not compliant';

/**
 * The practice's HIPAA Security Rule mock audit: every standard and implementation specification of
 * 45 CFR 164.308 (administrative), 164.310 (physical) and 164.312 (technical). The Partial findings are
 * the ones the compliance gaps (demo-data.ts COMPLIANCE_GAPS) remediate.
 */
export const HIPAA_AUDIT_ITEMS: readonly {
  reference: string;
  safeguard: Safeguard;
  requirement: string;
  status: ItemStatus;
  evidence: string;
}[] = [
  // Administrative safeguards, 164.308
  {
    reference: '164.308(a)(1)(ii)(A)',
    safeguard: 'Administrative',
    requirement: 'Risk analysis',
    status: 'Compliant',
    evidence: 'Annual risk analysis on file; the billing-workflow addendum is tracked as a gap.',
  },
  {
    reference: '164.308(a)(1)(ii)(B)',
    safeguard: 'Administrative',
    requirement: 'Risk management',
    status: 'Compliant',
    evidence: 'Risk register with owners and due dates (the compliance gaps list).',
  },
  {
    reference: '164.308(a)(1)(ii)(C)',
    safeguard: 'Administrative',
    requirement: 'Sanction policy',
    status: 'Compliant',
    evidence: 'Sanction policy signed by all workforce members.',
  },
  {
    reference: '164.308(a)(1)(ii)(D)',
    safeguard: 'Administrative',
    requirement: 'Information system activity review',
    status: 'Compliant',
    evidence: 'Audit Log screen reviewed by the billing admin; entries hash-chained.',
  },
  {
    reference: '164.308(a)(2)',
    safeguard: 'Administrative',
    requirement: 'Assigned security responsibility',
    status: 'Compliant',
    evidence: 'Security officer named in the policy manual (IT Lead).',
  },
  {
    reference: '164.308(a)(3)(ii)(A)',
    safeguard: 'Administrative',
    requirement: 'Authorization and/or supervision',
    status: 'Compliant',
    evidence: 'Role-based access from one policy; roles assigned by the admin.',
  },
  {
    reference: '164.308(a)(3)(ii)(B)',
    safeguard: 'Administrative',
    requirement: 'Workforce clearance procedure',
    status: 'Compliant',
    evidence: 'Background checks recorded in HR files before access is granted.',
  },
  {
    reference: '164.308(a)(3)(ii)(C)',
    safeguard: 'Administrative',
    requirement: 'Termination procedures',
    status: 'Compliant',
    evidence: 'Deactivating a user ends their sessions at once.',
  },
  {
    reference: '164.308(a)(4)(ii)(A)',
    safeguard: 'Administrative',
    requirement: 'Isolating health care clearinghouse functions',
    status: 'Compliant',
    evidence: 'Not applicable: the practice performs no clearinghouse functions (documented).',
  },
  {
    reference: '164.308(a)(4)(ii)(B)',
    safeguard: 'Administrative',
    requirement: 'Access authorization',
    status: 'Compliant',
    evidence: 'Access per role from the permission matrix on this screen.',
  },
  {
    reference: '164.308(a)(4)(ii)(C)',
    safeguard: 'Administrative',
    requirement: 'Access establishment and modification',
    status: 'Compliant',
    evidence: 'User and role changes are made by the admin and audited.',
  },
  {
    reference: '164.308(a)(5)(ii)(A)',
    safeguard: 'Administrative',
    requirement: 'Security reminders',
    status: 'Compliant',
    evidence: 'Quarterly security reminders sent by the practice manager.',
  },
  {
    reference: '164.308(a)(5)(ii)(B)',
    safeguard: 'Administrative',
    requirement: 'Protection from malicious software',
    status: 'Compliant',
    evidence: 'Endpoint protection on all practice workstations.',
  },
  {
    reference: '164.308(a)(5)(ii)(C)',
    safeguard: 'Administrative',
    requirement: 'Log-in monitoring',
    status: 'Compliant',
    evidence: 'Failed sign-ins and lockouts are audited.',
  },
  {
    reference: '164.308(a)(5)(ii)(D)',
    safeguard: 'Administrative',
    requirement: 'Password management',
    status: 'Compliant',
    evidence: 'Passwords of at least 12 characters, hashed with argon2id.',
  },
  {
    reference: '164.308(a)(6)(ii)',
    safeguard: 'Administrative',
    requirement: 'Security incident response and reporting',
    status: 'Compliant',
    evidence: 'Incident response plan with breach notification steps.',
  },
  {
    reference: '164.308(a)(7)(ii)(A)',
    safeguard: 'Administrative',
    requirement: 'Data backup plan',
    status: 'Compliant',
    evidence: 'Nightly database backups, restore tested quarterly.',
  },
  {
    reference: '164.308(a)(7)(ii)(B)',
    safeguard: 'Administrative',
    requirement: 'Disaster recovery plan',
    status: 'Compliant',
    evidence: 'Recovery plan with a 24-hour restore objective.',
  },
  {
    reference: '164.308(a)(7)(ii)(C)',
    safeguard: 'Administrative',
    requirement: 'Emergency mode operation plan',
    status: 'Compliant',
    evidence: 'Paper downtime procedures at the front desk.',
  },
  {
    reference: '164.308(a)(7)(ii)(D)',
    safeguard: 'Administrative',
    requirement: 'Testing and revision procedures',
    status: 'Compliant',
    evidence: 'Contingency plan exercised annually.',
  },
  {
    reference: '164.308(a)(7)(ii)(E)',
    safeguard: 'Administrative',
    requirement: 'Applications and data criticality analysis',
    status: 'Compliant',
    evidence: 'Systems ranked by criticality in the contingency plan.',
  },
  {
    reference: '164.308(a)(8)',
    safeguard: 'Administrative',
    requirement: 'Evaluation',
    status: 'Compliant',
    evidence: 'This mock audit, repeated yearly.',
  },
  {
    reference: '164.308(b)(1)',
    safeguard: 'Administrative',
    requirement: 'Business associate contracts and other arrangements',
    status: 'Partial',
    evidence: 'BAAs signed with the clearinghouse and hosting provider; the statement print vendor is missing one.',
  },
  // Physical safeguards, 164.310
  {
    reference: '164.310(a)(2)(i)',
    safeguard: 'Physical',
    requirement: 'Contingency operations',
    status: 'Compliant',
    evidence: 'Facility access during an emergency covered in the contingency plan.',
  },
  {
    reference: '164.310(a)(2)(ii)',
    safeguard: 'Physical',
    requirement: 'Facility security plan',
    status: 'Compliant',
    evidence: 'Locked server room, alarmed after hours.',
  },
  {
    reference: '164.310(a)(2)(iii)',
    safeguard: 'Physical',
    requirement: 'Access control and validation procedures',
    status: 'Compliant',
    evidence: 'Badge access to the server room; log review cadence tracked as a gap.',
  },
  {
    reference: '164.310(a)(2)(iv)',
    safeguard: 'Physical',
    requirement: 'Maintenance records',
    status: 'Compliant',
    evidence: 'Repairs to doors and locks logged by Facilities.',
  },
  {
    reference: '164.310(b)',
    safeguard: 'Physical',
    requirement: 'Workstation use',
    status: 'Compliant',
    evidence: 'Workstation use policy acknowledged by staff.',
  },
  {
    reference: '164.310(c)',
    safeguard: 'Physical',
    requirement: 'Workstation security',
    status: 'Compliant',
    evidence: 'Screens lock when idle; exam-room privacy screens being fitted (gap).',
  },
  {
    reference: '164.310(d)(2)(i)',
    safeguard: 'Physical',
    requirement: 'Disposal',
    status: 'Compliant',
    evidence: 'Drives shredded by a certified vendor, certificates kept.',
  },
  {
    reference: '164.310(d)(2)(ii)',
    safeguard: 'Physical',
    requirement: 'Media re-use',
    status: 'Compliant',
    evidence: 'Media wiped before re-use.',
  },
  {
    reference: '164.310(d)(2)(iii)',
    safeguard: 'Physical',
    requirement: 'Accountability',
    status: 'Compliant',
    evidence: 'Hardware inventory with custodians.',
  },
  {
    reference: '164.310(d)(2)(iv)',
    safeguard: 'Physical',
    requirement: 'Data backup and storage',
    status: 'Compliant',
    evidence: 'Exact copy made before equipment is moved.',
  },
  // Technical safeguards, 164.312
  {
    reference: '164.312(a)(2)(i)',
    safeguard: 'Technical',
    requirement: 'Unique user identification',
    status: 'Compliant',
    evidence: 'One account per person; actions audited by account.',
  },
  {
    reference: '164.312(a)(2)(ii)',
    safeguard: 'Technical',
    requirement: 'Emergency access procedure',
    status: 'Compliant',
    evidence: 'Break-glass admin account sealed with the practice manager.',
  },
  {
    reference: '164.312(a)(2)(iii)',
    safeguard: 'Technical',
    requirement: 'Automatic logoff',
    status: 'Compliant',
    evidence: 'Sessions end after 15 minutes idle; front-desk PCs fixed (gap closed).',
  },
  {
    reference: '164.312(a)(2)(iv)',
    safeguard: 'Technical',
    requirement: 'Encryption and decryption',
    status: 'Partial',
    evidence: 'Backup drives not yet verified as encrypted (gap).',
  },
  {
    reference: '164.312(b)',
    safeguard: 'Technical',
    requirement: 'Audit controls',
    status: 'Partial',
    evidence: 'Append-only, hash-chained audit log; the review cadence is not documented (gap).',
  },
  {
    reference: '164.312(c)(2)',
    safeguard: 'Technical',
    requirement: 'Mechanism to authenticate electronic PHI',
    status: 'Compliant',
    evidence: 'Database constraints and audited writes; changes traceable to a user.',
  },
  {
    reference: '164.312(d)',
    safeguard: 'Technical',
    requirement: 'Person or entity authentication',
    status: 'Compliant',
    evidence: 'Password plus a one-time code (MFA) for every staff and patient account.',
  },
  {
    reference: '164.312(e)(2)(i)',
    safeguard: 'Technical',
    requirement: 'Transmission integrity controls',
    status: 'Compliant',
    evidence: 'HTTPS with HSTS in production; CSRF protection on every write.',
  },
  {
    reference: '164.312(e)(2)(ii)',
    safeguard: 'Technical',
    requirement: 'Transmission encryption',
    status: 'Compliant',
    evidence: 'TLS terminated at the proxy; secure cookies when served over HTTPS.',
  },
];

type WcagStatus = 'Pass' | 'Partial' | 'Fail';

/** WCAG 2.1 A/AA criteria checked on the product's own screens, with what was found. */
export const WCAG_CHECKS: readonly {
  criterion: string;
  title: string;
  level: 'A' | 'AA';
  status: WcagStatus;
  note: string;
}[] = [
  {
    criterion: '1.1.1',
    title: 'Non-text content',
    level: 'A',
    status: 'Pass',
    note: 'Icons are hidden or labelled; every chart has a data table for screen readers.',
  },
  {
    criterion: '1.3.1',
    title: 'Info and relationships',
    level: 'A',
    status: 'Pass',
    note: 'Tables use header cells; form fields have labels.',
  },
  {
    criterion: '1.4.1',
    title: 'Use of color',
    level: 'A',
    status: 'Pass',
    note: 'Statuses are written as text in their badges, not shown by colour alone.',
  },
  {
    criterion: '1.4.3',
    title: 'Contrast (minimum)',
    level: 'AA',
    status: 'Pass',
    note: 'axe-core finds no contrast violations; high contrast mode available.',
  },
  {
    criterion: '1.4.4',
    title: 'Resize text',
    level: 'AA',
    status: 'Pass',
    note: 'Font size setting (14, 16, 18 px) and browser zoom to 200%.',
  },
  {
    criterion: '1.4.10',
    title: 'Reflow',
    level: 'AA',
    status: 'Partial',
    note: 'Wide tables scroll sideways on narrow screens.',
  },
  {
    criterion: '1.4.11',
    title: 'Non-text contrast',
    level: 'AA',
    status: 'Pass',
    note: 'Focus rings and control borders meet 3:1.',
  },
  {
    criterion: '2.1.1',
    title: 'Keyboard',
    level: 'A',
    status: 'Pass',
    note: 'Every control is reachable and usable from the keyboard.',
  },
  {
    criterion: '2.1.2',
    title: 'No keyboard trap',
    level: 'A',
    status: 'Pass',
    note: 'Dialogs trap focus while open and return it on close.',
  },
  {
    criterion: '2.4.1',
    title: 'Bypass blocks',
    level: 'A',
    status: 'Partial',
    note: 'Main and navigation landmarks exist; no skip link yet.',
  },
  { criterion: '2.4.3', title: 'Focus order', level: 'A', status: 'Pass', note: 'Focus follows the reading order.' },
  {
    criterion: '2.4.6',
    title: 'Headings and labels',
    level: 'AA',
    status: 'Pass',
    note: 'Each screen has one title heading; cards are headed.',
  },
  {
    criterion: '2.4.7',
    title: 'Focus visible',
    level: 'AA',
    status: 'Pass',
    note: 'Visible focus ring on every control; thicker in high contrast mode.',
  },
  {
    criterion: '3.1.1',
    title: 'Language of page',
    level: 'A',
    status: 'Pass',
    note: 'The document declares lang="en".',
  },
  {
    criterion: '3.3.1',
    title: 'Error identification',
    level: 'A',
    status: 'Pass',
    note: 'The field in error is named with the rule it breaks.',
  },
  {
    criterion: '3.3.2',
    title: 'Labels or instructions',
    level: 'A',
    status: 'Pass',
    note: 'Every form field has a visible label.',
  },
  {
    criterion: '4.1.2',
    title: 'Name, role, value',
    level: 'A',
    status: 'Pass',
    note: 'Radix primitives expose roles and states.',
  },
  {
    criterion: '4.1.3',
    title: 'Status messages',
    level: 'AA',
    status: 'Pass',
    note: 'Toasts and table footers are announced through live regions.',
  },
];

/**
 * The compliance programme (mock audit and WCAG checklist) is the practice's own record, not demo data:
 * inserted once, kept by a reset or a re-seed, so an admin's edits survive. Rows already present stay.
 */
export async function seedComplianceProgramme(tx: Tx): Promise<{ hipaaAuditItems: number; wcagChecks: number }> {
  const items = await tx
    .insert(hipaaAuditItems)
    .values([...HIPAA_AUDIT_ITEMS])
    .onConflictDoNothing({ target: hipaaAuditItems.reference })
    .returning({ id: hipaaAuditItems.id });
  const checks = await tx
    .insert(wcagChecks)
    .values([...WCAG_CHECKS])
    .onConflictDoNothing({ target: wcagChecks.criterion })
    .returning({ id: wcagChecks.id });
  return { hipaaAuditItems: items.length, wcagChecks: checks.length };
}
