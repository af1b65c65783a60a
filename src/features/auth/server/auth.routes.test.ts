import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { auditLog } from '@/features/audit/server/audit.table';
import { createTestApp, cookieFrom, demoAccount, signInAs, type TestApp } from '@/testing/test-app';
import { sha256 } from './auth.queries';
import { sessions } from './auth.table';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function login(email: string, password: string) {
  return t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
}

async function startChallenge(role: Parameters<typeof demoAccount>[0]) {
  const account = demoAccount(role);
  const res = await login(account.email, account.password);
  expect(res.statusCode).toBe(200);
  return res.json<{ challengeId: string; demoCode: string }>();
}

function wrongCode(code: string) {
  return code === '123456' ? '654321' : '123456';
}

async function lastAudit() {
  const [row] = await t.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  return row;
}

describe('sign-in', () => {
  it('signs in through both steps and reports the session', async () => {
    const account = demoAccount('doctor');
    const step1 = await login(account.email.toUpperCase(), account.password);
    expect(step1.statusCode).toBe(200);
    const { challengeId, demoCode } = step1.json<{ challengeId: string; demoCode: string }>();
    expect(demoCode).toMatch(/^[1-9]\d{5}$/);

    const step2 = await t.app.inject({
      method: 'POST',
      url: '/api/auth/mfa',
      payload: { challengeId, code: demoCode },
    });
    expect(step2.statusCode).toBe(200);
    const cookie = step2.cookies.find((c) => c.name === 'sid');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Strict');
    expect(step2.json()).toMatchObject({ user: { email: account.email, role: 'doctor' }, mfa: true });

    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      cookies: { sid: cookie?.value ?? '' },
    });
    expect(session.json()).toMatchObject({ user: { role: 'doctor' }, mfa: true });
    expect((await lastAudit())?.action).toBe('auth.login.success');
  });

  it('answers an unknown email and a wrong password identically, and audits both', async () => {
    const wrongPassword = await login(demoAccount('admin').email, 'not-the-password');
    const unknownEmail = await login('nobody@healthcare.demo', 'admin');
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(wrongPassword.body).toBe(unknownEmail.body);
    expect(wrongPassword.json()).toEqual({
      error: { code: 'INVALID_CREDENTIALS', message: 'Please check your email and password.' },
    });
    const entry = await lastAudit();
    expect(entry?.action).toBe('auth.login.failure');
    expect(entry?.detail).not.toContain('admin');
  });

  it('names the field and the rule for bad input', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'not-an-email', password: '' },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ error: { code: string; fields: { field: string }[] } }>();
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.fields.map((f) => f.field).sort()).toEqual(['email', 'password']);
  });

  it('refuses a code that was already used', async () => {
    const { challengeId, demoCode } = await startChallenge('guest');
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/auth/mfa',
      payload: { challengeId, code: demoCode },
    });
    expect(first.statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/mfa',
      payload: { challengeId, code: demoCode },
    });
    expect(again.statusCode).toBe(401);
    expect(again.json<{ error: { code: string } }>().error.code).toBe('CHALLENGE_EXPIRED');
    expect(await lastAudit()).toMatchObject({ action: 'auth.mfa.expired', actor: 'anonymous' });
  });

  it('expires a code after 5 minutes', async () => {
    const { challengeId, demoCode } = await startChallenge('guest');
    t.clock.advance(5 * 60 * 1000 + 1);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/mfa', payload: { challengeId, code: demoCode } });
    expect(res.statusCode).toBe(401);
    expect(res.json<{ error: { code: string } }>().error.code).toBe('CHALLENGE_EXPIRED');
  });
});

describe('lockout after 5 wrong codes', () => {
  it('counts down, locks for 60 s, keeps the count after the lock, and lets the right code in afterwards', async () => {
    const { challengeId, demoCode } = await startChallenge('nurse_manager');
    const submit = (code: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/mfa', payload: { challengeId, code } });

    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const res = await submit(wrongCode(demoCode));
      expect(res.statusCode).toBe(401);
      expect(res.json<{ error: { message: string } }>().error.message).toBe(
        // One left reads in the singular.
        `Incorrect MFA code. ${5 - attempt} ${attempt === 4 ? 'attempt' : 'attempts'} remaining.`,
      );
    }
    const fifth = await submit(wrongCode(demoCode));
    expect(fifth.statusCode).toBe(423);
    expect(fifth.json<{ error: { message: string } }>().error.message).toBe(
      'Too many failed attempts. Account locked for 60 seconds.',
    );
    expect((await lastAudit())?.action).toBe('auth.locked');

    // Even the right code is refused while locked, with the seconds left.
    t.clock.advance(20_000);
    const whileLocked = await submit(demoCode);
    expect(whileLocked.statusCode).toBe(423);
    expect(whileLocked.json<{ error: { message: string } }>().error.message).toBe(
      'Too many failed attempts. Try again in 40 seconds.',
    );
    expect((await lastAudit())?.action).toBe('auth.mfa.locked_out');
    const account = demoAccount('nurse_manager');
    const passwordWhileLocked = await login(account.email, account.password);
    expect(passwordWhileLocked.statusCode).toBe(423);
    expect((await lastAudit())?.action).toBe('auth.login.locked_out');

    // The counter is not reset by the lock, so one more wrong code after it locks again.
    t.clock.advance(41_000);
    const sixth = await submit(wrongCode(demoCode));
    expect(sixth.statusCode).toBe(423);
    expect(sixth.json<{ error: { message: string } }>().error.message).toBe(
      'Too many failed attempts. Account locked for 60 seconds.',
    );

    t.clock.advance(61_000);
    const fresh = await startChallenge('nurse_manager');
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/mfa',
      payload: { challengeId: fresh.challengeId, code: fresh.demoCode },
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('ends after 15 minutes idle', async () => {
    const s = await signInAs(t.app, 'billing_admin');
    t.clock.advance(14 * 60 * 1000);
    expect((await s.request({ method: 'GET', url: '/api/settings' })).statusCode).toBe(200);
    t.clock.advance(14 * 60 * 1000); // active 14 min ago: still alive
    expect((await s.request({ method: 'GET', url: '/api/settings' })).statusCode).toBe(200);
    t.clock.advance(15 * 60 * 1000 + 1);
    expect((await s.request({ method: 'GET', url: '/api/settings' })).statusCode).toBe(401);
    const session = await s.request({ method: 'GET', url: '/api/auth/session' });
    expect(session.json()).toMatchObject({ user: null });
  });

  it('ends after 12 hours however active', async () => {
    const s = await signInAs(t.app, 'billing_admin');
    for (let elapsed = 0; elapsed < 12 * 60; elapsed += 10) {
      t.clock.advance(10 * 60 * 1000);
      const res = await s.request({ method: 'GET', url: '/api/auth/session' });
      if (elapsed + 10 >= 12 * 60) expect(res.json()).toMatchObject({ user: null });
      else expect(res.json()).toMatchObject({ user: { role: 'billing_admin' } });
    }
  });

  it('logout destroys the server session', async () => {
    const s = await signInAs(t.app, 'admin');
    const out = await s.request({ method: 'POST', url: '/api/auth/logout' });
    expect(out.statusCode).toBe(204);
    const rows = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, sha256(s.sessionId)));
    expect(rows).toEqual([]);
    expect((await s.request({ method: 'GET', url: '/api/settings' })).statusCode).toBe(401);
  });

  it('gives a new session id at every sign-in and drops the one the browser carried', async () => {
    const first = await signInAs(t.app, 'doctor');
    const { challengeId, demoCode } = await startChallenge('doctor');
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/auth/mfa',
      payload: { challengeId, code: demoCode },
      cookies: { sid: first.sessionId },
      headers: { 'x-csrf-token': first.csrfToken },
    });
    expect(second.statusCode).toBe(200);
    const newId = cookieFrom(second);
    expect(newId).toBeDefined();
    expect(newId).not.toBe(first.sessionId);
    expect((await first.request({ method: 'GET', url: '/api/settings' })).statusCode).toBe(401);
  });
});

describe('the role comes from the session only', () => {
  it('ignores a forged X-User-Role header and audits it', async () => {
    const nurse = await signInAs(t.app, 'nurse_manager');
    const res = await nurse.request({ method: 'GET', url: '/api/search?q=ACC', headers: { 'x-user-role': 'admin' } });
    expect(res.statusCode).toBe(200);
    // A nurse manager cannot open /claims, so the claims group stays closed whatever the header says.
    expect(res.json()).toMatchObject({ claims: null });
    const [mismatch] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'security.role_header_mismatch'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(mismatch?.actor).toBe(demoAccount('nurse_manager').email);
    expect(mismatch?.detail).toContain('admin');
  });

  it('refuses a state-changing call without the CSRF token or from another origin', async () => {
    const s = await signInAs(t.app, 'doctor');
    const noToken = await t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      cookies: { sid: s.sessionId },
      payload: { highContrast: true },
    });
    expect(noToken.statusCode).toBe(403);
    const crossSite = await s.request({
      method: 'PATCH',
      url: '/api/settings',
      payload: { highContrast: true },
      headers: { origin: 'https://evil.example', host: 'localhost:5000' },
    });
    expect(crossSite.statusCode).toBe(403);
    const ok = await s.request({ method: 'PATCH', url: '/api/settings', payload: { highContrast: true } });
    expect(ok.statusCode).toBe(200);
  });
});
