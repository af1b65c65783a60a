import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import { roleSchema } from '@/shared/api';
import type { AuthContext, AuthUser } from '@/server/context';
import type { Db, Tx } from '@/server/db/types';
import { mfaRecoveryCodes, sessions, signInChallenges, signInLockouts, users } from './auth.table';

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
 * Where an app server keeps session rows between requests (docs/caching.md): valid until a change to users,
 * or a session ended or changed, is committed anywhere (a renewal of the idle timer alone ends nothing: see
 * resolveSession). `lookup` notes the cache's generation BEFORE the database is asked, so a row read while a
 * change was committing is remembered as already stale. Only found rows are kept; an unknown id always asks
 * the database.
 */
/** Session rows kept in memory, keyed by the cookie's session id (so a hit needs no hashing). */
export interface SessionRowCache {
  lookup(sessionId: string): { row: SessionRow | undefined; remember(row: SessionRow): void };
  forget(sessionId: string): void;
}

function idleDeadlineOf(row: SessionRow, idleMinutes: number): number {
  return row.session.lastSeenAt.getTime() + idleMinutes * 60 * 1000;
}

/**
 * Named, so each connection plans it once (docs/performance.md, "Planning the hot reads once"): with the
 * session cache off it runs on every request, and its planning cost more than its run.
 */
async function findSessionRow(db: Db | Tx, idHash: string): Promise<SessionRow | undefined> {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.idHash, idHash))
    .limit(1)
    .prepare('session_by_id_hash')
    .execute();
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
  // Renewals of the idle timer end no cached session, so a cached row's last_seen_at can be older than the
  // stored one (renewed through another app server): a session that looks idle is read again before it ends.
  if (row && now.getTime() >= idleDeadlineOf(row, idleMinutes)) row = undefined;
  if (!row) {
    row = await findSessionRow(db, sha256(sessionId));
    if (!row) return null;
    cached?.remember(row);
  }
  const { idHash } = row.session;
  if (!row.user.active || now.getTime() >= idleDeadlineOf(row, idleMinutes) || now >= row.session.expiresAt) {
    cache?.forget(sessionId);
    await db.delete(sessions).where(eq(sessions.idHash, idHash));
    return null;
  }
  // Renewing at most every 30 s keeps the idle timer honest without a write per request. The age test is
  // repeated in the UPDATE: when many parallel requests on one session (or several app servers) all see an
  // old timestamp, the first renews it and the others, re-checking the row after its commit, write nothing.
  const renewBefore = new Date(now.getTime() - 30_000);
  if (row.session.lastSeenAt < renewBefore) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(sessions.idHash, idHash), lt(sessions.lastSeenAt, renewBefore)));
    // Renewed (here, or a moment ago by a parallel request): the cached row keeps serving, with the new time.
    cached?.remember({ ...row, session: { ...row.session, lastSeenAt: now } });
  }
  return {
    user: toAuthUser(row.user),
    sessionIdHash: idHash,
    csrfToken: row.session.csrfToken,
    expiresAt: row.session.expiresAt,
    passwordChangeRequired: row.user.temporaryPasswordExpiresAt !== null,
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

/** During enrolment: keeps the (encrypted) secret just shown on this sign-in attempt until a code confirms it. */
export async function setPendingMfaSecret(tx: Tx, challengeIdHash: string, encryptedSecret: string): Promise<void> {
  await tx
    .update(signInChallenges)
    .set({ pendingMfaSecret: encryptedSecret })
    .where(eq(signInChallenges.idHash, challengeIdHash));
}

export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Case, spaces and dashes do not matter when a recovery code is typed. */
function recoveryCodeHash(code: string): string {
  return sha256(`recovery:${code.toUpperCase().replace(/[\s-]/g, '')}`);
}

/** Ten codes of 12 characters from 32 symbols (60 bits each), shown once; only hashes are kept. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 12 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
    return [0, 4, 8].map((i) => chars.slice(i, i + 4).join('')).join('-');
  });
}

/** Stores a confirmed enrolment: the encrypted secret, the step of the confirming code and new recovery codes. */
export async function saveMfaEnrolment(
  tx: Tx,
  input: { userId: number; encryptedSecret: string; step: number; recoveryCodes: readonly string[] },
): Promise<void> {
  await tx
    .update(users)
    .set({ mfaSecret: input.encryptedSecret, mfaLastStep: input.step })
    .where(eq(users.id, input.userId));
  await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, input.userId));
  await tx
    .insert(mfaRecoveryCodes)
    .values(input.recoveryCodes.map((code) => ({ userId: input.userId, codeHash: recoveryCodeHash(code) })));
}

/**
 * Accepts a TOTP time step only if it is later than the last one accepted: a code (or an earlier one
 * still inside the window) cannot be used again. One statement, so two requests racing with one code
 * cannot both win.
 */
export async function acceptTotpStep(tx: Tx, userId: number, step: number): Promise<boolean> {
  const rows = await tx
    .update(users)
    .set({ mfaLastStep: step })
    .where(and(eq(users.id, userId), sql`coalesce(${users.mfaLastStep}, -1) < ${step}`))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Uses up one unused recovery code of the account; false when there is no such code. */
export async function useRecoveryCode(tx: Tx, userId: number, code: string, now: Date): Promise<boolean> {
  const rows = await tx
    .update(mfaRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(mfaRecoveryCodes.userId, userId),
        eq(mfaRecoveryCodes.codeHash, recoveryCodeHash(code)),
        sql`${mfaRecoveryCodes.usedAt} is null`,
      ),
    )
    .returning({ id: mfaRecoveryCodes.id });
  return rows.length > 0;
}

/** Removes an account's TOTP enrolment and recovery codes: it enrols again at its next sign-in. */
export async function clearMfaEnrolment(tx: Tx, userId: number): Promise<void> {
  await tx.update(users).set({ mfaSecret: null, mfaLastStep: null }).where(eq(users.id, userId));
  await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
}
