/**
 * Scale out (docs/deploy.md): two app servers on one PostgreSQL database serve the same sessions and data. Each server
 * is a real HTTP listener on its own port with its own connection pool, as two processes behind a load
 * balancer would be; nothing but the database is shared between them.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@/server/app';
import { DEFAULT_CONFIG } from '@/server/context';
import { listenForChanges } from '@/server/db/change-feed';
import { poolFor } from '@/server/db/client';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';
import { signInOverHttp } from '@/testing/http-sign-in';
import { testClock } from '@/testing/test-clock';

let database: TestDatabase;
const servers: { app: FastifyInstance; url: string; close: () => Promise<void> }[] = [];

async function startServer(url: string, clock: () => Date) {
  const pool = poolFor(url, 5);
  // Each server listens for the other's changes, as in production (its session and answer caches are on).
  const changes = await listenForChanges(url, { info: () => {}, warn: () => {} });
  const app = await buildApp({
    db: drizzle(pool),
    clock,
    config: { ...DEFAULT_CONFIG, loginRateLimitPerMinute: 10_000 },
    changes,
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    url: address,
    close: async () => {
      await app.close();
      await changes.close();
      await pool.end();
    },
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  const clock = testClock();
  servers.push(await startServer(database.url, clock), await startServer(database.url, clock));
});

afterAll(async () => {
  for (const server of servers) await server.close();
  await database.drop();
});

function server(index: 0 | 1) {
  const found = servers[index];
  if (!found) throw new Error('servers not started');
  return found.url;
}

const signIn = (baseUrl: string) => signInOverHttp(baseUrl, 'nurse_manager');

/** The status `url` answers once it answers `wanted`, or its last status after `ms` milliseconds. */
async function statusWithin(ms: number, url: string, cookie: string, wanted: number): Promise<number> {
  const deadline = Date.now() + ms;
  for (;;) {
    const { status } = await fetch(url, { headers: { cookie } });
    if (status === wanted || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('two app servers on one database', () => {
  it('listen on different ports', () => {
    expect(server(0)).not.toBe(server(1));
  });

  it('a session made on one server is honoured on the other, for reads and for writes', async () => {
    const session = await signIn(server(0));

    const onSecond = await fetch(`${server(1)}/api/auth/session`, { headers: { cookie: session.cookie } });
    expect(((await onSecond.json()) as { user: { email: string } | null }).user?.email).toBe(session.email);

    // A write on the second server with the session's CSRF token, read back on the first.
    const mrn = `MRN-TWO-${Date.now()}`;
    const created = await fetch(`${server(1)}/api/patients`, {
      method: 'POST',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Two Servers Patient', dob: '1980-03-04', phone: '(555) 300-4321', mrn }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const readBack = await fetch(`${server(0)}/api/patients/${id}`, { headers: { cookie: session.cookie } });
    expect(readBack.status).toBe(200);
    expect(((await readBack.json()) as { name: string }).name).toBe('Two Servers Patient');
    // Audited once, by whichever server did it, on the one shared trail.
    const audit = await database.pool.query<{ n: string }>(
      `select count(*) as n from audit_log where action = 'patient.create' and resource = $1`,
      [`patient/${id}`],
    );
    expect(Number(audit.rows[0]?.n)).toBe(1);
  });

  it('CSRF is the session’s, whichever server checks it', async () => {
    const session = await signIn(server(1));
    const body = JSON.stringify({ name: 'No Token', dob: '1980-03-04', phone: '(555) 300-0000', mrn: 'MRN-TWO-X' });
    for (const baseUrl of [server(0), server(1)]) {
      const refused = await fetch(`${baseUrl}/api/patients`, {
        method: 'POST',
        headers: { cookie: session.cookie, 'x-csrf-token': 'not-the-token', 'content-type': 'application/json' },
        body,
      });
      expect(refused.status).toBe(403);
    }
  });

  it('signing out on one server ends the session on the other, even where it was cached', async () => {
    const session = await signIn(server(0));
    // The second server has read (and cached) the session before.
    for (let i = 0; i < 2; i += 1) {
      const before = await fetch(`${server(1)}/api/patients?limit=5`, { headers: { cookie: session.cookie } });
      expect(before.status).toBe(200);
    }
    const logout = await fetch(`${server(0)}/api/auth/logout`, {
      method: 'POST',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
    });
    expect(logout.status).toBe(204);
    // docs/caching.md: the other server hears of the sign-out when the database notifies it, within milliseconds.
    expect(await statusWithin(1000, `${server(1)}/api/patients?limit=5`, session.cookie, 401)).toBe(401);
  });

  it('a write on one server changes the cached answers of the other', async () => {
    const session = await signIn(server(0));
    const summary = async (index: 0 | 1) => {
      const response = await fetch(`${server(index)}/api/dashboard/summary`, { headers: { cookie: session.cookie } });
      return ((await response.json()) as { stats: { patients: number } }).stats.patients;
    };
    const before = await summary(1);
    expect(await summary(1)).toBe(before); // now cached on the second server
    const created = await fetch(`${server(0)}/api/patients`, {
      method: 'POST',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Cache Across Servers',
        dob: '1980-03-04',
        phone: '(555) 300-4322',
        mrn: `MRN-TWO-C-${Date.now()}`,
      }),
    });
    expect(created.status).toBe(201);
    const deadline = Date.now() + 1000;
    let after = await summary(1);
    while (after !== before + 1 && Date.now() < deadline) after = await summary(1);
    expect(after).toBe(before + 1);
  });

  it('many parallel requests on one session, spread over both servers, all succeed', async () => {
    const session = await signIn(server(0));
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        fetch(`${server(i % 2 === 0 ? 0 : 1)}/api/patients?limit=5`, { headers: { cookie: session.cookie } }).then(
          (r) => r.status,
        ),
      ),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
  });
});
