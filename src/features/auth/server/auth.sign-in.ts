/**
 * The two steps of sign-in (docs/sign-in-policy.md): the password, which issues a one-time code, then the
 * code, which opens a session. Each attempt is audited, refused ones too; the routes only turn the
 * outcomes into answers.
 */
import { recordNow, record } from '@/features/audit/server/audit.queries';
import type { AuthUser } from '@/server/context';
import type { Db } from '@/server/db/types';
import {
  codeMatches,
  completeSignIn,
  createChallenge,
  findLiveChallenge,
  findUserByEmail,
  lockSecondsLeft,
  lockoutOf,
  MFA_LOCK_SECONDS,
  MFA_MAX_ATTEMPTS,
  registerWrongCode,
  toAuthUser,
} from './auth.queries';
import { dummyPasswordHash, verifyPassword } from './auth.passwords';
import { totpMatches } from './auth.totp';

/** Refused passwords for one email, from whatever addresses (the route's per-account rate limit). */
export interface RefusalBudget {
  /** Seconds until refusals are allowed again when the budget is spent, else null. */
  spentFor(): Promise<number | null>;
  /** Counts one refused password. */
  count(): Promise<void>;
}

export type PasswordOutcome =
  | { kind: 'throttled'; retryAfterSeconds: number }
  | { kind: 'refused' }
  | { kind: 'locked'; seconds: number }
  | { kind: 'code-issued'; challengeId: string; code: string; expiresAt: Date };

export async function signInWithPassword(
  db: Db,
  input: { email: string; password: string; now: Date },
  refusals: RefusalBudget,
): Promise<PasswordOutcome> {
  const { email, password, now } = input;
  const retryAfterSeconds = await refusals.spentFor();
  if (retryAfterSeconds !== null) {
    await recordNow(db, {
      actor: email.trim().toLowerCase().slice(0, 254),
      action: 'auth.login.throttled',
      resource: 'session',
      detail: 'refused before the password was checked: too many refused passwords for this email',
      at: now,
    });
    return { kind: 'throttled', retryAfterSeconds };
  }
  const user = await findUserByEmail(db, email);
  // The same work and the same answer for an unknown email and a wrong password (no enumeration).
  const passwordOk = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!user || !passwordOk || !user.active) {
    await refusals.count();
    await recordNow(db, {
      actor: email.trim().toLowerCase().slice(0, 254),
      actorUserId: user?.id ?? null,
      action: 'auth.login.failure',
      resource: 'session',
      detail: 'email or password not accepted',
      at: now,
    });
    return { kind: 'refused' };
  }
  // A lock is only revealed to someone who knows the password, so it cannot be probed for.
  const seconds = lockSecondsLeft((await lockoutOf(db, user.id)).lockedUntil, now);
  if (seconds > 0) {
    // Every sign-in attempt is audited, a refused one during a lock too.
    await recordNow(db, {
      actor: user.email,
      actorUserId: user.id,
      actorRole: user.role,
      action: 'auth.login.locked_out',
      resource: 'session',
      detail: `refused: account locked for ${seconds} more seconds`,
      at: now,
    });
    return { kind: 'locked', seconds };
  }
  const challenge = await db.transaction(async (tx) => {
    const issued = await createChallenge(tx, user.id, now);
    await record(tx, {
      actor: user.email,
      actorUserId: user.id,
      actorRole: user.role,
      action: 'auth.password.accepted',
      resource: 'session',
      detail: 'one-time code issued',
      at: now,
    });
    return issued;
  });
  return { kind: 'code-issued', ...challenge };
}

export type CodeOutcome =
  | { kind: 'expired' }
  | { kind: 'locked'; seconds: number }
  | { kind: 'locked-now' }
  | { kind: 'wrong'; remaining: number }
  | {
      kind: 'ok';
      user: AuthUser;
      session: Awaited<ReturnType<typeof completeSignIn>>;
    };

export async function signInWithCode(
  db: Db,
  input: {
    challengeId: string;
    code: string;
    now: Date;
    /** Demo mode checks the code it showed, never the authenticator app's. */
    demoMode: boolean;
    absoluteHours: number;
    /** The session this sign-in replaces, if the browser had one. */
    replacedSessionIdHash: string | undefined;
  },
): Promise<CodeOutcome> {
  const { now } = input;
  return db.transaction(async (tx) => {
    const found = await findLiveChallenge(tx, input.challengeId, now);
    if (!found) {
      // Nothing identifies the caller (and the challenge id is a secret): audited as anonymous.
      await record(tx, {
        actor: 'anonymous',
        action: 'auth.mfa.expired',
        resource: 'session',
        detail: 'code submitted for an unknown, used or expired sign-in attempt',
        at: now,
      });
      return { kind: 'expired' as const };
    }
    const { user, challenge } = found;
    const actor = { actor: user.email, actorUserId: user.id, actorRole: user.role };
    const seconds = lockSecondsLeft((await lockoutOf(tx, user.id)).lockedUntil, now);
    if (seconds > 0) {
      await record(tx, {
        ...actor,
        action: 'auth.mfa.locked_out',
        resource: 'session',
        detail: `refused: account locked for ${seconds} more seconds`,
        at: now,
      });
      return { kind: 'locked' as const, seconds };
    }
    const ok =
      input.demoMode || !user.mfaSecret
        ? codeMatches(challenge.idHash, challenge.codeHash, input.code)
        : totpMatches(user.mfaSecret, input.code, now);
    if (!ok) {
      const wrong = await registerWrongCode(tx, user.id, now);
      await record(tx, {
        ...actor,
        action: wrong.lockedUntil ? 'auth.locked' : 'auth.mfa.failure',
        resource: 'session',
        detail: wrong.lockedUntil
          ? `${wrong.failedAttempts} wrong codes; locked for ${MFA_LOCK_SECONDS} s`
          : `wrong code (${wrong.failedAttempts} of ${MFA_MAX_ATTEMPTS})`,
        at: now,
      });
      return wrong.lockedUntil
        ? { kind: 'locked-now' as const }
        : { kind: 'wrong' as const, remaining: Math.max(0, MFA_MAX_ATTEMPTS - wrong.failedAttempts) };
    }
    const session = await completeSignIn(tx, {
      userId: user.id,
      challengeIdHash: challenge.idHash,
      now,
      absoluteHours: input.absoluteHours,
      replacedSessionIdHash: input.replacedSessionIdHash,
    });
    await record(tx, {
      ...actor,
      action: 'auth.login.success',
      resource: 'session',
      detail: 'signed in with MFA',
      at: now,
    });
    return { kind: 'ok' as const, user: toAuthUser(user), session };
  });
}
