import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { format, resolveConfig } from 'prettier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '@/shared/access';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import {
  CALLERS,
  MATRIX_JSON,
  MATRIX_MARKDOWN,
  MATRIX_METHODS,
  NO_SESSION,
  REGENERATE,
  buildAccessMatrix,
  diffAccessMatrix,
  renderAccessMatrixMarkdown,
  type AccessMatrix,
  type Caller,
  type MatrixMethod,
} from './access-matrix';
import { projectRoot } from './db/client';

/**
 * The committed access matrix (docs/access-matrix.json) must be what the policy and the registered routes
 * give now, and drives the calls: every path × every method × every role and no session, answered exactly
 * as the matrix says (ASVS V8.1.1, V8.2.1, V8.3.1; HIPAA 164.312(a)(1)).
 */
let t: TestApp;
let committed: AccessMatrix;
const sessions = new Map<Role, SignedIn>();

beforeAll(async () => {
  t = await createTestApp();
  committed = JSON.parse(await readFile(path.join(projectRoot(), MATRIX_JSON), 'utf8')) as AccessMatrix;
  for (const role of ROLES) sessions.set(role, await signInAs(t.app, role));
});
afterAll(async () => {
  await t.close();
});

/** A URL the pattern matches ('*' is under @fastify/swagger-ui's static files, so a real one is named). */
function concrete(url: string): string {
  return url.replace(/:[a-zA-Z]+/g, '1').replace('*', 'swagger-ui.css');
}

/**
 * The matrix entry of the route the router picks for a URL and method, as find-my-way does: a static
 * segment before a parameter, a parameter before a wildcard. PATCH /api/appointments/practice-hours is
 * PATCH /api/appointments/:id with id "practice-hours", so it answers as that route.
 */
function routeFor(method: MatrixMethod, url: string) {
  const segments = url.split('/');
  let best: { rank: number[]; entry: NonNullable<AccessMatrix['paths'][number]['methods'][MatrixMethod]> } | null =
    null;
  for (const { path: pattern, methods } of committed.paths) {
    const entry = methods[method];
    if (!entry) continue;
    const parts = pattern.split('/');
    const rank: number[] = [];
    let matches = true;
    for (let i = 0; i < parts.length && matches; i += 1) {
      const part = parts[i]!;
      if (part === '*') {
        rank.push(2);
        break;
      }
      if (i >= segments.length) matches = false;
      else if (part.startsWith(':')) rank.push(1);
      else if (part === segments[i]) rank.push(0);
      else matches = false;
    }
    if (matches && !parts.includes('*') && parts.length !== segments.length) matches = false;
    const better = (a: number[], b: number[]) => {
      for (let i = 0; i < Math.min(a.length, b.length); i += 1) if (a[i] !== b[i]) return a[i]! < b[i]!;
      return a.length > b.length;
    };
    if (matches && (!best || better(rank, best.rank))) best = { rank, entry };
  }
  return best?.entry ?? null;
}

const HOW_TO_FIX = `The access matrix is out of date: run \`${REGENERATE}\`, review the diff of ${MATRIX_JSON} and commit it with ${MATRIX_MARKDOWN}.`;

/** An answer that carries nothing but the error envelope. */
function onlyAnError(res: LightMyRequestResponse): boolean {
  try {
    const body = res.json<Record<string, unknown>>();
    return Object.keys(body).join() === 'error' && typeof body.error === 'object';
  } catch {
    return false;
  }
}

/** Fastify's answer when no route matched the path and method (app.ts notFound). */
function noSuchEndpoint(res: LightMyRequestResponse): boolean {
  return res.statusCode === 404 && /No such endpoint/.test(res.body);
}

describe('access matrix', () => {
  it('every API route declares its access', () => {
    const api = t.app.routeRegistry.filter((r) => r.url.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(5);
    for (const route of api) expect(route.permission).toBeTruthy();
  });

  it('the committed matrix is what the policy and the registered routes give now', () => {
    const current = buildAccessMatrix(t.app.routeRegistry);
    expect(diffAccessMatrix(committed, current), HOW_TO_FIX).toEqual([]);
  });

  it('the readable matrix is the committed one', async () => {
    const file = path.join(projectRoot(), MATRIX_MARKDOWN);
    const expected = await format(renderAccessMatrixMarkdown(committed), {
      ...(await resolveConfig(file)),
      filepath: file,
    });
    expect(await readFile(file, 'utf8'), HOW_TO_FIX).toBe(expected);
  });

  it('a route registered without regenerating is reported, with how to regenerate', () => {
    const added = [
      ...t.app.routeRegistry,
      { method: 'DELETE', url: '/api/patients/:id', permission: 'public' as const },
    ];
    const changed = t.app.routeRegistry.map((r) =>
      r.method === 'GET' && r.url === '/api/audit' ? { ...r, permission: 'authenticated' as const } : r,
    );
    expect(diffAccessMatrix(committed, buildAccessMatrix(added))).toEqual([
      'DELETE /api/patients/:id is registered but missing from the matrix',
    ]);
    expect(diffAccessMatrix(committed, buildAccessMatrix(changed))[0]).toMatch(/^GET \/api\/audit changed/);
    expect(diffAccessMatrix(committed, buildAccessMatrix(t.app.routeRegistry.slice(1)))).toHaveLength(1);
  });

  it(
    'answers every path with every method, as every role and without a session, exactly as the matrix says',
    { timeout: 120_000 },
    async () => {
      // Logout ends the session it is called with: called last so the other calls keep theirs.
      const paths = [...committed.paths].sort(
        (a, b) => Number(a.path === '/api/auth/logout') - Number(b.path === '/api/auth/logout'),
      );
      const call = (caller: Caller, method: MatrixMethod, url: string) => {
        // Unsafe methods carry the session's CSRF token (signInAs), so the gate's answer is the policy's, not CSRF's.
        const options = { method, url, payload: method === 'GET' ? undefined : {} };
        return caller === NO_SESSION ? t.app.inject(options) : sessions.get(caller)!.request(options);
      };
      const { rows: started } = await t.database.pool.query<{ id: string | null }>(
        'select max(id) as id from audit_log',
      );
      const mismatches: string[] = [];
      let calls = 0;
      for (const { path: routePath, methods } of paths) {
        const url = concrete(routePath);
        for (const method of MATRIX_METHODS) {
          // Usually the path's own entry; for a method the path lacks, the route that matches instead (or none).
          const entry = methods[method] ?? routeFor(method, url);
          await Promise.all(
            CALLERS.map(async (caller) => {
              const res = await call(caller, method, url);
              calls += 1;
              const where = `${method} ${routePath} as ${caller}: ${res.statusCode}`;
              if (entry === null) {
                // No route for this method and URL: nothing runs, nothing but the error comes back, whoever asks.
                if (![404, 405].includes(res.statusCode) || !onlyAnError(res))
                  mismatches.push(`${where}, expected 404/405 with no data (method not registered)`);
                return;
              }
              const decision = entry.callers[caller];
              const denied = res.statusCode === 401 || res.statusCode === 403;
              if (decision === 'deny') {
                const expected = caller === NO_SESSION ? 401 : 403;
                if (res.statusCode !== expected || !onlyAnError(res))
                  mismatches.push(`${where}, expected ${expected} with no data (${entry.permission})`);
              } else if (denied || noSuchEndpoint(res)) {
                mismatches.push(`${where}, expected the route to run (${entry.permission})`);
              }
            }),
          );
        }
      }
      expect(mismatches).toEqual([]);
      expect(calls).toBe(committed.paths.length * MATRIX_METHODS.length * CALLERS.length);
      // Every entry those calls wrote (refusals, reads, sign-outs) names the client it came from.
      const { rows: withoutClient } = await t.database.pool.query<{ action: string; entries: string }>(
        `select action, count(*) as entries from audit_log where id > $1 and client_addr is null group by action`,
        [started[0]?.id ?? 0],
      );
      expect(withoutClient).toEqual([]);
    },
  );

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
        allowedHosts: ['localhost'],
      },
    });
    expect(() => app.get('/api/undeclared', () => 'x')).toThrow(/declares no permission/);
  });
});
