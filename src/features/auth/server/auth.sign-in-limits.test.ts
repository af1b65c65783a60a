/**
 * Sign-in (docs/sign-in-policy.md): rate limits per client and per account (429), a lockout that cannot keep the real
 * user out for good (docs/sign-in-policy.md), and no user enumeration at any step.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { auditLog } from '@/features/audit/server/audit.table';
import { createTestApp, demoAccount, type TestApp } from '@/testing/test-app';
import { dummyPasswordHash, verifyPassword } from './auth.passwords';
import { signInLockouts, users } from './auth.table';

// A pass-through spy: the real argon2 verification runs, and the test sees which hash it was given.
vi.mock('./auth.passwords', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./auth.passwords')>();
  return { ...actual, verifyPassword: vi.fn(actual.verifyPassword) };
});

const LIMIT = 5;
/** secureCookies: the app trusts X-Forwarded-For from its proxy, so each address below is one client. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ loginRateLimitPerMinute: LIMIT, secureCookies: true });
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
});

let nextClient = 1;
/** A client address no other test has used (each test starts with fresh per-client counters). */
function newClient(): string {
  nextClient += 1;
  return `198.51.100.${nextClient}`;
}

function login(client: string, email: string, password: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    headers: { 'x-forwarded-for': client },
  });
}

async function signIn(client: string, role: Parameters<typeof demoAccount>[0]) {
  const account = demoAccount(role);
  const step1 = await login(client, account.email, account.password);
  if (step1.statusCode !== 200) return step1;
  const { challengeId, demoCode } = step1.json<{ challengeId: string; demoCode: string }>();
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/mfa',
    payload: { challengeId, code: demoCode },
    headers: { 'x-forwarded-for': client },
  });
}

/** Moves the rate limiter's clock (it reads Date.now(), not the app's test clock). */
function waitMinutes(minutes: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + minutes * 60_000 + 1000);
}

function expectRateLimited(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(429);
  expect(res.json<{ error: { code: string; message: string } }>().error).toMatchObject({
    code: 'RATE_LIMITED',
    message: 'Too many requests. Please wait and try again.',
  });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('sign-in rate limits (ASVS 6.3.1)', () => {
  it('per client: one address trying many accounts is refused after the limit', async () => {
    const client = newClient();
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await login(client, `someone${i}@example.com`, 'guess-1')).statusCode).toBe(401);
    }
    const refused = await login(client, 'someone.else@example.com', 'guess-1');
    expectRateLimited(refused);
    // Even the right password, from that address, waits: the limit is on the client.
    expectRateLimited(await login(client, demoAccount('doctor').email, demoAccount('doctor').password));
    // Another client is unaffected.
    expect((await signIn(newClient(), 'doctor')).statusCode).toBe(200);
  });

  it('per client: an address the client writes into X-Forwarded-For itself is ignored (only private proxies are believed)', async () => {
    const client = newClient();
    // The balancer appends the address it saw; whatever the client wrote sits further left.
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await login(`203.0.113.${i}, ${client}`, `spoofer${i}@example.com`, 'guess-1')).statusCode).toBe(401);
    }
    expectRateLimited(await login(`203.0.113.99, ${client}`, 'spoofer.again@example.com', 'guess-1'));
  });

  it('per account: one email tried from many addresses is refused after the limit, before any password check', async () => {
    const victim = demoAccount('billing_admin');
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await login(newClient(), victim.email, `wrong-${i}`)).statusCode).toBe(401);
    }
    vi.mocked(verifyPassword).mockClear();
    const refused = await login(newClient(), victim.email, 'wrong-again');
    expectRateLimited(refused);
    expect(verifyPassword).not.toHaveBeenCalled();
    const [throttled] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'auth.login.throttled'));
    expect(throttled?.actor).toBe(victim.email);
    // Another account is not affected.
    expect((await signIn(newClient(), 'admin')).statusCode).toBe(200);
  });

  it('per account counts refusals only: the owner signing in many times is never limited', async () => {
    for (let i = 0; i < LIMIT * 2; i += 1) expect((await signIn(newClient(), 'nurse_manager')).statusCode).toBe(200);
  });

  it('the per-account limit answers an unknown email exactly as a real one (no enumeration through 429)', async () => {
    const real = demoAccount('guest').email;
    const unknown = 'no.such.person@healthcare.demo';
    for (let i = 0; i < LIMIT; i += 1) {
      await login(newClient(), real, `wrong-${i}`);
      await login(newClient(), unknown, `wrong-${i}`);
    }
    const a = await login(newClient(), real, 'wrong');
    const b = await login(newClient(), unknown, 'wrong');
    expectRateLimited(a);
    expect(a.json<{ error: { code: string } }>().error.code).toBe(b.json<{ error: { code: string } }>().error.code);
    expect(a.statusCode).toBe(b.statusCode);
  });
});

describe('lockout cannot keep the real user out (docs/sign-in-policy.md)', () => {
  it('wrong passwords never lock the account; once the attacker’s minute passes the owner signs in', async () => {
    const victim = demoAccount('doctor');
    const [row] = await t.database.db.select().from(users).where(eq(users.email, victim.email));
    for (let i = 0; i < LIMIT * 3; i += 1) await login(newClient(), victim.email, `guess-${i}`);
    // Guessing passwords wrote no lock: the lock only follows wrong one-time codes after the right password.
    expect(await t.database.db.select().from(signInLockouts).where(eq(signInLockouts.userId, row!.id))).toEqual([]);
    expectRateLimited(await login(newClient(), victim.email, victim.password));
    waitMinutes(1);
    expect((await signIn(newClient(), 'doctor')).statusCode).toBe(200);
  });

  it('a successful sign-in clears the wrong-code count (the 60 s lock itself: auth.routes.test.ts)', async () => {
    const account = demoAccount('patient');
    const submit = (challengeId: string, code: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/mfa',
        payload: { challengeId, code },
        headers: { 'x-forwarded-for': newClient() },
      });
    const start = async () =>
      (await login(newClient(), account.email, account.password)).json<{ challengeId: string; demoCode: string }>();
    const wrong = (code: string) => (code === '123456' ? '654321' : '123456');

    const first = await start();
    for (let i = 0; i < 4; i += 1)
      expect((await submit(first.challengeId, wrong(first.demoCode))).statusCode).toBe(401);
    expect((await submit(first.challengeId, first.demoCode)).statusCode).toBe(200);
    // The count was cleared by the success: a new attempt has all 5 tries again.
    const second = await start();
    const res = await submit(second.challengeId, wrong(second.demoCode));
    expect(res.json<{ error: { message: string } }>().error.message).toBe('Incorrect MFA code. 4 attempts remaining.');
    expect((await submit(second.challengeId, second.demoCode)).statusCode).toBe(200);
  });
});

describe('no user enumeration (ASVS 6.3.8)', () => {
  it('an unknown email, a wrong password and a deactivated account get the same answer and the same hash work', async () => {
    const account = demoAccount('nurse_manager');
    const [row] = await t.database.db.select().from(users).where(eq(users.email, account.email));
    const spy = vi.mocked(verifyPassword);

    spy.mockClear();
    const unknown = await login(newClient(), 'nobody.here@healthcare.demo', account.password);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]?.[0]).toBe(await dummyPasswordHash());
    expect(spy.mock.calls[0]?.[0]).toMatch(/^\$argon2id\$/);

    spy.mockClear();
    const wrongPassword = await login(newClient(), account.email, 'not-the-password');
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]?.[0]).toBe(row!.passwordHash);

    await t.database.db.update(users).set({ active: false }).where(eq(users.id, row!.id));
    spy.mockClear();
    let deactivated: LightMyRequestResponse;
    try {
      deactivated = await login(newClient(), account.email, account.password);
    } finally {
      await t.database.db.update(users).set({ active: true }).where(eq(users.id, row!.id));
    }
    expect(spy).toHaveBeenCalledTimes(1);

    for (const res of [unknown, wrongPassword, deactivated]) {
      expect(res.statusCode).toBe(401);
      expect(res.body).toBe(unknown.body);
    }
    expect(unknown.json()).toEqual({
      error: { code: 'INVALID_CREDENTIALS', message: 'Please check your email and password.' },
    });
  });

  it('a locked account is revealed only with the right password: a wrong one answers as for an unknown email', async () => {
    const account = demoAccount('admin');
    const client = newClient();
    const step1 = (await login(client, account.email, account.password)).json<{
      challengeId: string;
      demoCode: string;
    }>();
    const wrong = step1.demoCode === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i += 1) {
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/mfa',
        payload: { challengeId: step1.challengeId, code: wrong },
        headers: { 'x-forwarded-for': client },
      });
    }
    expect((await login(newClient(), account.email, account.password)).statusCode).toBe(423);
    const wrongWhileLocked = await login(newClient(), account.email, 'not-the-password');
    const unknown = await login(newClient(), 'nobody.at.all@healthcare.demo', 'not-the-password');
    expect(wrongWhileLocked.statusCode).toBe(401);
    expect(wrongWhileLocked.body).toBe(unknown.body);
    t.clock.advance(61_000); // the lock is over
  });

  it('the MFA step answers a challenge of a since-deactivated account exactly as an unknown challenge', async () => {
    const account = demoAccount('patient');
    const client = newClient();
    const { challengeId, demoCode } = (await login(client, account.email, account.password)).json<{
      challengeId: string;
      demoCode: string;
    }>();
    const [row] = await t.database.db.select().from(users).where(eq(users.email, account.email));
    await t.database.db.update(users).set({ active: false }).where(eq(users.id, row!.id));
    let ofDeactivated: LightMyRequestResponse;
    try {
      ofDeactivated = await t.app.inject({
        method: 'POST',
        url: '/api/auth/mfa',
        payload: { challengeId, code: demoCode },
        headers: { 'x-forwarded-for': client },
      });
    } finally {
      await t.database.db.update(users).set({ active: true }).where(eq(users.id, row!.id));
    }
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/mfa',
      payload: { challengeId: 'x'.repeat(43), code: demoCode },
      headers: { 'x-forwarded-for': newClient() },
    });
    expect(ofDeactivated.statusCode).toBe(401);
    expect(ofDeactivated.body).toBe(unknown.body);
    expect(ofDeactivated.headers['set-cookie']).toBeUndefined();
  });
});
