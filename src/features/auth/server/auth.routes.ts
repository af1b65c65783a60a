import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema } from '@/shared/api';
import { record } from '@/features/audit/server/audit.queries';
import type { AppDeps, AuthContext } from '@/server/context';
import { SESSION_COOKIE } from '@/server/plugins/access';
import { clientOf } from '@/server/request-client';
import { HttpError, RATE_LIMITED_MESSAGE } from '@/server/plugins/errors';
import {
  enrolmentConfirmRequestSchema,
  enrolmentConfirmResponseSchema,
  enrolmentStartRequestSchema,
  enrolmentStartResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  mfaRequestSchema,
  sessionResponseSchema,
} from '../auth.schema';
import { destroySession, MFA_LOCK_SECONDS } from './auth.queries';
import { confirmEnrolment, signInWithCode, signInWithPassword, startEnrolment } from './auth.sign-in';
import { countOf } from '@/shared/plural';
import { currentPracticeTimeZone } from '@/shared/practice-zone';

export const INVALID_CREDENTIALS = 'Please check your email and password.';
export const TEMPORARY_PASSWORD_EXPIRED =
  'Your temporary password has expired (it is valid for 72 hours). Ask an administrator for a new one.';

function sessionBody(auth: AuthContext | null, now: Date) {
  return {
    user: auth?.user ?? null,
    mfa: auth !== null,
    csrfToken: auth?.csrfToken ?? null,
    expiresAt: auth?.expiresAt.toISOString() ?? null,
    passwordChangeRequired: auth?.passwordChangeRequired ?? false,
    timeZone: currentPracticeTimeZone(),
    serverTime: now.toISOString(),
  };
}

export function authRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const errors = {
      400: errorEnvelopeSchema,
      401: errorEnvelopeSchema,
      409: errorEnvelopeSchema,
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
      new HttpError(423, 'ACCOUNT_LOCKED', `Too many failed attempts. Try again in ${countOf(seconds, 'second')}.`, {
        retryAfterSeconds: seconds,
      });

    api.post(
      '/api/auth/login',
      {
        config: { permission: 'public', rateLimit },
        schema: { tags: ['auth'], body: loginRequestSchema, response: { 200: loginResponseSchema, ...errors } },
      },
      async (request, reply) => {
        const { email, password } = request.body;
        const outcome = await signInWithPassword(
          deps.db,
          { email, password, now: deps.clock(), demoMode: deps.config.demoMode, client: clientOf(request) },
          {
            spentFor: async () => {
              const budget = await refusalsPerAccount(request, { increment: false });
              return !budget.isAllowed && budget.remaining <= 0 ? budget.ttlInSeconds : null;
            },
            count: async () => {
              await refusalsPerAccount(request);
            },
          },
        );
        switch (outcome.kind) {
          case 'throttled':
            reply.header('retry-after', outcome.retryAfterSeconds);
            throw new HttpError(429, 'RATE_LIMITED', RATE_LIMITED_MESSAGE, {
              retryAfterSeconds: outcome.retryAfterSeconds,
            });
          case 'refused':
            throw new HttpError(401, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS);
          case 'locked':
            throw lockedError(outcome.seconds);
          case 'temporary-password-expired':
            throw new HttpError(401, 'TEMPORARY_PASSWORD_EXPIRED', TEMPORARY_PASSWORD_EXPIRED);
          case 'code-issued':
            return {
              challengeId: outcome.challengeId,
              demoCode: deps.config.demoMode ? outcome.code : undefined,
              expiresAt: outcome.expiresAt.toISOString(),
              enrolmentRequired: outcome.enrolmentRequired,
            };
        }
      },
    );

    api.post(
      '/api/auth/mfa',
      {
        config: { permission: 'public', rateLimit },
        schema: { tags: ['auth'], body: mfaRequestSchema, response: { 200: sessionResponseSchema, ...errors } },
      },
      async (request, reply) => {
        const result = await signInWithCode(deps.db, {
          challengeId: request.body.challengeId,
          code: request.body.code,
          recoveryCode: request.body.recoveryCode,
          now: deps.clock(),
          client: clientOf(request),
          demoMode: deps.config.demoMode,
          mfaKey: deps.config.mfaEncryptionKey,
          absoluteHours: deps.config.sessionAbsoluteHours,
          replacedSessionIdHash: request.auth?.sessionIdHash,
        });

        switch (result.kind) {
          case 'expired':
            throw challengeExpired();
          case 'enrolment-required':
            throw enrolmentRequired();
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
            throw new HttpError(
              401,
              'INVALID_CODE',
              `Incorrect MFA code. ${countOf(result.remaining, 'attempt')} remaining.`,
            );
          case 'ok':
            setSessionCookie(reply, result.session.sessionId, result.session.expiresAt, deps);
            return sessionBody(
              {
                user: result.user,
                sessionIdHash: '',
                csrfToken: result.session.csrfToken,
                expiresAt: result.session.expiresAt,
                passwordChangeRequired: result.passwordChangeRequired,
              },
              deps.clock(),
            );
        }
      },
    );

    api.post(
      '/api/auth/mfa/enrol/start',
      {
        config: { permission: 'public', rateLimit },
        schema: {
          tags: ['auth'],
          description: 'After the password, for an account without an authenticator: a new TOTP secret, shown once.',
          body: enrolmentStartRequestSchema,
          response: { 200: enrolmentStartResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const result = await startEnrolment(deps.db, {
          challengeId: request.body.challengeId,
          now: deps.clock(),
          client: clientOf(request),
          mfaKey: deps.config.mfaEncryptionKey,
        });
        switch (result.kind) {
          case 'expired':
            throw challengeExpired();
          case 'already-enrolled':
            throw new HttpError(
              409,
              'ALREADY_ENROLLED',
              'This account already has an authenticator app. An administrator can reset it.',
            );
          case 'locked':
            throw lockedError(result.seconds);
          case 'started':
            return { secret: result.secret, otpauthUri: result.otpauthUri, qrSvg: result.qrSvg };
        }
      },
    );

    api.post(
      '/api/auth/mfa/enrol/confirm',
      {
        config: { permission: 'public', rateLimit },
        schema: {
          tags: ['auth'],
          description:
            'A code from the new secret confirms enrolment and signs in; the recovery codes are in this answer only.',
          body: enrolmentConfirmRequestSchema,
          response: { 200: enrolmentConfirmResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const result = await confirmEnrolment(deps.db, {
          challengeId: request.body.challengeId,
          code: request.body.code,
          now: deps.clock(),
          client: clientOf(request),
          mfaKey: deps.config.mfaEncryptionKey,
          absoluteHours: deps.config.sessionAbsoluteHours,
          replacedSessionIdHash: request.auth?.sessionIdHash,
        });
        switch (result.kind) {
          case 'expired':
            throw challengeExpired();
          case 'not-started':
            throw new HttpError(409, 'ENROLMENT_NOT_STARTED', 'Start the authenticator set-up first.');
          case 'locked':
            throw lockedError(result.seconds);
          case 'locked-now':
            throw new HttpError(
              423,
              'ACCOUNT_LOCKED',
              `Too many failed attempts. Account locked for ${MFA_LOCK_SECONDS} seconds.`,
              { retryAfterSeconds: MFA_LOCK_SECONDS },
            );
          case 'wrong':
            throw new HttpError(
              401,
              'INVALID_CODE',
              `Incorrect MFA code. ${countOf(result.remaining, 'attempt')} remaining.`,
            );
          case 'ok':
            setSessionCookie(reply, result.session.sessionId, result.session.expiresAt, deps);
            return {
              ...sessionBody(
                {
                  user: result.user,
                  sessionIdHash: '',
                  csrfToken: result.session.csrfToken,
                  expiresAt: result.session.expiresAt,
                  passwordChangeRequired: result.passwordChangeRequired,
                },
                deps.clock(),
              ),
              recoveryCodes: result.recoveryCodes,
            };
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
              ...clientOf(request),
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
        return sessionBody(request.auth, deps.clock());
      },
    );
  };
}

function challengeExpired() {
  return new HttpError(401, 'CHALLENGE_EXPIRED', 'Your sign-in attempt has expired. Please sign in again.');
}

function enrolmentRequired() {
  return new HttpError(409, 'ENROLMENT_REQUIRED', 'Set up your authenticator app before signing in with a code.');
}

/**
 * The cookie lives as long as the session's absolute timeout, given as Max-Age (seconds from now) rather than
 * an Expires date: a browser whose clock is off by more than the timeout would otherwise drop the cookie at
 * once, or keep it past the session (the server checks expiry either way).
 */
function setSessionCookie(reply: FastifyReply, sessionId: string, expiresAt: Date, deps: AppDeps) {
  reply.setCookie(SESSION_COOKIE, sessionId, {
    httpOnly: true,
    sameSite: 'strict',
    secure: deps.config.secureCookies,
    path: '/',
    maxAge: Math.max(0, Math.floor((expiresAt.getTime() - deps.clock().getTime()) / 1000)),
  });
}
