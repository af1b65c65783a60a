import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema } from '@/shared/api';
import { record } from '@/features/audit/server/audit.queries';
import type { AppDeps, AuthContext } from '@/server/context';
import { SESSION_COOKIE } from '@/server/plugins/access';
import { HttpError, RATE_LIMITED_MESSAGE } from '@/server/plugins/errors';
import { loginRequestSchema, loginResponseSchema, mfaRequestSchema, sessionResponseSchema } from '../auth.schema';
import { destroySession, MFA_LOCK_SECONDS } from './auth.queries';
import { signInWithCode, signInWithPassword } from './auth.sign-in';

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
        const { email, password } = request.body;
        const outcome = await signInWithPassword(
          deps.db,
          { email, password, now: deps.clock() },
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
          case 'code-issued':
            return {
              challengeId: outcome.challengeId,
              demoCode: deps.config.demoMode ? outcome.code : undefined,
              expiresAt: outcome.expiresAt.toISOString(),
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
          now: deps.clock(),
          demoMode: deps.config.demoMode,
          absoluteHours: deps.config.sessionAbsoluteHours,
          replacedSessionIdHash: request.auth?.sessionIdHash,
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
