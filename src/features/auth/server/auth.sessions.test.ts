/**
 * Sessions (docs/security.md): fixation, cookie flags, timeouts ending the server row (with and without the session
 * cache), deactivation and role changes taking effect at once, CSRF on every state-changing route, and no
 * GET route writing anything. Sign-in limits, lockout and enumeration: auth.sign-in-limits.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { DEFAULT_CONFIG } from '@/server/context';
import type { TestDatabase } from '@/testing/test-db';
import type { TestClock } from '@/testing/test-clock';
import { CHANGE_CHANNEL } from '@/server/db/change-feed';
import { createTestApp, cookieFrom, demoAccount, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { sha256 } from './auth.queries';
import { sessions } from './auth.table';

let t: TestApp;
beforeAll(async () => {
  // The CSRF tests below ask for the server by a name of its own.
  t = await createTestApp({ allowedHosts: ['localhost', 'clinic.example'] });
});
afterAll(async () => {
  await t.close();
});

async function startChallenge(app: FastifyInstance, role: Parameters<typeof demoAccount>[0]) {
  const account = demoAccount(role);
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: account.email, password: account.password },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['set-cookie']).toBeUndefined(); // the password step alone creates no session
  return res.json<{ challengeId: string; demoCode: string; expiresAt: string }>();
}

async function sessionRow(db: TestApp['database']['db'], sessionId: string) {
  const [row] = await db
    .select()
    .from(sessions)
    .where(eq(sessions.idHash, sha256(sessionId)));
  return row;
}

function setCookies(res: LightMyRequestResponse): string[] {
  const header = res.headers['set-cookie'];
  return header === undefined ? [] : [header].flat();
}

describe('session fixation (ASVS 7.2.4)', () => {
  it('a cookie value chosen before sign-in is never the session: a fresh id is issued and the old value stays dead', async () => {
    const planted = 'attacker-chosen-session-id-0123456789abcdef';
    const { challengeId, demoCode } = await startChallenge(t.app, 'doctor');
    const mfa = await t.app.inject({
      method: 'POST',
      url: '/api/auth/mfa',
      payload: { challengeId, code: demoCode },
      cookies: { sid: planted },
    });
    expect(mfa.statusCode).toBe(200);
    const issued = cookieFrom(mfa);
    expect(issued).toBeDefined();
    expect(issued).not.toBe(planted);
    expect(issued!.length).toBeGreaterThanOrEqual(43); // 32 random bytes, base64url
    expect(await sessionRow(t.database.db, planted)).toBeUndefined();
    const withPlanted = await t.app.inject({ method: 'GET', url: '/api/auth/session', cookies: { sid: planted } });
    expect(withPlanted.json()).toMatchObject({ user: null });
    const withIssued = await t.app.inject({ method: 'GET', url: '/api/auth/session', cookies: { sid: issued! } });
    expect(withIssued.json()).toMatchObject({ user: { role: 'doctor' } });
  });

  it('the MFA challenge id is not a session: it opens nothing, is stored as no session, and is not the new id', async () => {
    const { challengeId, demoCode } = await startChallenge(t.app, 'admin');
    const asCookie = await t.app.inject({ method: 'GET', url: '/api/settings', cookies: { sid: challengeId } });
    expect(asCookie.statusCode).toBe(401);
    const mfa = await t.app.inject({ method: 'POST', url: '/api/auth/mfa', payload: { challengeId, code: demoCode } });
    expect(mfa.statusCode).toBe(200);
    const sessionId = cookieFrom(mfa)!;
    expect(sessionId).not.toBe(challengeId);
    expect(mfa.json<{ csrfToken: string }>().csrfToken).not.toBe(challengeId);
    expect(await sessionRow(t.database.db, challengeId)).toBeUndefined();
    const afterSignIn = await t.app.inject({ method: 'GET', url: '/api/settings', cookies: { sid: challengeId } });
    expect(afterSignIn.statusCode).toBe(401);
  });
});

describe('the session cookie (ASVS 7.2.x, 3.3.x)', () => {
  it('is HttpOnly, SameSite=Strict, Path=/, host-only, lives as long as the absolute timeout; the CSRF token is in no cookie', async () => {
    const { challengeId, demoCode } = await startChallenge(t.app, 'billing_admin');
    const mfa = await t.app.inject({ method: 'POST', url: '/api/auth/mfa', payload: { challengeId, code: demoCode } });
    const cookies = setCookies(mfa);
    expect(cookies).toHaveLength(1); // only the session id: no readable CSRF or other cookie
    const attributes = cookies[0]!.split(';').map((part) => part.trim());
    expect(attributes[0]).toMatch(/^sid=[A-Za-z0-9_-]{43}$/);
    expect(attributes).toContain('HttpOnly');
    expect(attributes).toContain('SameSite=Strict');
    expect(attributes).toContain('Path=/');
    expect(attributes.some((a) => /^domain=/i.test(a))).toBe(false);
    expect(attributes).not.toContain('Secure'); // served over plain HTTP here (secureCookies off)
    // Max-Age, counted from when the browser receives it, not an Expires date its own clock would read.
    expect(attributes.some((a) => /^expires=/i.test(a))).toBe(false);
    expect(attributes).toContain(`Max-Age=${DEFAULT_CONFIG.sessionAbsoluteHours * 3600}`);
    const body = mfa.json<{ csrfToken: string; expiresAt: string; serverTime: string }>();
    const absoluteEnd = t.clock().getTime() + DEFAULT_CONFIG.sessionAbsoluteHours * 3600 * 1000;
    expect(new Date(body.expiresAt).getTime()).toBe(absoluteEnd);
    expect(body.serverTime).toBe(t.clock().toISOString());
    expect(cookies[0]).not.toContain(body.csrfToken);
  });

  it('logout expires the cookie in the browser as well as the server row', async () => {
    const s = await signInAs(t.app, 'guest');
    const out = await s.request({ method: 'POST', url: '/api/auth/logout' });
    expect(out.statusCode).toBe(204);
    const [cleared] = setCookies(out);
    expect(cleared).toMatch(/^sid=;/);
    expect(cleared).toContain('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
    expect(await sessionRow(t.database.db, s.sessionId)).toBeUndefined();
  });

  it('gets Secure when served over HTTPS (secureCookies, behind a TLS-terminating proxy)', async () => {
    const secure = await createTestApp({ secureCookies: true });
    try {
      const { challengeId, demoCode } = await startChallenge(secure.app, 'doctor');
      const mfa = await secure.app.inject({
        method: 'POST',
        url: '/api/auth/mfa',
        payload: { challengeId, code: demoCode },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(mfa.statusCode).toBe(200);
      const attributes = setCookies(mfa)[0]!
        .split(';')
        .map((part) => part.trim());
      expect(attributes).toContain('Secure');
      expect(attributes).toContain('HttpOnly');
      expect(attributes).toContain('SameSite=Strict');
    } finally {
      await secure.close();
    }
  });
});

describe('timeouts end the server session row (ASVS 7.3.1, 7.3.2; HIPAA 164.312(a)(2)(iii))', () => {
  it('an idle timeout deletes the row, so the cookie is dead even if the clock were wound back', async () => {
    const s = await signInAs(t.app, 'nurse_manager');
    t.clock.advance(15 * 60 * 1000);
    expect((await s.request({ method: 'GET', url: '/api/settings' })).statusCode).toBe(401);
    expect(await sessionRow(t.database.db, s.sessionId)).toBeUndefined();
    t.clock.advance(-15 * 60 * 1000);
    expect((await s.request({ method: 'GET', url: '/api/settings' })).statusCode).toBe(401);
  });

  it('the absolute timeout deletes the row', async () => {
    const s = await signInAs(t.app, 'nurse_manager');
    for (let minutes = 0; minutes < 12 * 60 - 10; minutes += 10) {
      t.clock.advance(10 * 60 * 1000);
      expect((await s.request({ method: 'GET', url: '/api/settings' })).statusCode).toBe(200);
    }
    t.clock.advance(10 * 60 * 1000);
    expect((await s.request({ method: 'GET', url: '/api/settings' })).statusCode).toBe(401);
    expect(await sessionRow(t.database.db, s.sessionId)).toBeUndefined();
  });
});

describe('CSRF (ASVS 3.5.1-3.5.3)', () => {
  let doctor: SignedIn;
  beforeAll(async () => {
    doctor = await signInAs(t.app, 'doctor');
  });
  const patchSettings = (headers: Record<string, string>, token = doctor.csrfToken) =>
    t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      payload: { highContrast: true },
      cookies: { sid: doctor.sessionId },
      headers: { 'x-csrf-token': token, host: 'clinic.example', ...headers },
    });

  it('accepts the same origin with the token, and refuses Fetch Metadata cross-site, an opaque origin, another session’s token', async () => {
    const sameOrigin = await patchSettings({ origin: 'http://clinic.example', 'sec-fetch-site': 'same-origin' });
    expect(sameOrigin.statusCode).toBe(200);
    const crossSite = await patchSettings({ 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json()).toEqual({ error: { code: 'CSRF', message: 'Cross-site request refused.' } });
    expect((await patchSettings({ origin: 'null' })).statusCode).toBe(403);
    expect((await patchSettings({ origin: 'http://clinic.example.evil.test' })).statusCode).toBe(403);
    const other = await signInAs(t.app, 'doctor');
    const foreignToken = await patchSettings({}, other.csrfToken);
    expect(foreignToken.statusCode).toBe(403);
    expect(foreignToken.json()).toMatchObject({ error: { code: 'CSRF' } });
  });

  it('every POST/PUT/PATCH/DELETE route refuses another origin and a missing token before doing anything', async () => {
    const admin = await signInAs(t.app, 'admin');
    const unsafe = t.app.routeRegistry.filter(
      (r) => r.url.startsWith('/api/') && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method),
    );
    expect(unsafe.length).toBeGreaterThan(10);
    const before = await fingerprint(t.database);
    const wrong: string[] = [];
    for (const route of unsafe) {
      const url = route.url.replace(/:[a-zA-Z]+/g, '1');
      const method = route.method as 'POST';
      const crossOrigin = await admin.request({
        method,
        url,
        payload: {},
        headers: { origin: 'https://evil.example', host: 'clinic.example' },
      });
      const noToken = await t.app.inject({ method, url, payload: {}, cookies: { sid: admin.sessionId } });
      // Without a session too: a forged sign-in (login CSRF) or registration from another site is refused.
      const anonymous = await t.app.inject({ method, url, payload: {}, headers: { 'sec-fetch-site': 'cross-site' } });
      for (const [how, res] of [
        ['cross-origin', crossOrigin],
        ['no token', noToken],
        ['anonymous cross-site', anonymous],
      ] as const) {
        if (res.statusCode !== 403 || res.json<{ error: { code: string } }>().error.code !== 'CSRF')
          wrong.push(`${route.method} ${route.url} (${how}): ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await fingerprint(t.database)).toEqual(before);
  });
});

/**
 * Derived data a read may bring up to date: patients.next_visit is stored "as of" a day and moved to the
 * clinic's today by the first read of a new day (patients.queries.ts, `nextVisitAsOf`). It follows the clock,
 * not the request, so it is left out; everything else a user could change must stay as it was.
 */
const DERIVED_FROM_THE_CLOCK: Record<string, string[] | 'all'> = {
  patients: ['next_visit'],
  patients_next_visit_as_of: 'all',
};

/** Every table's row count and content hash, except the audit log (reads of PHI are audited, by design). */
async function fingerprint(database: TestDatabase): Promise<Record<string, string>> {
  const { rows: tables } = await database.pool.query<{ tablename: string }>(
    `select tablename from pg_tables where schemaname = 'public' and tablename <> 'audit_log' order by tablename`,
  );
  const result: Record<string, string> = {};
  for (const { tablename } of tables) {
    const derived = DERIVED_FROM_THE_CLOCK[tablename];
    if (derived === 'all') continue;
    const row = `(to_jsonb(t) ${(derived ?? []).map((c) => `- '${c}'`).join(' ')})::text`;
    const { rows } = await database.pool.query<{ n: string; h: string | null }>(
      `select count(*) as n, md5(string_agg(md5(${row}), '' order by md5(${row}))) as h from "${tablename}" t`,
    );
    result[tablename] = `${rows[0]?.n}:${rows[0]?.h ?? ''}`;
  }
  return result;
}

describe('GET is never state-changing (ASVS 3.5.3)', () => {
  it('calling every GET route as every kind of user changes no table but the audit log', async () => {
    const callers = [await signInAs(t.app, 'admin'), await signInAs(t.app, 'patient')];
    const gets = t.app.routeRegistry.filter((r) => r.url.startsWith('/api/') && r.method === 'GET');
    expect(gets.length).toBeGreaterThan(20);
    const before = await fingerprint(t.database);
    let answered = 0;
    for (const caller of callers) {
      for (const route of gets) {
        const res = await caller.request({ method: 'GET', url: route.url.replace(/:[a-zA-Z]+/g, '1') });
        if (res.statusCode === 200) answered += 1;
      }
    }
    expect(answered).toBeGreaterThan(gets.length / 2); // the calls really ran their handlers
    expect(await fingerprint(t.database)).toEqual(before);
  });
});

describe('with the session cache (docs/caching.md)', () => {
  let cached: TestApp;
  let database: TestDatabase;
  let app: FastifyInstance;
  let clock: TestClock;
  let admin: SignedIn;

  beforeAll(async () => {
    cached = await createTestApp({}, { withChangeFeed: true });
    ({ database, app, clock } = cached);
    admin = await signInAs(app, 'admin');
  });
  afterAll(async () => {
    await cached.close();
  });

  const get = (who: SignedIn, url = '/api/settings') => who.request({ method: 'GET', url });

  async function userId(email: string): Promise<number> {
    const list = (await get(admin, '/api/users')).json<{ items: { id: number; email: string }[] }>().items;
    return list.find((u) => u.email === email)!.id;
  }

  /**
   * Sends a marker notification as `table`'s and waits until the feed has heard it: PostgreSQL delivers
   * notifications in commit order, so by then the feed has heard every change committed before it.
   */
  async function heardAllSoFar(table: 'sessions' | 'practice_settings') {
    const feed = cached.changes!;
    const generation = () => (table === 'sessions' ? feed.sessionsGeneration() : feed.answersGeneration());
    const before = generation();
    await database.pool.query('select pg_notify($1, $2)', [CHANGE_CHANNEL, table]);
    for (let waited = 0; generation() === before; waited += 10) {
      if (waited > 5000) throw new Error('the change feed did not deliver the marker within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Puts `who`'s session in the cache for good: the sign-in's own notifications can no longer end it. */
  async function warm(who: SignedIn) {
    await heardAllSoFar('sessions');
    expect((await get(who)).statusCode).toBe(200);
  }

  it('a cached session still ends after 15 minutes idle, and its row is deleted', async () => {
    const s = await signInAs(app, 'billing_admin');
    await warm(s);
    clock.advance(15 * 60 * 1000);
    expect((await get(s)).statusCode).toBe(401);
    expect(await sessionRow(database.db, s.sessionId)).toBeUndefined();
    clock.advance(-15 * 60 * 1000);
    expect((await get(s)).statusCode).toBe(401);
  });

  it('a cached session still ends at the absolute timeout', async () => {
    const s = await signInAs(app, 'billing_admin');
    for (let minutes = 0; minutes < 12 * 60 - 10; minutes += 10) {
      clock.advance(10 * 60 * 1000);
      expect((await get(s)).statusCode).toBe(200);
      expect((await get(s)).statusCode).toBe(200); // a second read within the 30 s comes from the cache
    }
    clock.advance(10 * 60 * 1000);
    expect((await get(s)).statusCode).toBe(401);
    expect(await sessionRow(database.db, s.sessionId)).toBeUndefined();
    admin = await signInAs(app, 'admin'); // the admin's session timed out meanwhile
  });

  it('a write of clinic data, or a renewed idle timer, ends no cached session', async () => {
    const s = await signInAs(app, 'billing_admin');
    await warm(s);
    const before = cached.changes!.sessionsGeneration();
    clock.advance(60 * 1000); // the next request renews the idle timer
    const written = await s.request({ method: 'PATCH', url: '/api/settings', payload: { fontSize: 'large' } });
    expect(written.statusCode).toBe(200);
    await heardAllSoFar('practice_settings'); // a marker that ends cached answers alone
    expect(cached.changes!.sessionsGeneration()).toBe(before);
    expect((await get(s)).statusCode).toBe(200);
  });

  it('a cached session another server renewed is read again, not ended, when it looks idle here', async () => {
    const s = await signInAs(app, 'billing_admin');
    await warm(s);
    // Another app server renews the idle timer 10 minutes on; renewals end no cached session.
    clock.advance(10 * 60 * 1000);
    await database.db
      .update(sessions)
      .set({ lastSeenAt: clock() })
      .where(eq(sessions.idHash, sha256(s.sessionId)));
    clock.advance(6 * 60 * 1000); // 16 minutes after the cached time, 6 after the stored one
    expect((await get(s)).statusCode).toBe(200);
    expect(await sessionRow(database.db, s.sessionId)).toBeDefined();
    clock.advance(15 * 60 * 1000);
    expect((await get(s)).statusCode).toBe(401);
    expect(await sessionRow(database.db, s.sessionId)).toBeUndefined();
    admin = await signInAs(app, 'admin'); // the admin's session timed out meanwhile
  });

  it('deactivating a user ends their cached session at their very next request', async () => {
    const nurse = await signInAs(app, 'nurse_manager');
    await warm(nurse);
    const id = await userId(demoAccount('nurse_manager').email);
    const off = await admin.request({ method: 'PATCH', url: `/api/users/${id}`, payload: { active: false } });
    expect(off.statusCode).toBe(200);
    try {
      expect((await get(nurse)).statusCode).toBe(401);
      expect(await sessionRow(database.db, nurse.sessionId)).toBeUndefined();
    } finally {
      await admin.request({ method: 'PATCH', url: `/api/users/${id}`, payload: { active: true } });
    }
  });

  it('changing a role takes effect at once: the cached session with the old role is refused', async () => {
    const billing = await signInAs(app, 'billing_admin');
    await warm(billing);
    expect((await get(billing, '/api/claims?limit=1')).statusCode).toBe(200);
    const id = await userId(demoAccount('billing_admin').email);
    const changed = await admin.request({ method: 'PATCH', url: `/api/users/${id}`, payload: { role: 'guest' } });
    expect(changed.statusCode).toBe(200);
    try {
      expect((await get(billing, '/api/claims?limit=1')).statusCode).toBe(401);
      expect((await get(billing)).statusCode).toBe(401);
    } finally {
      await admin.request({ method: 'PATCH', url: `/api/users/${id}`, payload: { role: 'billing_admin' } });
    }
  });
});
