import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Role } from '@/shared/access';
import { DEMO_ACCOUNTS } from '@/features/auth/auth.demo-accounts';
import { buildApp } from '@/server/app';
import { DEFAULT_CONFIG, type AppConfig } from '@/server/context';
import { listenForChanges, type ChangeFeed } from '@/server/db/change-feed';
import { createTestDatabase, type TestDatabase } from './test-db';
import { testClock, type TestClock } from './test-clock';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  clock: TestClock;
  /** The change feed the app listens to, with `withChangeFeed`. */
  changes?: ChangeFeed;
  close(): Promise<void>;
}

/**
 * An API-only app on a private copy of the seeded database, with a clock the test moves. With
 * `withChangeFeed` it listens to the database's change feed, as a real server does, so its session and
 * answer caches are on (docs/caching.md).
 */
export async function createTestApp(
  config: Partial<AppConfig> = {},
  options: { withChangeFeed?: boolean } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const clock = testClock();
  const changes = options.withChangeFeed
    ? await listenForChanges(database.url, { info: () => {}, warn: () => {} })
    : undefined;
  // Sign-in rate limits are tested on their own; the other tests sign in many times from one address.
  const app = await buildApp({
    db: database.db,
    clock,
    config: { ...DEFAULT_CONFIG, loginRateLimitPerMinute: 10_000, mfaEncryptionKey: randomBytes(32), ...config },
    ...(changes ? { changes } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    clock,
    ...(changes ? { changes } : {}),
    close: async () => {
      await app.close();
      await changes?.close();
      await database.drop();
    },
  };
}

export function demoAccount(role: Role) {
  const account = DEMO_ACCOUNTS.find((a) => a.role === role);
  if (!account) throw new Error(`no demo account for ${role}`);
  return account;
}

export function cookieFrom(response: LightMyRequestResponse, name = 'sid'): string | undefined {
  const found = response.cookies.find((c) => c.name === name);
  return found?.value;
}

export interface SignedIn {
  role: Role;
  sessionId: string;
  csrfToken: string;
  /** app.inject with this session's cookie and CSRF token. */
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
}

/** Signs a demo account in through both steps, as the browser does. */
export async function signInAs(app: FastifyInstance, role: Role): Promise<SignedIn> {
  const account = demoAccount(role);
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: account.email, password: account.password },
  });
  if (login.statusCode !== 200) throw new Error(`login as ${role} failed: ${login.statusCode} ${login.body}`);
  const { challengeId, demoCode } = login.json<{ challengeId: string; demoCode: string }>();
  const mfa = await app.inject({ method: 'POST', url: '/api/auth/mfa', payload: { challengeId, code: demoCode } });
  if (mfa.statusCode !== 200) throw new Error(`mfa as ${role} failed: ${mfa.statusCode} ${mfa.body}`);
  const sessionId = cookieFrom(mfa);
  if (!sessionId) throw new Error('no session cookie');
  const csrfToken = mfa.json<{ csrfToken: string }>().csrfToken;
  return {
    role,
    sessionId,
    csrfToken,
    request: (options) =>
      app.inject({
        ...options,
        cookies: { sid: sessionId, ...(options.cookies ?? {}) },
        headers: { 'x-csrf-token': csrfToken, 'x-user-role': role, ...(options.headers ?? {}) },
      }),
  };
}
