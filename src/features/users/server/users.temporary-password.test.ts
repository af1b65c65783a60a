import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, cookieFrom, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function createAccount(email: string, role = 'doctor') {
  // Signed in afresh each time: the tests move the clock past the session's idle limit.
  const admin: SignedIn = await signInAs(t.app, 'admin');
  const res = await admin.request({ method: 'POST', url: '/api/users', payload: { name: 'New Person', email, role } });
  expect(res.statusCode).toBe(201);
  return res.json<{ temporaryPassword: string }>().temporaryPassword;
}

async function signIn(email: string, password: string) {
  const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (login.statusCode !== 200) return { login };
  const { challengeId, demoCode } = login.json<{ challengeId: string; demoCode: string }>();
  const mfa = await t.app.inject({ method: 'POST', url: '/api/auth/mfa', payload: { challengeId, code: demoCode } });
  const sid = cookieFrom(mfa) ?? '';
  const csrf = mfa.json<{ csrfToken: string }>().csrfToken;
  return {
    login,
    mfa,
    request: (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({
        method,
        url,
        cookies: { sid },
        headers: { 'x-csrf-token': csrf },
        ...(payload ? { payload } : {}),
      }),
  };
}

describe('temporary passwords', () => {
  it('expire 72 hours after the account was created: sign-in is refused with a clear message', async () => {
    const password = await createAccount('expires@clinic.example');
    t.clock.advance(72 * 3600 * 1000 - 60_000);
    expect((await signIn('expires@clinic.example', password)).login.statusCode).toBe(200);
    t.clock.advance(60_000);
    const { login } = await signIn('expires@clinic.example', password);
    expect(login.statusCode).toBe(401);
    expect(login.json<{ error: { code: string; message: string } }>().error).toMatchObject({
      code: 'TEMPORARY_PASSWORD_EXPIRED',
      message: 'Your temporary password has expired (it is valid for 72 hours). Ask an administrator for a new one.',
    });
  });

  it('must be changed at first sign-in: every other API call answers 403 PASSWORD_CHANGE_REQUIRED until then', async () => {
    const password = await createAccount('first@clinic.example', 'guest');
    const session = await signIn('first@clinic.example', password);
    expect(session.mfa?.json<{ passwordChangeRequired: boolean }>().passwordChangeRequired).toBe(true);
    const blocked = await session.request?.('GET', '/api/dashboard/summary');
    expect(blocked?.statusCode).toBe(403);
    expect(blocked?.json<{ error: { code: string; message: string } }>().error.code).toBe('PASSWORD_CHANGE_REQUIRED');
    expect(
      (await session.request?.('GET', '/api/auth/session'))?.json<{ passwordChangeRequired: boolean }>()
        .passwordChangeRequired,
    ).toBe(true);

    // A guest may not change its password otherwise, but an admin-created guest replaces its temporary one.
    const changed = await session.request?.('POST', '/api/account/password', {
      currentPassword: password,
      newPassword: 'a brand new passphrase',
    });
    expect(changed?.statusCode).toBe(200);
    expect(
      (await session.request?.('GET', '/api/auth/session'))?.json<{ passwordChangeRequired: boolean }>()
        .passwordChangeRequired,
    ).toBe(false);
    const after = await session.request?.('GET', '/api/dashboard/summary');
    expect(after?.json<{ error?: { code: string } }>().error?.code).not.toBe('PASSWORD_CHANGE_REQUIRED');
    // The new password does not expire.
    t.clock.advance(100 * 3600 * 1000);
    expect((await signIn('first@clinic.example', 'a brand new passphrase')).login.statusCode).toBe(200);
  });
});

describe('patients change their own password', () => {
  it('a signed-in patient changes the password on the Security tab', async () => {
    const patient = await signInAs(t.app, 'patient');
    const res = await patient.request({
      method: 'POST',
      url: '/api/account/password',
      payload: { currentPassword: 'patient', newPassword: 'my own new passphrase' },
    });
    expect(res.statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'patient@healthcare.demo', password: 'my own new passphrase' },
    });
    expect(login.statusCode).toBe(200);
  });
});
