import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, allows, type Role } from '@/shared/access';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';

/**
 * Calls every registered API route as every role and with no session, and compares the answer with
 * the policy: a denied caller gets 401 (no session) or 403; an allowed one gets neither.
 */
let t: TestApp;
const sessions = new Map<Role, SignedIn>();

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ROLES) sessions.set(role, await signInAs(t.app, role));
});
afterAll(async () => {
  await t.close();
});

function concrete(url: string): string {
  return url.replace(/:[a-zA-Z]+/g, '1').replace('*', 'x');
}

describe('access matrix', () => {
  it('every API route declares its access', () => {
    const api = t.app.routeRegistry.filter((r) => r.url.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(5);
    for (const route of api) expect(route.permission).toBeTruthy();
  });

  it('answers every route as the policy says, for every role and for no session', async () => {
    const routes = t.app.routeRegistry.filter((r) => r.url.startsWith('/api/') && r.url !== '/api/auth/logout');
    const mismatches: string[] = [];
    for (const route of routes) {
      for (const role of [...ROLES, null]) {
        const options = {
          method: route.method as 'GET',
          url: concrete(route.url),
          payload: route.method === 'GET' ? undefined : {},
        };
        const res = role ? await sessions.get(role)!.request(options) : await t.app.inject(options);
        const allowed = allows(route.permission, role);
        const denied = res.statusCode === 401 || res.statusCode === 403;
        const expected = allowed ? 'allowed' : role ? '403' : '401';
        const actual = denied ? String(res.statusCode) : 'allowed';
        if (expected !== actual)
          mismatches.push(`${route.method} ${route.url} as ${role ?? 'no session'}: ${actual}, expected ${expected}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('refuses to start when a route declares no permission', async () => {
    const { default: Fastify } = await import('fastify');
    const { registerAccessControl } = await import('./plugins/access');
    const app = Fastify();
    registerAccessControl(app, {
      db: t.database.db,
      clock: t.clock,
      config: {
        demoMode: true,
        secureCookies: false,
        sessionIdleMinutes: 15,
        sessionAbsoluteHours: 12,
        loginRateLimitPerMinute: 10,
      },
    });
    expect(() => app.get('/api/undeclared', () => 'x')).toThrow(/declares no permission/);
  });
});
