import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_CACHE_HEADER } from '@/server/plugins/answer-cache';
import { createTestApp, demoAccount, type TestApp } from '@/testing/test-app';

/**
 * Every audit entry a request writes names the client it came from (address and user agent), whichever
 * path wrote it: the sign-in steps, a PHI read, a read served again from the answer cache, a change, a
 * refusal by the access gate, a self-registration and a sign-out. The client is handed down explicitly
 * (request-client.ts), so an entry written without it is a path that forgot to pass it.
 */
const USER_AGENT = 'AuditClientTest/1.0 (front desk PC 3)';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { withChangeFeed: true });
});
afterAll(async () => {
  await t.close();
});

function call(options: InjectOptions) {
  return t.app.inject({ ...options, headers: { 'user-agent': USER_AGENT, ...(options.headers ?? {}) } });
}

async function signIn(role: 'doctor' | 'billing_admin') {
  const account = demoAccount(role);
  const login = await call({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: account.email, password: account.password },
  });
  expect(login.statusCode).toBe(200);
  const { challengeId, demoCode } = login.json<{ challengeId: string; demoCode: string }>();
  const mfa = await call({ method: 'POST', url: '/api/auth/mfa', payload: { challengeId, code: demoCode } });
  expect(mfa.statusCode).toBe(200);
  const sid = mfa.cookies.find((c) => c.name === 'sid')?.value ?? '';
  const csrf = mfa.json<{ csrfToken: string }>().csrfToken;
  return (options: InjectOptions) =>
    call({ ...options, cookies: { sid }, headers: { 'x-csrf-token': csrf, ...(options.headers ?? {}) } });
}

async function maxAuditId(): Promise<number> {
  const { rows } = await t.database.pool.query<{ id: string | null }>('select max(id) as id from audit_log');
  return Number(rows[0]?.id ?? 0);
}

describe('audit entries written by a request', () => {
  it('all name the request’s client address and user agent, on every path that writes one', async () => {
    const before = await maxAuditId();

    const wrongPassword = await call({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: demoAccount('doctor').email, password: 'not the password at all' },
    });
    expect(wrongPassword.statusCode).toBe(401);
    const doctor = await signIn('doctor');
    // Read until an answer comes from memory: the sign-in's own writes, heard late, may end the first one.
    let read = await doctor({ method: 'GET', url: '/api/patients?limit=5' });
    expect(read.statusCode).toBe(200);
    let reads = 1;
    while (read.headers[ANSWER_CACHE_HEADER] !== 'hit' && reads < 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      read = await doctor({ method: 'GET', url: '/api/patients?limit=5' });
      reads += 1;
    }
    expect(read.headers[ANSWER_CACHE_HEADER]).toBe('hit');
    const refused = await doctor({ method: 'GET', url: '/api/audit?limit=5' });
    expect(refused.statusCode).toBe(403);
    const anonymous = await call({ method: 'GET', url: '/api/claims?limit=5' });
    expect(anonymous.statusCode).toBe(401);
    const registered = await call({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        name: 'Rosa Client-Test',
        dob: '1979-04-02',
        phone: '(555) 301-7744',
        email: 'rosa.client-test@example.com',
        password: 'a-long-enough-passphrase',
      },
    });
    expect(registered.statusCode).toBe(201);
    const billing = await signIn('billing_admin');
    const scrub = await billing({ method: 'POST', url: '/api/claims/scrub' });
    expect(scrub.statusCode).toBe(200);
    expect((await doctor({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(204);

    const { rows } = await t.database.pool.query<{
      action: string;
      client_addr: string | null;
      user_agent: string | null;
    }>('select action, client_addr, user_agent from audit_log where id > $1 order by id', [before]);
    const actions = new Set(rows.map((r) => r.action));
    // The paths above each wrote their entries (so the check below is not vacuous).
    for (const action of [
      'auth.login.failure',
      'auth.login.success',
      'patients.list.view',
      'access.denied',
      'access.unauthenticated',
      'auth.register',
      'claim.scrub',
      'auth.logout',
    ]) {
      expect(actions, `an entry ${action} was written`).toContain(action);
    }
    expect(rows.filter((r) => r.action === 'patients.list.view')).toHaveLength(reads);
    const withoutClient = rows.filter((r) => r.client_addr !== '127.0.0.1' || r.user_agent !== USER_AGENT);
    expect(withoutClient.map((r) => `${r.action}: ${r.client_addr} / ${r.user_agent}`)).toEqual([]);
  });
});
