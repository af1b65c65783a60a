import type { Requirement } from './rtm.schema';

/**
 * The fixed list of 20 requirements, each linked to the design module that implements it,
 * the test case that verifies it (server/rtm.verify.ts, one verifier per test id) and the KPI or metric
 * its result is measured in.
 */
export const REQUIREMENTS = [
  {
    reqId: 'R 001',
    description: 'Role-based data scope: a patient user sees only their own appointments and claims',
    designModule: 'portal.queries (scope by session patient)',
    testId: 'TC-SCOPE-001',
    kpiMetric: 'Records outside scope (target 0)',
  },
  {
    reqId: 'R 002',
    description: 'PHI masking by role: dob, phone, MRN, notes, allergies and medications masked as the policy says',
    designModule: 'access.ts maskPatient, patients.queries',
    testId: 'TC-PHI-002',
    kpiMetric: 'Masking accuracy',
  },
  {
    reqId: 'R 003',
    description: 'Multi-factor sign-in for high-privilege users (admin, doctor, billing admin, nurse manager)',
    designModule: 'auth.routes (password, then one-time code)',
    testId: 'TC-MFA-003',
    kpiMetric: 'High-privilege accounts under MFA',
  },
  {
    reqId: 'R 004',
    description: 'Session timeout after inactivity (at most 15 minutes)',
    designModule: 'auth.queries resolveSession',
    testId: 'TC-SESS-004',
    kpiMetric: 'Idle timeout',
  },
  {
    reqId: 'R 005',
    description: 'Audit logging of all actions: every write is audited in the same transaction',
    designModule: 'audit.queries record',
    testId: 'TC-AUD-005',
    kpiMetric: 'Write actions audited',
  },
  {
    reqId: 'R 006',
    description: 'Tamper-evident audit trail: append-only and hash-chained',
    designModule: 'audit.queries verifyChain, append-only trigger',
    testId: 'TC-AUD-006',
    kpiMetric: 'Audit entries verified',
  },
  {
    reqId: 'R 007',
    description: '12-hour appointment time display (13:30 shows as 1:30 PM)',
    designModule: 'appointments.schema formatTime12',
    testId: 'TC-UI-007',
    kpiMetric: 'Times formatted correctly',
  },
  {
    reqId: 'R 008',
    description: 'High-contrast mode available and saved per user',
    designModule: 'settings (user_settings.high_contrast), styles.css .high-contrast',
    testId: 'TC-A11Y-008',
    kpiMetric: 'Accessibility score (WCAG contrast)',
  },
  {
    reqId: 'R 009',
    description: 'KPI accuracy: each KPI computed with its standard formula',
    designModule: 'analytics.queries computeKpis',
    testId: 'TC-KPI-009',
    kpiMetric: 'KPI accuracy',
  },
  {
    reqId: 'R 010',
    description: 'Denial tracking: denied claims counted by reason code, never CO-45 or PR-*',
    designModule: 'analytics.queries computeDenialsByReason',
    testId: 'TC-DEN-010',
    kpiMetric: 'Denied claims accounted for',
  },
  {
    reqId: 'R 011',
    description: 'A/R aging: outstanding A/R by age bucket, reconciled with the total',
    designModule: 'analytics.queries computeArAging',
    testId: 'TC-AR-011',
    kpiMetric: 'A/R reconciled',
  },
  {
    reqId: 'R 012',
    description: 'Authorizations pending more than 5 days are flagged At Risk',
    designModule: 'authorizations.queries',
    testId: 'TC-AUTH-012',
    kpiMetric: 'At-risk flags correct',
  },
  {
    reqId: 'R 013',
    description: 'Overdue follow-ups: follow-up due date passed and no later visit booked',
    designModule: 'worklist.queries listOverdueFollowUps',
    testId: 'TC-WL-013',
    kpiMetric: 'Listed follow-ups truly overdue',
  },
  {
    reqId: 'R 014',
    description: 'CSV exports neutralise formula cells (CSV injection)',
    designModule: 'shared/csv.ts neutraliseCell',
    testId: 'TC-CSV-014',
    kpiMetric: 'Formula cells neutralised',
  },
  {
    reqId: 'R 015',
    description: 'Global search covers only the screens the role may open',
    designModule: 'search.routes, access.ts canOpen',
    testId: 'TC-SRCH-015',
    kpiMetric: 'Out-of-scope result groups (target 0)',
  },
  {
    reqId: 'R 016',
    description: 'Route access per role follows the route table',
    designModule: 'access.ts SCREENS_BY_ROLE',
    testId: 'TC-RBAC-016',
    kpiMetric: 'RBAC coverage',
  },
  {
    reqId: 'R 017',
    description: 'No PHI endpoint answers a caller without a session',
    designModule: 'server/plugins/access.ts (access gate)',
    testId: 'TC-SEC-017',
    kpiMetric: 'Anonymous PHI calls refused',
  },
  {
    reqId: 'R 018',
    description: 'Cross-site requests that change state are refused (CSRF)',
    designModule: 'server/plugins/access.ts (origin and token check)',
    testId: 'TC-SEC-018',
    kpiMetric: 'Cross-site writes refused',
  },
  {
    reqId: 'R 019',
    description: 'Passwords are stored only as argon2id hashes',
    designModule: 'auth.passwords',
    testId: 'TC-AUTH-019',
    kpiMetric: 'Accounts with argon2id hashes',
  },
  {
    reqId: 'R 020',
    description: 'Sign-in locks for 60 seconds after 5 wrong one-time codes',
    designModule: 'auth.queries registerWrongCode',
    testId: 'TC-AUTH-020',
    kpiMetric: 'Lockout after 5 wrong codes',
  },
] as const satisfies readonly Requirement[];

export type ReqId = (typeof REQUIREMENTS)[number]['reqId'];
