/**
 * docs/caching.md: with a change feed, sessions and the answers of `cacheable` routes are served from
 * memory, and any committed change (through this server, another server or plain SQL) ends them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TestDatabase } from '@/testing/test-db';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { TestClock } from '@/testing/test-clock';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { verifyChain } from '@/features/audit/server/audit.queries';
import { ANSWER_CACHE_HEADER } from './answer-cache';
import { preferredEncoding } from './answer-encoding';

let t: TestApp;
let database: TestDatabase;
let app: FastifyInstance;
let clock: TestClock;
let admin: SignedIn;

async function eventually(test: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  t = await createTestApp({}, { withChangeFeed: true });
  ({ database, app, clock } = t);
  admin = await signInAs(app, 'admin');
});

afterAll(async () => {
  await t.close();
});

const get = (who: SignedIn, url: string) => who.request({ method: 'GET', url });

/**
 * Reads `url` until the answer comes from the cache (at most 20 tries): notifications of earlier writes
 * (a sign-in's audit entry) arrive asynchronously and may end the first cached answer.
 */
async function readUntilCached(who: SignedIn, url: string) {
  let response = await get(who, url);
  for (let i = 0; i < 20 && response.headers[ANSWER_CACHE_HEADER] !== 'hit'; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    response = await get(who, url);
  }
  expect(response.headers[ANSWER_CACHE_HEADER]).toBe('hit');
  return response;
}

describe('the answer cache', () => {
  it('serves a repeated read from memory, with the same answer', async () => {
    const first = await get(admin, '/api/claims?limit=5');
    expect(first.statusCode).toBe(200);
    expect(first.headers[ANSWER_CACHE_HEADER]).toBe('miss');
    const cached = await readUntilCached(admin, '/api/claims?limit=5');
    expect(cached.headers['content-type']).toMatch(/^application\/json/);
    expect(cached.headers['cache-control']).toBe('no-store');
    expect(cached.json()).toEqual(first.json());
  });

  it('keeps answers per user: another user never gets an answer made for someone else', async () => {
    const url = '/api/patients?limit=1&sort=name&dir=asc';
    const mine = await readUntilCached(admin, url);
    const nurse = await signInAs(app, 'nurse_manager');
    const theirs = await get(nurse, url);
    expect(theirs.headers[ANSWER_CACHE_HEADER]).toBe('miss');
    // The nurse manager sees birth dates masked (docs/access.md); the admin's cached answer has them whole.
    const dobOf = (res: typeof mine) => res.json<{ items: { dob: string }[] }>().items[0]?.dob ?? '';
    expect(dobOf(theirs)).toMatch(/^XX-XX-\d{4}$/);
    expect(dobOf(mine)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('a write through this server is seen by its very next read', async () => {
    const before = (await readUntilCached(admin, '/api/dashboard/summary')).json<{ stats: { patients: number } }>();
    const created = await admin.request({
      method: 'POST',
      url: '/api/patients',
      payload: { name: 'Cache Test Patient', dob: '1980-03-04', phone: '(555) 300-4321', mrn: 'MRN-CACHE-1' },
    });
    expect(created.statusCode).toBe(201);
    const after = await get(admin, '/api/dashboard/summary');
    expect(after.headers[ANSWER_CACHE_HEADER]).toBe('miss');
    expect(after.json<{ stats: { patients: number } }>().stats.patients).toBe(before.stats.patients + 1);
  });

  it('a change committed elsewhere (plain SQL here, another server alike) ends the cached answers', async () => {
    const url = '/api/claims?limit=1&sort=serviceDate&dir=desc';
    const first = (await readUntilCached(admin, url)).json<{ items: { id: number; billedCents: number }[] }>();
    const claim = first.items[0];
    if (!claim) throw new Error('no claims');
    await database.pool.query('update claims set billed_cents = billed_cents + 1 where id = $1', [claim.id]);
    await eventually(async () => {
      const again = await get(admin, url);
      return again.json<{ items: { billedCents: number }[] }>().items[0]?.billedCents === claim.billedCents + 1;
    });
  });

  it('answers depend on the day: a new day computes them again', async () => {
    await readUntilCached(admin, '/api/claims/analytics/ar-aging');
    clock.advance(24 * 60 * 60 * 1000);
    try {
      // A fresh session: a day later the old one has timed out.
      const later = await signInAs(app, 'admin');
      expect((await get(later, '/api/claims/analytics/ar-aging')).headers[ANSWER_CACHE_HEADER]).toBe('miss');
    } finally {
      clock.advance(-24 * 60 * 60 * 1000);
    }
  });

  it('audits every read of a PHI list it serves from memory, one entry each, as the first read was', async () => {
    const url = '/api/patients?limit=3&search=Lopez';
    const entries = async () =>
      (
        await database.pool.query<{ detail: string; actor_role: string }>(
          `select detail, actor_role from audit_log where action = 'patients.list.view' and detail like '%search=(5 chars)%limit=3%' order by id`,
        )
      ).rows;
    const before = (await entries()).length;
    await readUntilCached(admin, url);
    const atHit = (await entries()).length;
    expect(atHit).toBeGreaterThan(before);
    for (let i = 0; i < 3; i += 1) expect((await get(admin, url)).headers[ANSWER_CACHE_HEADER]).toBe('hit');
    const after = await entries();
    expect(after).toHaveLength(atHit + 3);
    // The same entry as the computed read's, by the same reader.
    expect(new Set(after.slice(before).map((e) => `${e.actor_role} ${e.detail}`)).size).toBe(1);
  });

  it('a read served from memory names the client that asked, each time, and the chain still verifies', async () => {
    const url = '/api/patients?limit=2&search=Lopez';
    const agents = async () =>
      (
        await database.pool.query<{ user_agent: string | null; hash: string; prev_hash: string }>(
          `select user_agent, hash, prev_hash from audit_log where action = 'patients.list.view'
             and detail like '%search=(5 chars)%limit=2%' order by id`,
        )
      ).rows.map((row) => row.user_agent);
    await readUntilCached(admin, url);
    const before = (await agents()).length;
    // The entry's text is made once per read and client: a new client must not get the previous one's.
    for (const agent of ['Desk browser', 'Desk browser', 'Front-desk tablet', 'Desk browser']) {
      const response = await admin.request({ method: 'GET', url, headers: { 'user-agent': agent } });
      expect(response.headers[ANSWER_CACHE_HEADER]).toBe('hit');
    }
    expect((await agents()).slice(before)).toEqual([
      'Desk browser',
      'Desk browser',
      'Front-desk tablet',
      'Desk browser',
    ]);
    expect((await verifyChain(database.db)).ok).toBe(true);
  });

  it('an audited read does not end cached answers (its audit entry is no data change)', async () => {
    const url = '/api/claims?limit=2';
    await readUntilCached(admin, url);
    expect((await get(admin, '/api/patients/1')).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await get(admin, url)).headers[ANSWER_CACHE_HEADER]).toBe('hit');
  });

  it('never caches routes not marked cacheable (an audited record read), nor errors', async () => {
    const record = await get(admin, '/api/patients/1');
    expect(record.headers[ANSWER_CACHE_HEADER]).toBeUndefined();
    const bad = await get(admin, '/api/claims?limit=0');
    expect(bad.statusCode).toBe(400);
    expect((await get(admin, '/api/claims?limit=0')).statusCode).toBe(400);
  });
});

describe('the session cache', () => {
  it('a deactivation committed elsewhere ends a cached session', async () => {
    const nurse = await signInAs(app, 'nurse_manager');
    expect((await get(nurse, '/api/patients?limit=1')).statusCode).toBe(200);
    expect((await get(nurse, '/api/patients?limit=1')).statusCode).toBe(200);
    await database.pool.query(`update users set active = false where email = 'nurse.manager@healthcare.demo'`);
    try {
      await eventually(async () => (await get(nurse, '/api/patients?limit=1')).statusCode === 401);
    } finally {
      await database.pool.query(`update users set active = true where email = 'nurse.manager@healthcare.demo'`);
    }
  });

  it('signing out through this server ends the session for its very next request', async () => {
    const doctor = await signInAs(app, 'doctor');
    expect((await get(doctor, '/api/patients?limit=1')).statusCode).toBe(200);
    expect((await doctor.request({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(204);
    expect((await get(doctor, '/api/patients?limit=1')).statusCode).toBe(401);
  });
});

describe('a burst of identical first requests', () => {
  it('computes the answer once and shares it with the requests that arrived meanwhile', async () => {
    const url = '/api/claims/analytics/kpis?periodDays=60';
    await readUntilCached(admin, '/api/claims?limit=5'); // earlier tests' notifications have all arrived
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(admin, url)));
    const how = answers.map((a) => a.headers[ANSWER_CACHE_HEADER]);
    expect(how.filter((h) => h === 'miss')).toHaveLength(1);
    expect(how.every((h) => h === 'miss' || h === 'shared' || h === 'hit')).toBe(true);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
  });
});

describe('compressed cached answers', () => {
  it('a client accepting brotli or gzip gets the cached answer compressed, decoding to the same JSON', async () => {
    const url = '/api/claims?limit=50';
    const plain = await readUntilCached(admin, url);
    for (const encoding of ['br', 'gzip'] as const) {
      const response = await admin.request({ method: 'GET', url, headers: { 'accept-encoding': encoding } });
      expect(response.headers[ANSWER_CACHE_HEADER]).toBe('hit');
      expect(response.headers['content-encoding']).toBe(encoding);
      const decoded = encoding === 'br' ? brotliDecompressSync(response.rawPayload) : gunzipSync(response.rawPayload);
      expect(JSON.parse(decoded.toString('utf8'))).toEqual(plain.json());
      expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    }
  });

  it('negotiates like a browser: br first, a q of 0 refuses, nothing accepted means plain text', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip, br;q=0')).toBe('gzip');
    expect(preferredEncoding('identity')).toBe('identity');
    expect(preferredEncoding(undefined)).toBe('identity');
  });
});

describe('a client asking for a fresh answer', () => {
  it('Cache-Control: no-cache computes the answer anew (and keeps it for later reads)', async () => {
    const url = '/api/claims?limit=7';
    await readUntilCached(admin, url);
    const fresh = await admin.request({ method: 'GET', url, headers: { 'cache-control': 'no-cache' } });
    expect(fresh.headers[ANSWER_CACHE_HEADER]).toBe('miss');
    expect((await get(admin, url)).headers[ANSWER_CACHE_HEADER]).toBe('hit');
  });
});
