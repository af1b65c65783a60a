/**
 * One verifier per requirement of the traceability matrix: each checks the live system,
 * read-only, and reports what it measured. Checks that must write to observe behaviour (an audit row
 * appearing, a session expiring, a lock engaging) do so inside a transaction that is always rolled back.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  canOpen,
  maskPatient,
  MASKED_FIELDS,
  requiresMfa,
  ROLES,
  SCREENS,
  SCREENS_BY_ROLE,
  seesField,
  type Permission,
  type Role,
} from '@/shared/access';
import { today } from '@/shared/api';
import { neutraliseCell } from '@/shared/csv';
import { periodEndingToday } from '@/shared/period';
import { computeArAging, computeDenialsByReason, computeKpis } from '@/features/analytics/server/analytics.queries';
import { formatTime12 } from '@/features/appointments/appointments.schema';
import { updateAppointment } from '@/features/appointments/server/appointments.queries';
import { appointments } from '@/features/appointments/server/appointments.table';
import { appendStagedNow, verifyChain } from '@/features/audit/server/audit.queries';
import { auditLog } from '@/features/audit/server/audit.table';
import {
  createChallenge,
  createSession,
  lockoutOf,
  MFA_LOCK_SECONDS,
  MFA_MAX_ATTEMPTS,
  registerWrongCode,
  resolveSession,
  CHALLENGE_TTL_MS,
} from '@/features/auth/server/auth.queries';
import { users } from '@/features/auth/server/auth.table';
import { authorizationQuerySchema } from '@/features/authorizations/authorizations.schema';
import { decideAuthorization, listAuthorizations } from '@/features/authorizations/server/authorizations.queries';
import { authorizations } from '@/features/authorizations/server/authorizations.table';
import { appealClaim } from '@/features/claims/server/claims.queries';
import { claims } from '@/features/claims/server/claims.table';
import { patientListQuerySchema } from '@/features/patients/patients.schema';
import { createPatient, listPatients } from '@/features/patients/server/patients.queries';
import { patients } from '@/features/patients/server/patients.table';
import { getPortalAppointments, getPortalClaims } from '@/features/portal/server/portal.queries';
import { userSettings } from '@/features/settings/server/settings.table';
import {
  compareKpiFixture,
  demoUser,
  inRolledBackTransaction,
  sameValue,
  EXPECTED_ROUTE_TABLE,
  withRoleSessions,
} from '@/features/selftest/server/selftest.queries';
import { listOverdueFollowUps } from '@/features/worklist/server/worklist.queries';
import { encounters } from '@/features/worklist/server/worklist.table';
import type { AppDeps, RequestContext } from '@/server/context';
import { SESSION_COOKIE } from '@/server/plugins/access';
import type { ReqId } from '../rtm.requirements';

export interface Measured {
  passed: boolean;
  result: string;
  detail: string;
}

export interface VerifyEnv {
  app: FastifyInstance;
  deps: AppDeps;
  /** The caller: writes made in rolled-back transactions are made as them. */
  ctx: RequestContext;
}

/** A share as a badge. Rounded down, so that anything short of all never shows as 100%. */
export function sharePercent(numerator: number, denominator: number): string {
  if (denominator === 0) return 'n/a';
  return `${Math.floor((1000 * numerator) / denominator) / 10}%`;
}

function byShare(good: number, total: number, detail: string, problems: string[] = []): Measured {
  const passed = total > 0 && good === total && problems.length === 0;
  const why = problems.length > 0 ? ` Problems: ${problems.slice(0, 3).join('; ')}` : '';
  return { passed, result: sharePercent(good, total), detail: `${detail}${why}` };
}

// ---------------------------------------------------------------------------------------------
// R 001 role-based data scope

async function verifyDataScope({ deps }: VerifyEnv): Promise<Measured> {
  const user = await demoUser(deps.db, 'patient');
  const ownId = user.patientId;
  if (ownId === null) return { passed: false, result: 'FAIL', detail: 'The demo patient is linked to no record.' };
  const ctx = { user, now: deps.clock() };
  // The portal reads are audited as PHI reads; as a verification they are rolled back.
  const { claimIds, appointmentIds } = await inRolledBackTransaction(deps.db, async (tx) => ({
    claimIds: (await getPortalClaims(tx, ctx)).map((c) => c.id),
    appointmentIds: (await getPortalAppointments(tx, ctx)).map((a) => a.id),
  }));
  const foreignClaims = claimIds.length
    ? await deps.db
        .select({ id: claims.id })
        .from(claims)
        .where(and(inArray(claims.id, claimIds), sql`${claims.patientId} <> ${ownId}`))
    : [];
  const foreignAppointments = appointmentIds.length
    ? await deps.db
        .select({ id: appointments.id })
        .from(appointments)
        .where(and(inArray(appointments.id, appointmentIds), sql`${appointments.patientId} <> ${ownId}`))
    : [];
  const outside = foreignClaims.length + foreignAppointments.length;
  const checked = claimIds.length + appointmentIds.length;
  return {
    passed: outside === 0 && checked > 0,
    result: String(outside),
    detail: `The demo patient's portal returned ${claimIds.length} claims and ${appointmentIds.length} appointments; ${outside} belong to another patient.`,
  };
}

// ---------------------------------------------------------------------------------------------
// R 002 PHI masking by role

async function verifyMasking({ deps }: VerifyEnv): Promise<Measured> {
  const query = patientListQuerySchema.parse({ limit: 100 });
  const raw = await deps.db
    .select({
      id: patients.id,
      dob: sql<string>`${patients.dob}::text`,
      phone: patients.phone,
      mrn: patients.mrn,
      notes: patients.notes,
      allergies: patients.allergies,
      meds: patients.meds,
    })
    .from(patients);
  const rawById = new Map(raw.map((r) => [r.id, r]));
  let cases = 0;
  let correct = 0;
  const problems: string[] = [];
  for (const role of ROLES) {
    // The real list query as each role (the API lets only some roles call it; the masking is the query's own).
    const ctx = { user: { id: 0, email: `rtm-${role}`, name: role, role, patientId: null }, now: deps.clock() };
    const page = await listPatients(deps.db, ctx, query);
    for (const item of page.items) {
      const stored = rawById.get(item.id);
      if (!stored) continue;
      const expected = maskPatient(stored, role);
      for (const field of MASKED_FIELDS) {
        cases += 1;
        const value = item[field];
        const leaked = !seesField(role, field) && stored[field].length > 0 && sameValue(value, stored[field]);
        if (!leaked && sameValue(value, expected[field])) correct += 1;
        else problems.push(`${role} patient ${item.id} ${field}`);
      }
    }
  }
  return byShare(
    correct,
    cases,
    `${correct} of ${cases} (role, patient, field) values from the patient list query were masked exactly as the PHI masking rules (docs/access.md) say.`,
    problems,
  );
}

// ---------------------------------------------------------------------------------------------
// R 003 MFA for high-privilege users

const HIGH_PRIVILEGE: Role[] = ['admin', 'doctor', 'billing_admin', 'nurse_manager'];

async function verifyMfa({ deps }: VerifyEnv): Promise<Measured> {
  const accounts = await deps.db
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(and(eq(users.active, true), inArray(users.role, HIGH_PRIVILEGE)));
  const now = deps.clock();
  // Issuing a challenge voids the account's pending codes: done in a transaction that is rolled back.
  const covered = await inRolledBackTransaction(deps.db, async (tx) => {
    const ok: string[] = [];
    for (const account of accounts) {
      if (!requiresMfa(account.role as Role)) continue;
      const challenge = await createChallenge(tx, account.id, now);
      const sixDigits = /^\d{6}$/.test(challenge.code);
      const expiresInTime = challenge.expiresAt.getTime() - now.getTime() === CHALLENGE_TTL_MS;
      if (sixDigits && expiresInTime) ok.push(account.email);
    }
    return ok;
  });
  const missing = accounts.filter((a) => !covered.includes(a.email)).map((a) => a.email);
  return byShare(
    covered.length,
    accounts.length,
    `${covered.length} of ${accounts.length} active admin, doctor, billing admin and nurse manager accounts require MFA, and sign-in issues them a 6-digit code valid ${CHALLENGE_TTL_MS / 60_000} minutes.`,
    missing.map((m) => `${m} not covered`),
  );
}

// ---------------------------------------------------------------------------------------------
// R 004 session timeout

async function verifySessionTimeout({ deps, ctx }: VerifyEnv): Promise<Measured> {
  const idle = deps.config.sessionIdleMinutes;
  const now = deps.clock();
  const behaviour = await inRolledBackTransaction(deps.db, async (tx) => {
    const { sessionId } = await createSession(tx, { userId: ctx.user.id, now, absoluteHours: 12 });
    const justBefore = await resolveSession(tx, sessionId, new Date(now.getTime() + (idle * 60 - 30) * 1000), idle);
    const { sessionId: second } = await createSession(tx, { userId: ctx.user.id, now, absoluteHours: 12 });
    const atTimeout = await resolveSession(tx, second, new Date(now.getTime() + idle * 60_000), idle);
    return { aliveBefore: justBefore !== null, endedAt: atTimeout === null };
  });
  const passed = idle > 0 && idle <= 15 && behaviour.aliveBefore && behaviour.endedAt;
  return {
    passed,
    result: `${idle} min`,
    detail: `Configured idle timeout ${idle} minutes (at most 15 required). A throwaway session ${
      behaviour.aliveBefore ? 'was still live' : 'had already ended'
    } 30 s before it and ${behaviour.endedAt ? 'ended' : 'was still live'} at ${idle} minutes idle (fake clock, rolled back).`,
  };
}

// ---------------------------------------------------------------------------------------------
// R 005 audit logging of actions

async function verifyWritesAudited({ deps, ctx }: VerifyEnv): Promise<Measured> {
  const outcome = await inRolledBackTransaction(deps.db, async (tx) => {
    const [last] = await tx.select({ id: sql<number>`coalesce(max(${auditLog.id}), 0)::int` }).from(auditLog);
    const since = last?.id ?? 0;
    const performed: { action: string; resource: string }[] = [];
    // Confirmed: this checks that a write is audited, whatever records the clinic already has.
    const result = await createPatient(tx, ctx, {
      name: 'RTM Verification Patient',
      dob: '1980-01-01',
      phone: '(555) 000-0000',
      mrn: `RTM-${Date.now()}`,
      confirmDuplicate: true,
    });
    if (!('created' in result)) throw new Error('a confirmed patient creation was refused');
    performed.push({ action: 'patient.create', resource: `patient/${result.created.id}` });
    const [appointment] = await tx
      .select({ id: appointments.id, status: appointments.status })
      .from(appointments)
      // A visit already past: No-Show cannot be set on one still to come (and frees its slot, so no clash).
      .where(and(ne(appointments.status, 'No-Show'), lt(appointments.date, today(ctx.now))))
      .limit(1);
    if (appointment) {
      await updateAppointment(tx, ctx, appointment.id, { status: 'No-Show' });
      performed.push({ action: 'appointment.update', resource: `appointment/${appointment.id}` });
    }
    const [pending] = await tx
      .select({ id: authorizations.id })
      .from(authorizations)
      .where(eq(authorizations.status, 'Pending'))
      .limit(1);
    if (pending) {
      await decideAuthorization(tx, ctx, pending.id, {
        status: 'Approved',
        authNumber: 'VERIFY-1',
        units: 1,
        validFrom: today(ctx.now),
        validTo: today(ctx.now),
      });
      performed.push({ action: 'authorization.update', resource: `authorization/${pending.id}` });
    }
    const [denied] = await tx.select({ id: claims.id }).from(claims).where(eq(claims.status, 'Denied')).limit(1);
    if (denied) {
      await appealClaim(tx, ctx, denied.id, { reason: 'Verification', note: 'traceability check, rolled back' });
      performed.push({ action: 'claim.appeal', resource: `claim/${denied.id}` });
    }
    // Staged entries are chained as the transaction commits; this one rolls back, so they are chained here.
    await appendStagedNow(tx);
    const written = await tx
      .select({ action: auditLog.action, resource: auditLog.resource })
      .from(auditLog)
      .where(gt(auditLog.id, since));
    const audited = performed.filter((p) =>
      written.some((w) => w.action === p.action && w.resource.startsWith(p.resource)),
    );
    return { performed, audited };
  });
  const missing = outcome.performed.filter((p) => !outcome.audited.includes(p)).map((p) => p.action);
  return byShare(
    outcome.audited.length,
    outcome.performed.length,
    `Performed ${outcome.performed.map((p) => p.action).join(', ')} in a rolled-back transaction; ${outcome.audited.length} wrote their audit entry in the same transaction.`,
    missing.map((m) => `${m} not audited`),
  );
}

// ---------------------------------------------------------------------------------------------
// R 006 tamper-evident audit trail

async function verifyAuditChain({ deps }: VerifyEnv): Promise<Measured> {
  const [total] = await deps.db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
  const chain = await verifyChain(deps.db);
  const count = total?.n ?? 0;
  const verified = chain.ok ? chain.checked : chain.checked - 1;
  const [trigger] = (
    await deps.db.execute<{ enabled: string }>(
      sql`select tgenabled as enabled from pg_trigger where tgname = 'audit_log_no_update_delete'`,
    )
  ).rows;
  const appendOnly = trigger !== undefined && trigger.enabled !== 'D';
  return {
    passed: chain.ok && appendOnly && count > 0,
    result: sharePercent(Math.max(0, verified), Math.max(count, chain.checked)),
    detail: chain.ok
      ? `All ${chain.checked} audit entries match their hash and link to the entry before; the append-only trigger is ${appendOnly ? 'enabled' : 'MISSING OR DISABLED'}.`
      : `The chain breaks at entry #${chain.firstBreak?.id} (${chain.firstBreak?.problem}); ${verified} of ${count} entries verify.`,
  };
}

// ---------------------------------------------------------------------------------------------
// R 007 12-hour time display

const TIME_CASES: [string, string][] = [
  ['13:30', '1:30 PM'],
  ['00:00', '12:00 AM'],
  ['08:05', '8:05 AM'],
  ['12:00', '12:00 PM'],
  ['12:45', '12:45 PM'],
  ['23:59', '11:59 PM'],
];

async function verifyTimeFormat({ deps }: VerifyEnv): Promise<Measured> {
  // The cases, plus every distinct time actually booked, which must come out as h:mm AM/PM.
  const booked = await deps.db.selectDistinct({ time: sql<string>`${appointments.time}::text` }).from(appointments);
  const problems: string[] = [];
  let good = 0;
  for (const [input, expected] of TIME_CASES) {
    if (formatTime12(input) === expected) good += 1;
    else problems.push(`${input} → ${formatTime12(input)}`);
  }
  for (const { time } of booked) {
    const shown = formatTime12(time.slice(0, 5));
    if (/^(1[0-2]|[1-9]):[0-5]\d (AM|PM)$/.test(shown)) good += 1;
    else problems.push(`${time} → ${shown}`);
  }
  return byShare(
    good,
    TIME_CASES.length + booked.length,
    `The appointment screens' formatter shows 13:30 as '${formatTime12('13:30')}'; ${booked.length} distinct booked times checked as h:mm AM/PM.`,
    problems,
  );
}

// ---------------------------------------------------------------------------------------------
// R 008 high contrast

interface ColourPair {
  text: string;
  on: string;
}
const TEXT_PAIRS: ColourPair[] = [
  { text: 'foreground', on: 'background' },
  { text: 'card-foreground', on: 'card' },
  { text: 'muted-foreground', on: 'muted' },
  { text: 'muted-foreground', on: 'background' },
  { text: 'primary-foreground', on: 'primary' },
  { text: 'secondary-foreground', on: 'secondary' },
  { text: 'destructive-foreground', on: 'destructive' },
  { text: 'foreground', on: 'accent' },
  { text: 'foreground', on: 'sidebar' },
];
const NAMED: Record<string, string> = { white: '#ffffff', black: '#000000', red: '#ff0000', yellow: '#ffff00' };

/** The stylesheet the browser gets: the built one when this server serves the client, else the source. */
function themeStylesheet(clientDir: string | undefined): { source: string; css: string } | null {
  const assets = clientDir ? path.join(clientDir, 'assets') : null;
  if (assets && existsSync(assets)) {
    for (const file of readdirSync(assets).filter((f) => f.endsWith('.css'))) {
      const css = readFileSync(path.join(assets, file), 'utf8');
      if (css.includes('.high-contrast')) return { source: `assets/${file}`, css };
    }
  }
  const source = path.resolve('src/client/styles.css');
  return existsSync(source) ? { source: 'src/client/styles.css', css: readFileSync(source, 'utf8') } : null;
}

/** Custom properties declared in the blocks whose whole selector is `selector`. */
export function customProperties(css: string, selector: string): Map<string, string> {
  const found = new Map<string, string>();
  const escaped = selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const blocks = new RegExp(`(?:^|[}\\s;])${escaped}\\s*\\{([^}]*)\\}`, 'g');
  for (const block of css.matchAll(blocks)) {
    for (const decl of (block[1] ?? '').matchAll(/--([a-z-]+)\s*:\s*([^;]+)/g)) {
      found.set(decl[1] ?? '', (decl[2] ?? '').trim().toLowerCase());
    }
  }
  return found;
}

function rgbOf(colour: string): [number, number, number] | null {
  const hex = NAMED[colour] ?? colour;
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(hex);
  if (!m?.[1]) return null;
  const digits = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as [number, number, number];
}

/** WCAG 2.x contrast ratio of two colours. */
export function contrastRatio(a: [number, number, number], b: [number, number, number]): number {
  const luminance = (rgb: [number, number, number]) => {
    const [r, g, bl] = rgb.map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

async function verifyHighContrast({ deps }: VerifyEnv): Promise<Measured> {
  const [column] = (
    await deps.db.execute<{ data_type: string }>(
      sql`select data_type from information_schema.columns where table_name = 'user_settings' and column_name = 'high_contrast'`,
    )
  ).rows;
  const [saved] = await deps.db.select({ n: sql<number>`count(*)::int` }).from(userSettings);
  const sheet = themeStylesheet(deps.config.clientDir);
  if (!sheet) return { passed: false, result: 'FAIL', detail: 'The client stylesheet could not be found.' };
  const themes = [
    { name: 'high contrast', vars: customProperties(sheet.css, '.high-contrast'), minimum: 7 },
    { name: 'default', vars: customProperties(sheet.css, ':root'), minimum: 4.5 },
  ];
  let good = 0;
  let total = 0;
  const problems: string[] = [];
  for (const theme of themes) {
    for (const pair of TEXT_PAIRS) {
      total += 1;
      const text = rgbOf(theme.vars.get(pair.text) ?? '');
      const on = rgbOf(theme.vars.get(pair.on) ?? '');
      const ratio = text && on ? contrastRatio(text, on) : 0;
      if (ratio >= theme.minimum) good += 1;
      else problems.push(`${theme.name} ${pair.text} on ${pair.on}: ${ratio.toFixed(2)}:1`);
    }
  }
  const highContrastAll = !problems.some((p) => p.startsWith('high contrast'));
  const passed = column?.data_type === 'boolean' && highContrastAll;
  return {
    passed,
    result: sharePercent(good, total),
    detail: `user_settings.high_contrast ${column ? 'exists' : 'is MISSING'} (${saved?.n ?? 0} users' settings stored). ${good} of ${total} text colour pairs in ${sheet.source} meet WCAG (high contrast 7:1 AAA, default theme 4.5:1 AA).${problems.length ? ` Below: ${problems.slice(0, 3).join('; ')}` : ''}`,
  };
}

// ---------------------------------------------------------------------------------------------
// R 009–R 011 KPI engine

async function verifyKpis({ deps }: VerifyEnv): Promise<Measured> {
  const comparisons = (await compareKpiFixture(deps.db)).filter(
    (c) => c.name !== 'arAging' && c.name !== 'denialsByReason',
  );
  const wrong = comparisons.filter((c) => !sameValue(c.actual, c.expected));
  return byShare(
    comparisons.length - wrong.length,
    comparisons.length,
    `${comparisons.length - wrong.length} of ${comparisons.length} KPI values computed by the live KPI query on a fixed fixture (rolled back) equal their hand-computed values.`,
    wrong.map((c) => `${c.name} ${JSON.stringify(c.actual)} ≠ ${JSON.stringify(c.expected)}`),
  );
}

async function verifyDenials({ deps }: VerifyEnv): Promise<Measured> {
  const period = periodEndingToday(deps.clock(), 90);
  const listed = await computeDenialsByReason(deps.db, period);
  const [independent] = (
    await deps.db.execute<{ n: number }>(sql`select count(*)::int as n from claims
      where denied_on_first_adjudication and reason_code is not null and reason_code <> 'CO-45'
        and reason_code not like 'PR-%' and adjudicated_on between ${period.start}::date and ${period.end}::date`)
  ).rows;
  const counted = listed.reduce((sum, d) => sum + d.count, 0);
  const expected = independent?.n ?? 0;
  const problems = listed
    .filter((d) => d.reason === 'CO-45' || d.reason.startsWith('PR-'))
    .map((d) => `${d.reason} listed`);
  const fixture = (await compareKpiFixture(deps.db)).find((c) => c.name === 'denialsByReason');
  if (!fixture || !sameValue(fixture.actual, fixture.expected)) problems.push('the fixture denials differ');
  return {
    passed: counted === expected && problems.length === 0,
    result: sharePercent(Math.min(counted, expected), Math.max(counted, expected)),
    detail: `Last 90 days: ${counted} denied claims across ${listed.length} reasons, against ${expected} counted directly in the claims table; the fixed fixture's denials ${problems.length ? 'differ' : 'match'}.${problems.length ? ` ${problems.join('; ')}` : ''}`,
  };
}

async function verifyArAging({ deps }: VerifyEnv): Promise<Measured> {
  const now = deps.clock();
  const aging = await computeArAging(deps.db, now);
  const kpis = await computeKpis(deps.db, periodEndingToday(now, 30));
  const bucketSum = aging.buckets.reduce((sum, b) => sum + b.amountCents, 0);
  const percentSum = aging.buckets.reduce((sum, b) => sum + b.percent, 0);
  const fixture = (await compareKpiFixture(deps.db)).find((c) => c.name === 'arAging');
  const checks: [string, boolean][] = [
    ['buckets add up to the total', bucketSum === aging.totalCents],
    ['total equals outstanding A/R of the KPIs', aging.totalCents === kpis.outstandingArCents],
    ['percentages add up to 100', aging.totalCents === 0 || Math.abs(percentSum - 100) < 0.1],
    ['fixed fixture buckets match', fixture !== undefined && sameValue(fixture.actual, fixture.expected)],
  ];
  const good = checks.filter(([, ok]) => ok).length;
  return byShare(
    good,
    checks.length,
    `Aged A/R ${(aging.totalCents / 100).toFixed(2)} in ${aging.buckets.length} buckets; ${good} of ${checks.length} reconciliations hold.`,
    checks.filter(([, ok]) => !ok).map(([name]) => name),
  );
}

// ---------------------------------------------------------------------------------------------
// R 012 authorizations at risk, R 013 overdue follow-ups

async function verifyAtRisk({ deps, ctx }: VerifyEnv): Promise<Measured> {
  const list = await listAuthorizations(deps.db, ctx, authorizationQuerySchema.parse({ limit: 500 }));
  const day = today(ctx.now);
  const dayMs = Date.parse(`${day}T00:00:00Z`);
  let good = 0;
  for (const a of list.items) {
    const end = a.decidedOn ?? day;
    const age = Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${a.requestedOn}T00:00:00Z`)) / 86_400_000);
    const expected = a.status === 'Pending' && (dayMs - Date.parse(`${a.requestedOn}T00:00:00Z`)) / 86_400_000 > 5;
    if (a.atRisk === expected && a.ageDays === age) good += 1;
  }
  const flagged = list.items.filter((a) => a.atRisk).length;
  // When the whole list fits in one page, the At Risk KPI must count exactly the flagged rows.
  const whole = list.total === list.items.length;
  const problems =
    whole && flagged !== list.kpis?.atRisk
      ? [`the At Risk KPI says ${list.kpis?.atRisk}, ${flagged} rows are flagged`]
      : [];
  return byShare(
    good,
    list.items.length,
    `${good} of ${list.items.length} authorizations carry the right age and At Risk flag (pending and older than 5 days); ${list.kpis?.atRisk} at risk now.`,
    problems,
  );
}

async function verifyOverdue({ deps, ctx }: VerifyEnv): Promise<Measured> {
  // Reading the worklist is an audited PHI read: as a verification it is rolled back.
  const items = await inRolledBackTransaction(deps.db, (tx) => listOverdueFollowUps(tx, ctx));
  const day = today(ctx.now);
  const [truth] = (
    await deps.db.execute<{ overdue_patients: number }>(sql`
      select count(distinct e.patient_id)::int as overdue_patients from ${encounters} e
      where e.follow_up_due < ${day}::date
        and not exists (select 1 from ${appointments} a where a.patient_id = e.patient_id
          and a.date > e.encounter_date and a.status not in ('Cancelled', 'No-Show'))
        and not exists (select 1 from ${encounters} l where l.patient_id = e.patient_id
          and l.encounter_date > e.encounter_date)`)
  ).rows;
  const ids = items.map((i) => i.encounterId);
  const correct = ids.length
    ? ((
        await deps.db.execute<{ n: number }>(sql`select count(*)::int as n from ${encounters} e
        where e.id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) and e.follow_up_due < ${day}::date
          and not exists (select 1 from ${appointments} a where a.patient_id = e.patient_id
            and a.date > e.encounter_date and a.status not in ('Cancelled', 'No-Show'))`)
      ).rows[0]?.n ?? 0)
    : 0;
  const expected = truth?.overdue_patients ?? 0;
  return byShare(
    correct,
    items.length,
    `${correct} of ${items.length} listed follow-ups are past due with no later visit booked; ${expected} patients are overdue by a direct count.`,
    items.length === expected ? [] : [`the worklist lists ${items.length}, the direct count finds ${expected}`],
  );
}

// ---------------------------------------------------------------------------------------------
// R 014 CSV neutralisation

const CSV_CASES: [string, string][] = [
  ['=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'],
  ['+SUM(1,2)', "'+SUM(1,2)"],
  ['-1+2', "'-1+2"],
  ['@A1', "'@A1"],
  ['\t=1', "'\t=1"],
  ['\r=1', "'\r=1"],
  ['Maria Lopez', 'Maria Lopez'],
  ['2026-11-22', '2026-11-22'],
];

async function verifyCsv(): Promise<Measured> {
  const wrong = CSV_CASES.filter(([input, expected]) => neutraliseCell(input) !== expected);
  return byShare(
    CSV_CASES.length - wrong.length,
    CSV_CASES.length,
    `${CSV_CASES.length - wrong.length} of ${CSV_CASES.length} cells came out of the export neutraliser as expected (formula starts prefixed with ', plain text unchanged).`,
    wrong.map(([input]) => JSON.stringify(input)),
  );
}

// ---------------------------------------------------------------------------------------------
// R 015 global search scope, R 016 route table, R 017 anonymous PHI, R 018 CSRF

async function verifySearchScope({ app, deps }: VerifyEnv): Promise<Measured> {
  const roles = ROLES;
  let outOfScope = 0;
  let calls = 0;
  const problems: string[] = [];
  await withRoleSessions(deps.db, roles, deps.clock(), async (sessions) => {
    for (const role of roles) {
      const session = sessions.get(role);
      if (!session) continue;
      const response = await app.inject({
        method: 'GET',
        url: '/api/search?q=an',
        cookies: { [SESSION_COOKIE]: session.sessionId },
      });
      calls += 1;
      if (response.statusCode !== 200) {
        problems.push(`${role}: ${response.statusCode}`);
        continue;
      }
      const body = response.json<Record<'patients' | 'appointments' | 'claims', unknown[] | null>>();
      for (const [group, screen] of [
        ['patients', '/patients'],
        ['appointments', '/appointments'],
        ['claims', '/claims'],
      ] as const) {
        if (body[group] !== null && !canOpen(role, screen)) {
          outOfScope += 1;
          problems.push(`${role} got ${group}`);
        }
      }
    }
  });
  return {
    passed: outOfScope === 0 && problems.length === 0 && calls === roles.length,
    result: String(outOfScope),
    detail: `Searched as each of ${calls} roles over HTTP; ${outOfScope} result groups came back for a screen the role may not open.${problems.length ? ` ${problems.slice(0, 3).join('; ')}` : ''}`,
  };
}

async function verifyRouteTable(): Promise<Measured> {
  let good = 0;
  let total = 0;
  const problems: string[] = [];
  for (const role of ROLES) {
    for (const screen of SCREENS) {
      total += 1;
      const expected = EXPECTED_ROUTE_TABLE[role].includes(screen.path);
      const policy = SCREENS_BY_ROLE[role].includes(screen.path);
      if (expected === policy && canOpen(role, screen.path) === expected) good += 1;
      else problems.push(`${role} ${screen.path}`);
    }
  }
  return byShare(
    good,
    total,
    `${good} of ${total} (role, screen) cells of the access policy agree with the route table (docs/access.md).`,
    problems,
  );
}

const PHI_ENDPOINTS = [
  '/api/patients',
  '/api/appointments',
  '/api/claims',
  '/api/authorizations',
  '/api/portal/claims',
];

async function verifyAnonymousRefused({ app }: VerifyEnv): Promise<Measured> {
  let refused = 0;
  const problems: string[] = [];
  for (const url of PHI_ENDPOINTS) {
    const response = await app.inject({ method: 'GET', url });
    if (response.statusCode === 401) refused += 1;
    else problems.push(`${url}: ${response.statusCode}`);
  }
  return byShare(
    refused,
    PHI_ENDPOINTS.length,
    `${refused} of ${PHI_ENDPOINTS.length} PHI endpoints answered 401 to a call without a session.`,
    problems,
  );
}

async function verifyCsrf({ app }: VerifyEnv): Promise<Measured> {
  // Refused at the gate, before the body is read: nothing is signed in or written but the denial's audit entry.
  const attempts = [
    { url: '/api/auth/login', headers: { origin: 'https://attacker.example' } },
    { url: '/api/patients', headers: { 'sec-fetch-site': 'cross-site' } },
  ];
  let refused = 0;
  const problems: string[] = [];
  for (const attempt of attempts) {
    const response = await app.inject({ method: 'POST', url: attempt.url, headers: attempt.headers, payload: {} });
    const code = response.statusCode === 403 ? response.json<{ error: { code: string } }>().error.code : '';
    if (code === 'CSRF') refused += 1;
    else problems.push(`${attempt.url}: ${response.statusCode}`);
  }
  return byShare(
    refused,
    attempts.length,
    `${refused} of ${attempts.length} cross-site POSTs were refused with 403 CSRF.`,
    problems,
  );
}

// ---------------------------------------------------------------------------------------------
// R 019 password hashes, R 020 lockout

async function verifyPasswordHashes({ deps }: VerifyEnv): Promise<Measured> {
  const [row] = (
    await deps.db.execute<{ total: number; argon: number }>(sql`select count(*)::int as total,
      (count(*) filter (where password_hash like '$argon2id$%'))::int as argon from users`)
  ).rows;
  const total = row?.total ?? 0;
  const argon = row?.argon ?? 0;
  return byShare(argon, total, `${argon} of ${total} accounts store an argon2id hash (no plain or weaker hash).`);
}

async function verifyLockout({ deps }: VerifyEnv): Promise<Measured> {
  const user = await demoUser(deps.db, 'guest');
  const now = deps.clock();
  const outcome = await inRolledBackTransaction(deps.db, async (tx) => {
    let state = await lockoutOf(tx, user.id);
    let lockedEarly = false;
    let lockedUntil: Date | null = null;
    while (state.failedAttempts < MFA_MAX_ATTEMPTS) {
      const next = await registerWrongCode(tx, user.id, now);
      if (next.failedAttempts < MFA_MAX_ATTEMPTS && next.lockedUntil) lockedEarly = true;
      lockedUntil = next.lockedUntil;
      state = { ...state, failedAttempts: next.failedAttempts };
    }
    return { lockedEarly, lockSeconds: lockedUntil ? (lockedUntil.getTime() - now.getTime()) / 1000 : 0 };
  });
  const passed = !outcome.lockedEarly && outcome.lockSeconds === MFA_LOCK_SECONDS;
  return {
    passed,
    result: passed ? 'PASS' : 'FAIL',
    detail: `Wrong codes registered up to ${MFA_MAX_ATTEMPTS} (rolled back): the account ${
      outcome.lockSeconds > 0 ? `locked for ${outcome.lockSeconds} s` : 'did not lock'
    }${outcome.lockedEarly ? ', and it locked too early' : ''}.`,
  };
}

export const VERIFIERS: Record<ReqId, (env: VerifyEnv) => Promise<Measured>> = {
  'R 001': verifyDataScope,
  'R 002': verifyMasking,
  'R 003': verifyMfa,
  'R 004': verifySessionTimeout,
  'R 005': verifyWritesAudited,
  'R 006': verifyAuditChain,
  'R 007': verifyTimeFormat,
  'R 008': verifyHighContrast,
  'R 009': verifyKpis,
  'R 010': verifyDenials,
  'R 011': verifyArAging,
  'R 012': verifyAtRisk,
  'R 013': verifyOverdue,
  'R 014': verifyCsv,
  'R 015': verifySearchScope,
  'R 016': verifyRouteTable,
  'R 017': verifyAnonymousRefused,
  'R 018': verifyCsrf,
  'R 019': verifyPasswordHashes,
  'R 020': verifyLockout,
};

/**
 * Verifications that run an operation the policy keeps to fewer roles than the screen: the caller needs that
 * permission as well as 'rtm:run' (R 006 walks the whole audit chain, as GET /api/audit/verify does).
 */
export const EXTRA_PERMISSION: Partial<Record<ReqId, Permission>> = {
  'R 006': 'audit:verify',
};
