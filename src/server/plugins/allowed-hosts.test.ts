import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, demoAccount, type TestApp } from '@/testing/test-app';
import { hostNameOf } from './allowed-hosts';

let byDefault: TestApp;
let named: TestApp;
let behindProxy: TestApp;

beforeAll(async () => {
  byDefault = await createTestApp();
  named = await createTestApp({ allowedHosts: ['rcm.clinic.example', 'lb.internal'] });
  // secureCookies trusts X-Forwarded-* from loopback and private addresses (app.ts); inject comes from 127.0.0.1.
  behindProxy = await createTestApp({ secureCookies: true, allowedHosts: ['rcm.clinic.example'] });
});
afterAll(async () => {
  await byDefault.close();
  await named.close();
  await behindProxy.close();
});

async function auditCount(t: TestApp): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: string }>('select count(*) as n from audit_log');
  return Number(rows[0]?.n);
}

const MISDIRECTED = {
  error: {
    code: 'MISDIRECTED_REQUEST',
    message: "Host: must be one of this server's names (ALLOWED_HOSTS)",
    fields: [{ field: 'Host', message: "must be one of this server's names (ALLOWED_HOSTS)" }],
  },
};

describe('the Host allow-list', () => {
  it.each(['localhost', 'localhost:5000', '127.0.0.1:5104', '[::1]:5000', 'LOCALHOST', hostname(), `${hostname()}:80`])(
    'answers the default names, any port: %s',
    async (host) => {
      const res = await byDefault.app.inject({ url: '/api/health', headers: { host } });
      expect(res.statusCode).toBe(200);
    },
  );

  it.each([
    'rebind.evil.example',
    'rebind.evil.example:5000',
    'localhost.evil.example',
    '10.0.0.5:5000',
    'localhost:5000:80',
    'local host',
  ])('refuses any other Host with 421 in the error envelope, with the API headers: %j', async (host) => {
    for (const url of ['/api/health', '/api/patients', '/', '/no-such-page']) {
      const res = await byDefault.app.inject({ url, headers: { host } });
      expect(res.statusCode).toBe(421);
      expect(res.json()).toEqual(MISDIRECTED);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    expect((await byDefault.app.inject({ url: '/api/health', headers: { host } })).headers['cache-control']).toBe(
      'no-store',
    );
  });

  it('refuses a DNS-rebinding sign-in (Origin and Host both the attacker’s name) before anything runs', async () => {
    const before = await auditCount(byDefault);
    const account = demoAccount('admin');
    const res = await byDefault.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { host: 'rebind.evil.example:5000', origin: 'http://rebind.evil.example:5000' },
      payload: { email: account.email, password: account.password },
    });
    expect(res.statusCode).toBe(421);
    expect(res.json()).toEqual(MISDIRECTED);
    expect(await auditCount(byDefault)).toBe(before);
  });

  it('compares the Origin with the allow-list as well as with the Host', async () => {
    const account = demoAccount('admin');
    const login = (headers: Record<string, string>) =>
      named.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers,
        payload: { email: account.email, password: account.password },
      });
    expect((await login({ host: 'rcm.clinic.example', origin: 'https://rcm.clinic.example' })).statusCode).toBe(200);
    // Another allowed name than the Host asked for, and a name that is not allowed at all.
    expect((await login({ host: 'rcm.clinic.example', origin: 'https://lb.internal' })).statusCode).toBe(403);
    expect((await login({ host: 'rcm.clinic.example', origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await login({ host: 'rcm.clinic.example', origin: 'ftp://rcm.clinic.example' })).statusCode).toBe(403);
  });

  it('ALLOWED_HOSTS replaces the default names: a load balancer must send one of them too', async () => {
    expect(
      (await named.app.inject({ url: '/api/health', headers: { host: 'rcm.clinic.example:443' } })).statusCode,
    ).toBe(200);
    expect((await named.app.inject({ url: '/api/health', headers: { host: 'lb.internal' } })).statusCode).toBe(200);
    expect((await named.app.inject({ url: '/api/health', headers: { host: 'localhost' } })).statusCode).toBe(421);
  });

  it('behind a trusted proxy, checks the host the browser asked for (X-Forwarded-Host)', async () => {
    const forwarded = (host: string) =>
      behindProxy.app.inject({ url: '/api/health', headers: { host: 'backend:5000', 'x-forwarded-host': host } });
    expect((await forwarded('rcm.clinic.example')).statusCode).toBe(200);
    expect((await forwarded('rebind.evil.example')).statusCode).toBe(421);
  });

  it('reads the name of a Host header, or nothing from a malformed one', () => {
    expect(hostNameOf('Example.ORG:8080')).toBe('example.org');
    expect(hostNameOf('[::1]:5000')).toBe('[::1]');
    expect(hostNameOf('127.0.0.1')).toBe('127.0.0.1');
    expect(hostNameOf('a b')).toBeNull();
    expect(hostNameOf('user@example.org')).toBeNull();
    expect(hostNameOf(undefined)).toBeNull();
  });
});
