import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import { roleSchema } from '@/shared/api';
import type { AuthContext, AuthUser } from '@/server/context';
import type { Db, Tx } from '@/server/db/types';
import { sessions, signInChallenges, signInLockouts, users } from './auth.table';

export const MFA_MAX_ATTEMPTS = 5;
export const MFA_LOCK_SECONDS = 60;
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function safeEqualHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

function toAuthUser(row: {
  id: number;
  email: string;
  name: string;
  role: string;
  patientId: number | null;
}): AuthUser {
  return { id: row.id, email: row.email, name: row.name, role: roleSchema.parse(row.role), patientId: row.patientId };
}

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return row ?? null;
}

export async function lockoutOf(db: Db | Tx, userId: number) {
  const [row] = await db.select().from(signInLockouts).where(eq(signInLockouts.userId, userId)).limit(1);
  return row ?? { userId, failedAttempts: 0, lockedUntil: null };
}

/** Seconds left on a lock at `now`, or 0 when the account is not locked. */
export function lockSecondsLeft(lockedUntil: Date | null, now: Date): number {
  if (!lockedUntil) return 0;
  return Math.max(0, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000));
}

/** Issues the one-time code of the MFA step for this sign-in attempt; only hashes are stored. */
export async function createChallenge(tx: Tx, userId: number, now: Date) {
  const challengeId = newSecret();
  const code = String(randomInt(100_000, 1_000_000));
  const idHash = sha256(challengeId);
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
  // One pending attempt per account: a new sign-in voids the earlier codes.
  await tx.delete(signInChallenges).where(or(eq(signInChallenges.userId, userId), lt(signInChallenges.expiresAt, now)));
  await tx.insert(signInChallenges).values({ idHash, userId, codeHash: sha256(`${idHash}:${code}`), expiresAt });
  return { challengeId, code, expiresAt };
}

export async function findLiveChallenge(tx: Tx, challengeId: string, now: Date) {
  const idHash = sha256(challengeId);
  const [row] = await tx
    .select({ challenge: signInChallenges, user: users })
    .from(signInChallenges)
    .innerJoin(users, eq(users.id, signInChallenges.userId))
    .where(eq(signInChallenges.idHash, idHash))
    .limit(1)
    .for('update');
  if (!row || row.challenge.usedAt || row.challenge.expiresAt <= now || !row.user.active) return null;
  return row;
}

export function codeMatches(challengeIdHash: string, codeHash: string, code: string): boolean {
  return safeEqualHex(sha256(`${challengeIdHash}:${code}`), codeHash);
}

/** Counts one wrong code; locks the account when the count reaches the limit (the count is kept). */
export async function registerWrongCode(tx: Tx, userId: number, now: Date) {
  const [row] = await tx
    .insert(signInLockouts)
    .values({ userId, failedAttempts: 1 })
    .onConflictDoUpdate({
      target: signInLockouts.userId,
      set: { failedAttempts: sql`${signInLockouts.failedAttempts} + 1` },
    })
    .returning();
  const failedAttempts = row?.failedAttempts ?? 1;
  let lockedUntil: Date | null = null;
  if (failedAttempts >= MFA_MAX_ATTEMPTS) {
    lockedUntil = new Date(now.getTime() + MFA_LOCK_SECONDS * 1000);
    await tx.update(signInLockouts).set({ lockedUntil }).where(eq(signInLockouts.userId, userId));
  }
  return { failedAttempts, lockedUntil };
}

export async function completeSignIn(
  tx: Tx,
  input: { userId: number; challengeIdHash: string; now: Date; absoluteHours: number; replacedSessionIdHash?: string },
) {
  await tx
    .update(signInChallenges)
    .set({ usedAt: input.now })
    .where(eq(signInChallenges.idHash, input.challengeIdHash));
  await tx.delete(signInLockouts).where(eq(signInLockouts.userId, input.userId));
  // A fresh id at every sign-in: whatever session the browser carried before is destroyed (no fixation).
  if (input.replacedSessionIdHash) await tx.delete(sessions).where(eq(sessions.idHash, input.replacedSessionIdHash));
  return createSession(tx, { userId: input.userId, now: input.now, absoluteHours: input.absoluteHours });
}

/**
 * Stores a new server session (only its SHA-256) and returns the cookie value and CSRF token. Sign-in
 * calls it after the MFA step; the admin self-test uses it for short-lived sessions it deletes itself.
 */
export async function createSession(
  db: Db | Tx,
  input: { userId: number; now: Date; absoluteHours: number },
): Promise<{ sessionId: string; csrfToken: string; expiresAt: Date }> {
  const sessionId = newSecret();
  const csrfToken = newSecret(24);
  const expiresAt = new Date(input.now.getTime() + input.absoluteHours * 3600 * 1000);
  await db.insert(sessions).values({
    idHash: sha256(sessionId),
    userId: input.userId,
    csrfToken,
    createdAt: input.now,
    lastSeenAt: input.now,
    expiresAt,
  });
  return { sessionId, csrfToken, expiresAt };
}

/** A session row with its user, as resolveSession reads it. */
export type SessionRow = { session: typeof sessions.$inferSelect; user: typeof users.$inferSelect };

/**
 * Where an app server keeps session rows between requests (docs/caching.md): valid until any change to
 * sessions or users is committed anywhere. `lookup` notes the cache's generation BEFORE the database is
 * asked, so a row read while a change was committing is remembered as already stale. Only found rows
 * are kept; an unknown id always asks the database.
 */
/** Session rows kept in memory, keyed by the cookie's session id (so a hit needs no hashing). */
export interface SessionRowCache {
  lookup(sessionId: string): { row: SessionRow | undefined; remember(row: SessionRow): void };
  forget(sessionId: string): void;
}

async function findSessionRow(db: Db | Tx, idHash: string): Promise<SessionRow | undefined> {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.idHash, idHash))
    .limit(1);
  return row;
}

/**
 * Resolves a cookie's session at `now`: unknown, idle-expired and absolute-expired sessions resolve to
 * null (expired ones are deleted). A live one has its idle timer renewed.
 */
export async function resolveSession(
  db: Db | Tx,
  sessionId: string,
  now: Date,
  idleMinutes: number,
  cache?: SessionRowCache,
): Promise<AuthContext | null> {
  const cached = cache?.lookup(sessionId);
  let row = cached?.row;
  if (!row) {
    row = await findSessionRow(db, sha256(sessionId));
    if (!row) return null;
    cached?.remember(row);
  }
  const { idHash } = row.session;
  const idleDeadline = row.session.lastSeenAt.getTime() + idleMinutes * 60 * 1000;
  if (!row.user.active || now.getTime() >= idleDeadline || now >= row.session.expiresAt) {
    cache?.forget(sessionId);
    await db.delete(sessions).where(eq(sessions.idHash, idHash));
    return null;
  }
  // Renewing at most every 30 s keeps the idle timer honest without a write per request. The age test is
  // repeated in the UPDATE: when many parallel requests on one session (or several app servers) all see an
  // old timestamp, the first renews it and the others, re-checking the row after its commit, write nothing.
  const renewBefore = new Date(now.getTime() - 30_000);
  if (row.session.lastSeenAt < renewBefore) {
    cache?.forget(sessionId);
    await db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(sessions.idHash, idHash), lt(sessions.lastSeenAt, renewBefore)));
  }
  return {
    user: toAuthUser(row.user),
    sessionIdHash: idHash,
    csrfToken: row.session.csrfToken,
    expiresAt: row.session.expiresAt,
  };
}

export async function destroySession(tx: Tx | Db, sessionIdHash: string): Promise<void> {
  await tx.delete(sessions).where(eq(sessions.idHash, sessionIdHash));
}

export async function destroyUserSessions(tx: Tx | Db, userId: number, exceptIdHash?: string): Promise<void> {
  await tx
    .delete(sessions)
    .where(
      exceptIdHash
        ? and(eq(sessions.userId, userId), sql`${sessions.idHash} <> ${exceptIdHash}`)
        : eq(sessions.userId, userId),
    );
}

export { toAuthUser };

/** Voids every pending MFA step of an account (its password changed: a code issued for the old one must not finish). */
export async function voidUserChallenges(tx: Tx | Db, userId: number): Promise<void> {
  await tx.delete(signInChallenges).where(eq(signInChallenges.userId, userId));
}
