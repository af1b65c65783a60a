/**
 * The pieces of the self-test other features reuse (the traceability verifier): a transaction that is
 * always rolled back, short-lived sessions for the demo accounts, and the KPI fixture comparison.
 */
import { sql } from 'drizzle-orm';
import { TransactionRollbackError } from 'drizzle-orm/errors';
import type { Role } from '@/shared/access';
import { periodEndingToday } from '@/shared/period';
import { DEMO_ACCOUNTS } from '@/features/auth/auth.demo-accounts';
import { createSession, destroySession, findUserByEmail, sha256 } from '@/features/auth/server/auth.queries';
import {
  computeArAging,
  computeDenialsByReason,
  computeKpis,
  rebuildRollups,
} from '@/features/analytics/server/analytics.queries';
import type { AuthUser } from '@/server/context';
import type { Db, Tx } from '@/server/db/types';
import {
  EXPECTED_AR_AGING,
  EXPECTED_DENIALS,
  EXPECTED_KPIS,
  FIXTURE_NOW,
  insertFixture,
  shadowTables,
} from './selftest.kpi-fixture';

/**
 * Runs `fn` in a transaction and always rolls it back, whatever `fn` wrote; answers what `fn` returned.
 * Used for checks that must write to see behaviour (an audit row, a session expiring) and leave nothing.
 */
export async function inRolledBackTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let outcome: { value: T } | null = null;
  try {
    await db.transaction(async (tx) => {
      outcome = { value: await fn(tx) };
      tx.rollback();
    });
  } catch (err) {
    if (!(err instanceof TransactionRollbackError) || outcome === null) throw err;
  }
  if (outcome === null) throw new Error('the rolled-back transaction produced no result');
  return (outcome as { value: T }).value;
}

/** The product's route table written out again ('/' is implied by '/home'): the expectation the policy is checked against. */
export const EXPECTED_ROUTE_TABLE: Record<Role, string[]> = {
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

export class CheckFailure extends Error {}

/** The seeded demo account of a role, which must exist and be active. */
export async function demoUser(db: Db, role: Role): Promise<AuthUser> {
  const account = DEMO_ACCOUNTS.find((a) => a.role === role);
  if (!account) throw new CheckFailure(`no demo account is defined for ${role}`);
  const user = await findUserByEmail(db, account.email);
  if (!user) throw new CheckFailure(`the demo account ${account.email} (${role}) does not exist`);
  if (!user.active) throw new CheckFailure(`the demo account ${account.email} (${role}) is deactivated`);
  return { id: user.id, email: user.email, name: user.name, role, patientId: user.patientId };
}

export interface RoleSession {
  user: AuthUser;
  sessionId: string;
  csrfToken: string;
}

/**
 * Calls `fn` with a live server session for the demo account of each of `roles`, so that HTTP checks
 * can call the API as that role. The sessions are created through the auth queries module (only a hash
 * of the id is stored, as for any sign-in), are never shown to anyone, and are deleted in `finally`
 * whatever happens. No password or one-time code is involved, so no sign-in is audited for them.
 */
export async function withRoleSessions<T>(
  db: Db,
  roles: readonly Role[],
  now: Date,
  fn: (sessions: Map<Role, RoleSession>) => Promise<T>,
): Promise<T> {
  const sessions = new Map<Role, RoleSession>();
  try {
    for (const role of roles) {
      const user = await demoUser(db, role);
      // Ten minutes is plenty for one run; the idle timeout would end them soon after anyway.
      const { sessionId, csrfToken } = await createSession(db, { userId: user.id, now, absoluteHours: 1 / 6 });
      sessions.set(role, { user, sessionId, csrfToken });
    }
    return await fn(sessions);
  } finally {
    for (const session of sessions.values()) await destroySession(db, sha256(session.sessionId));
  }
}

export interface FixtureComparison {
  name: string;
  expected: unknown;
  actual: unknown;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Runs the live KPI, AR aging and denials-by-reason functions on the fixed fixture (selftest.kpi-fixture.ts)
 * inside a rolled-back transaction whose temporary tables shadow the real ones, and pairs each result
 * with its hand-computed value.
 */
export async function compareKpiFixture(db: Db): Promise<FixtureComparison[]> {
  return inRolledBackTransaction(db, async (tx) => {
    await shadowTables(tx);
    // Guard: the shadow must really be empty, or the check would be reading the clinic's claims.
    const [row] = (await tx.execute<{ n: number }>(sql`select count(*)::int as n from claims`)).rows;
    if (row?.n !== 0) throw new Error('the temporary claims table does not shadow the real one');
    await insertFixture(tx);
    await rebuildRollups(tx);
    const period = periodEndingToday(FIXTURE_NOW, 30);
    const kpis = await computeKpis(tx, period);
    const aging = await computeArAging(tx, FIXTURE_NOW);
    const denials = await computeDenialsByReason(tx, period);
    const comparisons: FixtureComparison[] = Object.entries(EXPECTED_KPIS).map(([name, expected]) => ({
      name,
      expected,
      actual: kpis[name as keyof typeof EXPECTED_KPIS],
    }));
    comparisons.push({
      name: 'arAging',
      expected: EXPECTED_AR_AGING,
      actual: aging.buckets.map((b) => [b.bucket, b.amountCents, b.percent]),
    });
    comparisons.push({
      name: 'denialsByReason',
      expected: EXPECTED_DENIALS,
      actual: denials.map((d) => [d.reason, d.count]),
    });
    return comparisons;
  });
}
