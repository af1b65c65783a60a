import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema } from '@/shared/api';
import { recordNow, record } from '@/features/audit/server/audit.queries';
import type { AppDeps, AuthContext } from '@/server/context';
import { SESSION_COOKIE } from '@/server/plugins/access';
import { HttpError, RATE_LIMITED_MESSAGE } from '@/server/plugins/errors';
import { loginRequestSchema, loginResponseSchema, mfaRequestSchema, sessionResponseSchema } from '../auth.schema';
import {
  codeMatches,
  completeSignIn,
  createChallenge,
  destroySession,
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

export const INVALID_CREDENTIALS = 'Please check your email and password.';

function sessionBody(auth: AuthContext | null) {
  return {
    user: auth?.user ?? null,
    mfa: auth !== null,
    csrfToken: auth?.csrfToken ?? null,
    expiresAt: auth?.expiresAt.toISOString() ?? null,
  };
}

export function authRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const errors = {
      400: errorEnvelopeSchema,
      401: errorEnvelopeSchema,
      423: errorEnvelopeSchema,
      429: errorEnvelopeSchema,
    };
    // Per client: the route's rateLimit (the client's address) counts every attempt.
    const rateLimit = { max: deps.config.loginRateLimitPerMinute, timeWindow: '1 minute' };
    // Per account: refused passwords for one email, from whatever addresses (docs/sign-in-policy.md). Only
    // refusals count, so the account's owner signing in spends nothing; an unknown email is counted alike,
    // so the limit says nothing about which accounts exist.
    const refusalsPerAccount = app.createRateLimit({
      max: deps.config.loginRateLimitPerMinute,
      timeWindow: '1 minute',
      keyGenerator: (request) => `sign-in:${(request.body as { email: string }).email.trim().toLowerCase()}`,
    });

    const lockedError = (seconds: number) =>
      new HttpError(423, 'ACCOUNT_LOCKED', `Too many failed attempts. Try again in ${seconds} seconds.`, {
        retryAfterSeconds: seconds,
      });

    api.post(
      '/api/auth/login',
      {
        config: { permission: 'public', rateLimit },
        schema: { tags: ['auth'], body: loginRequestSchema, response: { 200: loginResponseSchema, ...errors } },
      },
      async (request, reply) => {
        const now = deps.clock();
        const { email, password } = request.body;
        const budget = await refusalsPerAccount(request, { increment: false });
        if (!budget.isAllowed && budget.remaining <= 0) {
          await recordNow(deps.db, {
            actor: email.trim().toLowerCase().slice(0, 254),
            action: 'auth.login.throttled',
            resource: 'session',
            detail: 'refused before the password was checked: too many refused passwords for this email',
            at: now,
          });
          reply.header('retry-after', budget.ttlInSeconds);
          throw new HttpError(429, 'RATE_LIMITED', RATE_LIMITED_MESSAGE, { retryAfterSeconds: budget.ttlInSeconds });
        }
        const user = await findUserByEmail(deps.db, email);
        // The same work and the same answer for an unknown email and a wrong password (no enumeration).
        const passwordOk = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
        if (!user || !passwordOk || !user.active) {
          await refusalsPerAccount(request);
          await recordNow(deps.db, {
            actor: email.trim().toLowerCase().slice(0, 254),
            actorUserId: user?.id ?? null,
            action: 'auth.login.failure',
            resource: 'session',
            detail: 'email or password not accepted',
            at: now,
          });
          throw new HttpError(401, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS);
        }
        // A lock is only revealed to someone who knows the password, so it cannot be probed for.
        const seconds = lockSecondsLeft((await lockoutOf(deps.db, user.id)).lockedUntil, now);
        if (seconds > 0) {
          // Every sign-in attempt is audited, a refused one during a lock too.
          await recordNow(deps.db, {
            actor: user.email,
            actorUserId: user.id,
            actorRole: user.role,
            action: 'auth.login.locked_out',
            resource: 'session',
            detail: `refused: account locked for ${seconds} more seconds`,
            at: now,
          });
          throw lockedError(seconds);
        }
        const challenge = await deps.db.transaction(async (tx) => {
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
        return {
          challengeId: challenge.challengeId,
          demoCode: deps.config.demoMode ? challenge.code : undefined,
          expiresAt: challenge.expiresAt.toISOString(),
        };
      },
    );

    api.post(
      '/api/auth/mfa',
      {
        config: { permission: 'public', rateLimit },
        schema: { tags: ['auth'], body: mfaRequestSchema, response: { 200: sessionResponseSchema, ...errors } },
      },
      async (request, reply) => {
        const now = deps.clock();
        const result = await deps.db.transaction(async (tx) => {
          const found = await findLiveChallenge(tx, request.body.challengeId, now);
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
            deps.config.demoMode || !user.mfaSecret
              ? codeMatches(challenge.idHash, challenge.codeHash, request.body.code)
              : totpMatches(user.mfaSecret, request.body.code, now);
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
          const previous = request.auth?.sessionIdHash;
          const session = await completeSignIn(tx, {
            userId: user.id,
            challengeIdHash: challenge.idHash,
            now,
            absoluteHours: deps.config.sessionAbsoluteHours,
            replacedSessionIdHash: previous,
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

        switch (result.kind) {
          case 'expired':
            throw new HttpError(401, 'CHALLENGE_EXPIRED', 'Your sign-in attempt has expired. Please sign in again.');
          case 'locked':
            throw lockedError(result.seconds);
          case 'locked-now':
            throw new HttpError(
              423,
              'ACCOUNT_LOCKED',
              `Too many failed attempts. Account locked for ${MFA_LOCK_SECONDS} seconds.`,
              {
                retryAfterSeconds: MFA_LOCK_SECONDS,
              },
            );
          case 'wrong':
            throw new HttpError(401, 'INVALID_CODE', `Incorrect MFA code. ${result.remaining} attempts remaining.`);
          case 'ok':
            setSessionCookie(reply, result.session.sessionId, result.session.expiresAt, deps.config.secureCookies);
            return sessionBody({
              user: result.user,
              sessionIdHash: '',
              csrfToken: result.session.csrfToken,
              expiresAt: result.session.expiresAt,
            });
        }
      },
    );

    api.post(
      '/api/auth/logout',
      { config: { permission: 'public' }, schema: { tags: ['auth'], response: { 204: z.null() } } },
      async (request, reply) => {
        const auth = request.auth;
        if (auth) {
          await deps.db.transaction(async (tx) => {
            await destroySession(tx, auth.sessionIdHash);
            await record(tx, {
              actor: auth.user.email,
              actorUserId: auth.user.id,
              actorRole: auth.user.role,
              action: 'auth.logout',
              resource: 'session',
              at: deps.clock(),
            });
          });
        }
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return reply.code(204).send(null);
      },
    );

    api.get(
      '/api/auth/session',
      { config: { permission: 'public' }, schema: { tags: ['auth'], response: { 200: sessionResponseSchema } } },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        if (!request.auth && request.cookies[SESSION_COOKIE]) reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return sessionBody(request.auth);
      },
    );
  };
}

function setSessionCookie(reply: FastifyReply, sessionId: string, expiresAt: Date, secure: boolean) {
  reply.setCookie(SESSION_COOKIE, sessionId, {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: '/',
    expires: expiresAt,
  });
}
