/**
 * Unit checks of the live code: the access policy, PHI masking, CSV neutralising, the
 * period helpers, the 12-hour time format and the KPI formulas on a fixed fixture. Each expectation is
 * written out here from the product's rules (docs/access.md, docs/kpis.md), independently of the code it checks.
 */
import {
  can,
  canOpen,
  maskPatient,
  PERMISSIONS,
  requiresMfa,
  RESTRICTED,
  ROLES,
  rolesWith,
  SCREENS_BY_ROLE,
  type PatientPhi,
  type Role,
} from '@/shared/access';
import { neutraliseCell } from '@/shared/csv';
import { periodEndingToday, previousPeriod } from '@/shared/period';
import { formatTime12 } from '@/features/appointments/appointments.schema';
import type { Db } from '@/server/db/types';
import { compareKpiFixture, sameValue, EXPECTED_ROUTE_TABLE } from './selftest.queries';
import { expectThat, mismatches, type SelfCheck } from './selftest.runner';

const ALL_ROUTES = [
  '/home',
  '/patient-portal',
  '/patients',
  '/appointments',
  '/claims',
  '/kpis',
  '/analytics',
  '/billing',
  '/authorizations',
  '/compliance',
  '/audit',
  '/overdue-followups',
  '/rtm',
  '/settings',
];

/** A sample patient and, per role, what the PHI masking rules (docs/access.md) say that role receives. */
export const SAMPLE_PHI: PatientPhi = {
  dob: '1984-03-17',
  phone: '(555) 214-7788',
  mrn: 'MRN-100482',
  notes: 'Follow up on A1C in 3 months',
  allergies: ['Penicillin'],
  meds: ['Metformin 500mg'],
};
const MASKED: PatientPhi = {
  dob: 'XX-XX-1984',
  phone: '***-***-7788',
  mrn: '********82',
  notes: RESTRICTED,
  allergies: [RESTRICTED],
  meds: [RESTRICTED],
};
const pick = (visible: (keyof PatientPhi)[]): PatientPhi => ({
  dob: visible.includes('dob') ? SAMPLE_PHI.dob : MASKED.dob,
  phone: visible.includes('phone') ? SAMPLE_PHI.phone : MASKED.phone,
  mrn: visible.includes('mrn') ? SAMPLE_PHI.mrn : MASKED.mrn,
  notes: visible.includes('notes') ? SAMPLE_PHI.notes : MASKED.notes,
  allergies: visible.includes('allergies') ? SAMPLE_PHI.allergies : MASKED.allergies,
  meds: visible.includes('meds') ? SAMPLE_PHI.meds : MASKED.meds,
});
export const EXPECTED_MASKING: Record<Role, PatientPhi> = {
  guest: pick([]),
  patient: pick([]),
  nurse_manager: pick(['phone', 'mrn', 'allergies', 'meds']),
  doctor: pick(['dob', 'phone', 'mrn', 'notes', 'allergies', 'meds']),
  billing_admin: pick(['dob', 'phone']),
  admin: pick(['dob', 'phone', 'mrn', 'notes', 'allergies', 'meds']),
};

export function unitChecks(db: Db): SelfCheck[] {
  return [
    {
      testId: 'UT-001',
      module: 'access',
      description: "Every role's screens match the route table (docs/access.md), and '/' and sub-paths follow them",
      run: async () => {
        const problems: string[] = [];
        for (const role of ROLES) {
          const actual = [...SCREENS_BY_ROLE[role]].sort();
          const expected = [...EXPECTED_ROUTE_TABLE[role]].sort();
          if (!sameValue(actual, expected)) problems.push(`${role} opens ${actual.join(', ')}`);
          for (const route of ALL_ROUTES) {
            const allowed = expected.includes(route);
            if (canOpen(role, route) !== allowed) problems.push(`${role} ${allowed ? 'cannot' : 'can'} open ${route}`);
            if (canOpen(role, `${route}/sub`) !== allowed) problems.push(`${role} sub-path of ${route}`);
          }
          if (canOpen(role, '/') !== expected.includes('/home')) problems.push(`${role} and '/'`);
          if (canOpen(role, '/no-such-screen')) problems.push(`${role} opens an unknown path`);
        }
        mismatches(problems);
      },
    },
    {
      testId: 'UT-002',
      module: 'access',
      description:
        'API permissions derive from screens: a role holds a permission only if it opens a screen needing it',
      run: async () => {
        // Spot checks written from the API permission rule (docs/access.md), then the derivation itself for every permission.
        const expected: [string, Role[]][] = [
          ['patients:read', ['nurse_manager', 'doctor', 'admin']],
          ['claims:read', ['doctor', 'billing_admin', 'admin']],
          ['audit:read', ['billing_admin', 'admin']],
          ['rtm:run', ['doctor', 'billing_admin', 'admin']],
          ['system:admin', ['admin']],
        ];
        const problems: string[] = [];
        for (const [permission, roles] of expected) {
          const actual = rolesWith(permission as (typeof PERMISSIONS)[number]);
          if (!sameValue([...actual].sort(), [...roles].sort())) problems.push(`${permission} → ${actual.join(', ')}`);
        }
        for (const permission of PERMISSIONS) {
          for (const role of ROLES) {
            if (can(role, permission) !== rolesWith(permission).includes(role)) problems.push(`${role} ${permission}`);
          }
        }
        mismatches(problems);
      },
    },
    {
      testId: 'UT-003',
      module: 'access',
      description: 'Guest and patient get only what they should: no PHI permission, MFA for every role but guest',
      run: async () => {
        const problems: string[] = [];
        const guest = PERMISSIONS.filter((p) => can('guest', p)).sort();
        const patient = PERMISSIONS.filter((p) => can('patient', p)).sort();
        if (!sameValue(guest, ['guest:pay', 'settings:own'])) problems.push(`guest holds ${guest.join(', ')}`);
        if (!sameValue(patient, ['account:password', 'portal:pay', 'portal:read', 'settings:own'])) {
          problems.push(`patient holds ${patient.join(', ')}`);
        }
        for (const role of ROLES) {
          if (!requiresMfa(role)) problems.push(`MFA for ${role}`);
        }
        mismatches(problems);
      },
    },
    {
      testId: 'UT-004',
      module: 'masking',
      description:
        'maskPatient gives each role exactly its view of a sample patient in the PHI masking rules (docs/access.md)',
      run: async () => {
        const problems: string[] = [];
        for (const role of ROLES) {
          const actual = maskPatient(SAMPLE_PHI, role);
          for (const field of Object.keys(SAMPLE_PHI) as (keyof PatientPhi)[]) {
            if (!sameValue(actual[field], EXPECTED_MASKING[role][field])) {
              problems.push(`${role} ${field}: ${JSON.stringify(actual[field])}`);
            }
          }
        }
        const empty = maskPatient({ dob: '', phone: '', mrn: '', notes: '', allergies: [], meds: [] }, 'guest');
        if (!sameValue(empty, { dob: '', phone: '', mrn: '', notes: '', allergies: [], meds: [] })) {
          problems.push('empty values do not stay empty');
        }
        if (maskPatient({ phone: '12' }, 'guest').phone !== '***') problems.push('a short phone is not ***');
        mismatches(problems);
      },
    },
    {
      testId: 'UT-005',
      module: 'csv',
      description: 'CSV cells starting with = + - @, a tab or a carriage return are neutralised; others are unchanged',
      run: async () => {
        const cases: [string | number | null, string][] = [
          ['=SUM(A1:A3)', "'=SUM(A1:A3)"],
          ['+1+1', "'+1+1"],
          ['-2+3', "'-2+3"],
          ['@cmd', "'@cmd"],
          ['\tx', "'\tx"],
          ['\rx', "'\rx"],
          ['Maria Lopez', 'Maria Lopez'],
          [42, '42'],
          [null, ''],
        ];
        mismatches(
          cases
            .filter(([input, expected]) => neutraliseCell(input) !== expected)
            .map(([input]) => `${JSON.stringify(input)} → ${JSON.stringify(neutraliseCell(input))}`),
        );
      },
    },
    {
      testId: 'UT-006',
      module: 'period',
      description: 'A period of N days ends today with both ends included; the previous period is the N days before',
      run: async () => {
        const now = new Date('2026-11-22T15:00:00Z');
        const p30 = periodEndingToday(now, 30);
        expectThat(
          sameValue(p30, { days: 30, start: '2026-10-24', end: '2026-11-22' }),
          `30 days: ${JSON.stringify(p30)}`,
        );
        const prev = previousPeriod(p30);
        expectThat(
          sameValue(prev, { days: 30, start: '2026-09-24', end: '2026-10-23' }),
          `previous: ${JSON.stringify(prev)}`,
        );
        const leap = periodEndingToday(new Date('2028-03-01T12:00:00Z'), 7);
        expectThat(
          sameValue(leap, { days: 7, start: '2028-02-24', end: '2028-03-01' }),
          `leap: ${JSON.stringify(leap)}`,
        );
      },
    },
    {
      testId: 'UT-007',
      module: 'appointments',
      description: 'Appointment times show in 12-hour format (13:30 → 1:30 PM)',
      run: async () => {
        const cases: [string, string][] = [
          ['13:30', '1:30 PM'],
          ['00:15', '12:15 AM'],
          ['09:00', '9:00 AM'],
          ['12:00', '12:00 PM'],
          ['23:45', '11:45 PM'],
        ];
        mismatches(cases.filter(([t, want]) => formatTime12(t) !== want).map(([t]) => `${t} → ${formatTime12(t)}`));
      },
    },
    {
      testId: 'UT-008',
      module: 'analytics',
      description: 'KPI formulas on a fixed fixture (rolled back) give the hand-computed values',
      run: async () => {
        const comparisons = await compareKpiFixture(db);
        const kpis = comparisons.filter((c) => c.name !== 'arAging' && c.name !== 'denialsByReason');
        expectThat(kpis.length >= 10, `only ${kpis.length} KPIs compared`);
        mismatches(
          kpis
            .filter((c) => !sameValue(c.actual, c.expected))
            .map((c) => `${c.name}: expected ${JSON.stringify(c.expected)}, got ${JSON.stringify(c.actual)}`),
        );
      },
    },
    {
      testId: 'UT-009',
      module: 'analytics',
      description: 'A/R aging buckets and denials by reason on the same fixture match the hand-computed values',
      run: async () => {
        const comparisons = await compareKpiFixture(db);
        mismatches(
          comparisons
            .filter((c) => (c.name === 'arAging' || c.name === 'denialsByReason') && !sameValue(c.actual, c.expected))
            .map((c) => `${c.name}: expected ${JSON.stringify(c.expected)}, got ${JSON.stringify(c.actual)}`),
        );
      },
    },
  ];
}
