/**
 * The two steps of sign-in (docs/sign-in-policy.md): the password, which issues a one-time code, then the
 * code, which opens a session. Each attempt is audited, refused ones too; the routes only turn the
 * outcomes into answers.
 */
import type { RequestClient } from '@/server/request-client';
import { recordNow, record } from '@/features/audit/server/audit.queries';
import QRCode from 'qrcode';
import type { AuthUser } from '@/server/context';
import type { Db } from '@/server/db/types';
import {
  acceptTotpStep,
  codeMatches,
  completeSignIn,
  createChallenge,
  findLiveChallenge,
  findUserByEmail,
  lockSecondsLeft,
  lockoutOf,
  MFA_LOCK_SECONDS,
  MFA_MAX_ATTEMPTS,
  newRecoveryCodes,
  registerWrongCode,
  saveMfaEnrolment,
  setPendingMfaSecret,
  toAuthUser,
  useRecoveryCode,
} from './auth.queries';
import { decryptMfaSecret, encryptMfaSecret } from './auth.mfa-crypto';
import { dummyPasswordHash, verifyPassword } from './auth.passwords';
import { newTotpSecret, otpauthUri, totpMatchingStep } from './auth.totp';

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
  | { kind: 'temporary-password-expired' }
  | { kind: 'code-issued'; challengeId: string; code: string; expiresAt: Date; enrolmentRequired: boolean };

export async function signInWithPassword(
  db: Db,
  input: {
    email: string;
    password: string;
    now: Date;
    /** Where the request came from, recorded on every audit entry this step writes. */
    client: RequestClient;
    /** Outside demo mode an account without a TOTP secret enrols before its first session. */
    demoMode?: boolean;
  },
  refusals: RefusalBudget,
): Promise<PasswordOutcome> {
  const { email, password, now } = input;
  const retryAfterSeconds = await refusals.spentFor();
  if (retryAfterSeconds !== null) {
    await recordNow(db, {
      ...input.client,
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
      ...input.client,
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
      ...input.client,
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
  // Told only to someone who knows the password; the admin creates the account again.
  if (user.temporaryPasswordExpiresAt && user.temporaryPasswordExpiresAt <= now) {
    await recordNow(db, {
      ...input.client,
      actor: user.email,
      actorUserId: user.id,
      actorRole: user.role,
      action: 'auth.login.temporary_password_expired',
      resource: 'session',
      detail: 'refused: the temporary password expired before it was changed',
      at: now,
    });
    return { kind: 'temporary-password-expired' };
  }
  const enrolmentRequired = input.demoMode === false && !user.mfaSecret;
  const challenge = await db.transaction(async (tx) => {
    const issued = await createChallenge(tx, user.id, now);
    await record(tx, {
      ...input.client,
      actor: user.email,
      actorUserId: user.id,
      actorRole: user.role,
      action: 'auth.password.accepted',
      resource: 'session',
      detail: enrolmentRequired ? 'authenticator enrolment required' : 'one-time code issued',
      at: now,
    });
    return issued;
  });
  return { kind: 'code-issued', ...challenge, enrolmentRequired };
}

export type CodeOutcome =
  | { kind: 'expired' }
  | { kind: 'enrolment-required' }
  | { kind: 'locked'; seconds: number }
  | { kind: 'locked-now' }
  | { kind: 'wrong'; remaining: number }
  | {
      kind: 'ok';
      user: AuthUser;
      session: Awaited<ReturnType<typeof completeSignIn>>;
      passwordChangeRequired: boolean;
    };

function requireKey(key: Buffer | undefined): Buffer {
  if (!key) throw new Error('no MFA encryption key configured (MFA_ENCRYPTION_KEY or the key file)');
  return key;
}

export async function signInWithCode(
  db: Db,
  input: {
    challengeId: string;
    /** The authenticator app's code (or, in demo mode, the one shown on screen). */
    code?: string;
    /** Instead of a code: one of the recovery codes given at enrolment, each usable once. */
    recoveryCode?: string;
    now: Date;
    /** Where the request came from, recorded on every audit entry this step writes. */
    client: RequestClient;
    /** Demo mode checks the code it showed, never the authenticator app's. */
    demoMode: boolean;
    mfaKey?: Buffer;
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
        ...input.client,
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
        ...input.client,
        ...actor,
        action: 'auth.mfa.locked_out',
        resource: 'session',
        detail: `refused: account locked for ${seconds} more seconds`,
        at: now,
      });
      return { kind: 'locked' as const, seconds };
    }
    let ok: boolean;
    if (input.recoveryCode !== undefined) {
      ok = user.mfaSecret !== null && (await useRecoveryCode(tx, user.id, input.recoveryCode, now));
    } else if (input.demoMode) {
      ok = codeMatches(challenge.idHash, challenge.codeHash, input.code ?? '');
    } else if (!user.mfaSecret) {
      // No authenticator yet: the code of this attempt was never shown, so it cannot be accepted.
      return { kind: 'enrolment-required' as const };
    } else {
      const secret = decryptMfaSecret(requireKey(input.mfaKey), user.mfaSecret, user.id);
      const step = totpMatchingStep(secret, input.code ?? '', now);
      ok = step !== null && (await acceptTotpStep(tx, user.id, step));
    }
    if (!ok) {
      const wrong = await registerWrongCode(tx, user.id, now);
      await record(tx, {
        ...input.client,
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
      ...input.client,
      ...actor,
      action: 'auth.login.success',
      resource: 'session',
      detail: input.recoveryCode !== undefined ? 'signed in with MFA (a recovery code)' : 'signed in with MFA',
      at: now,
    });
    return {
      kind: 'ok' as const,
      user: toAuthUser(user),
      session,
      passwordChangeRequired: user.temporaryPasswordExpiresAt !== null,
    };
  });
}

export type EnrolmentStartOutcome =
  | { kind: 'expired' }
  | { kind: 'already-enrolled' }
  | { kind: 'locked'; seconds: number }
  | { kind: 'started'; secret: string; otpauthUri: string; qrSvg: string };

/**
 * First step of TOTP enrolment, on a sign-in attempt whose password was right: a new secret, shown once
 * (as the otpauth URI and its QR code), kept encrypted on the attempt until a code from it confirms it.
 */
export async function startEnrolment(
  db: Db,
  input: { challengeId: string; now: Date; mfaKey?: Buffer; client: RequestClient },
): Promise<EnrolmentStartOutcome> {
  const { now } = input;
  const key = requireKey(input.mfaKey);
  const started = await db.transaction(async (tx) => {
    const found = await findLiveChallenge(tx, input.challengeId, now);
    if (!found) return { kind: 'expired' as const };
    const { user, challenge } = found;
    // Replacing an enrolled authenticator needs an admin's reset, never just the password.
    if (user.mfaSecret) return { kind: 'already-enrolled' as const };
    const seconds = lockSecondsLeft((await lockoutOf(tx, user.id)).lockedUntil, now);
    if (seconds > 0) return { kind: 'locked' as const, seconds };
    const secret = newTotpSecret();
    await setPendingMfaSecret(tx, challenge.idHash, encryptMfaSecret(key, secret, user.id));
    await record(tx, {
      ...input.client,
      actor: user.email,
      actorUserId: user.id,
      actorRole: user.role,
      action: 'auth.mfa.enrolment.started',
      resource: `user/${user.id}`,
      detail: 'authenticator secret issued, waiting for a code to confirm it',
      at: now,
    });
    return { kind: 'started' as const, secret, uri: otpauthUri(secret, user.email) };
  });
  if (started.kind !== 'started') return started;
  const qrSvg = await QRCode.toString(started.uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { kind: 'started', secret: started.secret, otpauthUri: started.uri, qrSvg };
}

export type EnrolmentConfirmOutcome =
  | Exclude<CodeOutcome, { kind: 'ok' } | { kind: 'enrolment-required' }>
  | { kind: 'not-started' }
  | (Extract<CodeOutcome, { kind: 'ok' }> & { recoveryCodes: string[] });

/**
 * Second step of enrolment: a code from the new secret proves the app holds it. The secret is then the
 * account's, the recovery codes are issued (shown once) and the sign-in completes. A wrong code counts
 * towards the lock like any wrong code.
 */
export async function confirmEnrolment(
  db: Db,
  input: {
    challengeId: string;
    code: string;
    now: Date;
    /** Where the request came from, recorded on every audit entry this step writes. */
    client: RequestClient;
    mfaKey?: Buffer;
    absoluteHours: number;
    replacedSessionIdHash: string | undefined;
  },
): Promise<EnrolmentConfirmOutcome> {
  const { now } = input;
  const key = requireKey(input.mfaKey);
  return db.transaction(async (tx) => {
    const found = await findLiveChallenge(tx, input.challengeId, now);
    if (!found) return { kind: 'expired' as const };
    const { user, challenge } = found;
    const actor = { actor: user.email, actorUserId: user.id, actorRole: user.role };
    const seconds = lockSecondsLeft((await lockoutOf(tx, user.id)).lockedUntil, now);
    if (seconds > 0) return { kind: 'locked' as const, seconds };
    if (!challenge.pendingMfaSecret || user.mfaSecret) return { kind: 'not-started' as const };
    const secret = decryptMfaSecret(key, challenge.pendingMfaSecret, user.id);
    const step = totpMatchingStep(secret, input.code, now);
    if (step === null) {
      const wrong = await registerWrongCode(tx, user.id, now);
      await record(tx, {
        ...input.client,
        ...actor,
        action: wrong.lockedUntil ? 'auth.locked' : 'auth.mfa.enrolment.failure',
        resource: `user/${user.id}`,
        detail: wrong.lockedUntil
          ? `${wrong.failedAttempts} wrong codes; locked for ${MFA_LOCK_SECONDS} s`
          : `wrong enrolment code (${wrong.failedAttempts} of ${MFA_MAX_ATTEMPTS})`,
        at: now,
      });
      return wrong.lockedUntil
        ? { kind: 'locked-now' as const }
        : { kind: 'wrong' as const, remaining: Math.max(0, MFA_MAX_ATTEMPTS - wrong.failedAttempts) };
    }
    const recoveryCodes = newRecoveryCodes();
    await saveMfaEnrolment(tx, { userId: user.id, encryptedSecret: challenge.pendingMfaSecret, step, recoveryCodes });
    const session = await completeSignIn(tx, {
      userId: user.id,
      challengeIdHash: challenge.idHash,
      now,
      absoluteHours: input.absoluteHours,
      replacedSessionIdHash: input.replacedSessionIdHash,
    });
    await record(tx, {
      ...input.client,
      ...actor,
      action: 'auth.mfa.enrolled',
      resource: `user/${user.id}`,
      detail: `authenticator enrolled; ${recoveryCodes.length} recovery codes issued`,
      at: now,
    });
    await record(tx, {
      ...input.client,
      ...actor,
      action: 'auth.login.success',
      resource: 'session',
      detail: 'signed in with MFA',
      at: now,
    });
    return {
      kind: 'ok' as const,
      user: toAuthUser(user),
      session,
      passwordChangeRequired: user.temporaryPasswordExpiresAt !== null,
      recoveryCodes,
    };
  });
}
