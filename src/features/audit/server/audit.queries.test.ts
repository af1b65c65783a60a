import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { hashPassword } from '@/features/auth/server/auth.passwords';
import { cookieFrom, createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { ChainVerificationResult } from '../audit.schema';
import { entryHash, record, recordMany, recordNow, verifyChain } from './audit.queries';
import { auditLog } from './audit.table';
import { anyUnicodeChar } from '@/testing/any-text';

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInAs(t.app, 'admin');
});
afterAll(async () => {
  await t.close();
});

/** The trigger refuses every change, even to the tables' owner; a tamper test, as the owner, lifts it for one statement. */
async function tamper(statement: string, params: unknown[]) {
  const client = await t.database.ownerPool.connect();
  try {
    await client.query('alter table audit_log disable trigger audit_log_no_update_delete');
    await client.query(statement, params);
  } finally {
    await client.query('alter table audit_log enable trigger audit_log_no_update_delete');
    client.release();
  }
}

/** The id at a 1-based position in id order, as verifyChain counts. */
async function idAt(position: number): Promise<number> {
  const { rows } = await t.database.pool.query<{ id: string }>(
    `select id from audit_log order by id offset $1 limit 1`,
    [position - 1],
  );
  return Number(rows[0]!.id);
}

async function verify(): Promise<ChainVerificationResult> {
  const res = await admin.request({ method: 'GET', url: '/api/audit/verify' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ChainVerificationResult>();
}

describe('the audit trail is append-only', () => {
  const refusal = (error: unknown) => {
    const { message, cause } = error as { message: string; cause?: { message?: string } };
    return cause?.message ?? message;
  };

  it('refuses an update, a delete and a truncate through the application: its role may only append', async () => {
    const id = await idAt(1);
    const update = t.database.db.update(auditLog).set({ detail: 'rewritten' }).where(eq(auditLog.id, id));
    expect(refusal(await update.catch((e: unknown) => e))).toBe('permission denied for table audit_log');
    const remove = t.database.db.delete(auditLog).where(eq(auditLog.id, id));
    expect(refusal(await remove.catch((e: unknown) => e))).toBe('permission denied for table audit_log');
    await expect(t.database.pool.query('truncate audit_log')).rejects.toThrow('permission denied for table audit_log');
    expect((await verifyChain(t.database.db)).ok).toBe(true);
  });

  it("refuses them to the tables' owner too, by the append-only triggers", async () => {
    const id = await idAt(1);
    const owner = t.database.ownerPool;
    const update = owner.query(`update audit_log set detail = 'rewritten' where id = $1`, [id]);
    expect(refusal(await update.catch((e: unknown) => e))).toBe('audit_log is append-only: UPDATE is not allowed');
    const remove = owner.query('delete from audit_log where id = $1', [id]);
    expect(refusal(await remove.catch((e: unknown) => e))).toBe('audit_log is append-only: DELETE is not allowed');
    await expect(owner.query('truncate audit_log')).rejects.toThrow(/append-only: TRUNCATE/);
    expect((await verifyChain(t.database.db)).ok).toBe(true);
  });
});

describe('secrets never reach the audit trail', () => {
  it('a wrong password, a wrong code and a correct sign-in leave no password, code, session id, CSRF token or hash', async () => {
    const email = 'secret.keeper@healthcare.demo';
    const password = 'Tr0ub4dor-and-3-Horses';
    const wrongPassword = 'Wr0ng-Passw0rd-Guess!';
    const passwordHash = await hashPassword(password);
    await t.database.pool.query(
      `insert into users (email, name, password_hash, role) values ($1, 'Secret Keeper', $2, 'billing_admin')`,
      [email, passwordHash],
    );

    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: wrongPassword },
    });
    expect(wrong.statusCode).toBe(401);

    const first = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    expect(first.statusCode).toBe(200);
    const firstChallenge = first.json<{ challengeId: string; demoCode: string }>();
    const wrongCode = String(((Number(firstChallenge.demoCode) - 100_000 + 1) % 900_000) + 100_000);
    const badCode = await t.app.inject({
      method: 'POST',
      url: '/api/auth/mfa',
      payload: { challengeId: firstChallenge.challengeId, code: wrongCode },
    });
    expect(badCode.statusCode).toBe(401);

    const mfa = await t.app.inject({
      method: 'POST',
      url: '/api/auth/mfa',
      payload: { challengeId: firstChallenge.challengeId, code: firstChallenge.demoCode },
    });
    expect(mfa.statusCode, mfa.body).toBe(200);
    const sessionId = cookieFrom(mfa);
    const csrfToken = mfa.json<{ csrfToken: string }>().csrfToken;
    expect(sessionId).toBeTruthy();
    // Use the session for a write and a denied call, so those paths are covered too.
    const headers = { 'x-csrf-token': csrfToken };
    const settings = await t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      cookies: { sid: sessionId! },
      headers,
      payload: { fontSize: 'large' },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const denied = await t.app.inject({ method: 'GET', url: '/api/patients', cookies: { sid: sessionId! } });
    expect(denied.statusCode).toBe(403);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies: { sid: sessionId! },
      headers,
    });
    expect(logout.statusCode).toBe(204);

    const { rows } = await t.database.pool.query<Record<string, unknown>>(
      `select * from audit_log where actor = $1 order by id`,
      [email],
    );
    const actions = rows.map((r) => r.action);
    expect(actions).toEqual(
      expect.arrayContaining(['auth.login.failure', 'auth.mfa.failure', 'auth.login.success', 'auth.logout']),
    );
    // Every column but the two chain hashes (SHA-256 hex, derived from the others): a 6-digit code could
    // turn up inside a hex string by chance.
    const { rows: all } = await t.database.pool.query<Record<string, unknown>>(
      `select id, occurred_at, actor, actor_user_id, actor_role, action, resource, detail, patient_id from audit_log`,
    );
    const text = all.map((r) => JSON.stringify(r)).join('\n');
    const secrets = {
      password,
      wrongPassword,
      passwordHash,
      wrongCode,
      code: firstChallenge.demoCode,
      challengeId: firstChallenge.challengeId,
      sessionId: sessionId!,
      csrfToken,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(text.includes(secret), `${name} found in the audit trail`).toBe(false);
    }
    // Every demo account's hash too, whatever wrote the entries before this test.
    const { rows: hashes } = await t.database.pool.query<{ password_hash: string }>(`select password_hash from users`);
    for (const { password_hash } of hashes) expect(text.includes(password_hash)).toBe(false);
  });
});

/** Any audit entry's input: any text a field holds (PostgreSQL text holds no NUL), nulls, any date. */
const auditText = fc.string({ unit: anyUnicodeChar, maxLength: 40 }).filter((value) => !value.includes('\u0000'));
const anyAuditInput = fc.record({
  actor: auditText,
  actorRole: fc.option(auditText),
  action: auditText,
  resource: auditText,
  detail: fc.option(auditText),
  actorUserId: fc.option(fc.integer({ min: 1, max: 2_147_483_647 })),
  patientId: fc.option(fc.integer({ min: 1, max: 2_147_483_647 })),
  clientAddr: fc.option(auditText),
  userAgent: fc.option(auditText),
  at: fc.date({
    min: new Date('2000-01-01T00:00:00Z'),
    max: new Date('2099-12-31T00:00:00Z'),
    noInvalidDate: true,
  }),
});

describe('appending in the database (audit_append_batch) chains exactly as the app verifies', () => {
  it('stores the hash entryHash computes for any text, and keeps one chain under concurrent appends', async () => {
    const entries = fc.sample(anyAuditInput, 60);
    const [{ max: before } = { max: 0 }] = (
      await t.database.pool.query<{ max: string }>('select coalesce(max(id), 0) as max from audit_log')
    ).rows.map((r) => ({ max: Number(r.max) }));
    // Concurrently, as requests do: the lock must still give one order with each entry on its predecessor.
    await Promise.all(entries.map((entry) => recordNow(t.database.db, entry)));

    const { rows } = await t.database.pool.query<{
      id: string;
      occurred_at: Date;
      actor: string;
      actor_user_id: number | null;
      actor_role: string | null;
      action: string;
      resource: string;
      detail: string | null;
      patient_id: number | null;
      client_addr: string | null;
      user_agent: string | null;
      prev_hash: string;
      hash: string;
    }>('select * from audit_log where id >= $1 order by id', [before]);
    const appended = rows.filter((row) => Number(row.id) > before);
    expect(appended).toHaveLength(entries.length);
    for (let i = 1; i < rows.length; i += 1) {
      const row = rows[i]!;
      expect(row.prev_hash, `entry ${row.id} links to the one before it`).toBe(rows[i - 1]!.hash);
      const content = {
        occurredAtMs: row.occurred_at.getTime(),
        actor: row.actor,
        actorUserId: row.actor_user_id,
        actorRole: row.actor_role,
        action: row.action,
        resource: row.resource,
        detail: row.detail,
        patientId: row.patient_id,
        clientAddr: row.client_addr,
        userAgent: row.user_agent,
      };
      expect(row.hash, `entry ${row.id}`).toBe(entryHash(row.prev_hash, content));
    }
    // What was sent is what was stored, unicode and all.
    const stored = appended.map((row) =>
      JSON.stringify([
        row.actor,
        row.action,
        row.resource,
        row.detail,
        row.actor_role,
        row.client_addr,
        row.user_agent,
      ]),
    );
    expect(stored.sort()).toEqual(
      entries
        .map((e) => JSON.stringify([e.actor, e.action, e.resource, e.detail, e.actorRole, e.clientAddr, e.userAgent]))
        .sort(),
    );
    expect((await verifyChain(t.database.db)).ok).toBe(true);
  });
});

describe('recordMany appends a batch in its order as its transaction commits', () => {
  it('stores each entry as given (unicode, nulls, a lone surrogate as U+FFFD), in order, chained and verifiable', async () => {
    // More than one staging row's worth (500 lines each): the rows are chained in their order.
    const entries = fc.sample(anyAuditInput, 700);
    entries.push({ ...entries[0]!, detail: 'lone \ud800 high' });
    const before = Number(
      (await t.database.pool.query<{ max: string }>('select coalesce(max(id), 0) as max from audit_log')).rows[0]?.max,
    );
    await t.database.db.transaction((tx) => recordMany(tx, entries));
    const { rows } = await t.database.pool.query<{
      occurred_at: Date;
      actor: string;
      actor_user_id: number | null;
      actor_role: string | null;
      action: string;
      resource: string;
      detail: string | null;
      patient_id: number | null;
      client_addr: string | null;
      user_agent: string | null;
      hash_version: number;
    }>('select * from audit_log where id > $1 order by id', [before]);
    expect(
      rows.map((r) => [r.occurred_at.getTime(), r.actor, r.actor_user_id, r.actor_role, r.action, r.resource]),
    ).toEqual(entries.map((e) => [e.at.getTime(), e.actor, e.actorUserId, e.actorRole, e.action, e.resource]));
    expect(rows.map((r) => [r.detail, r.patient_id, r.client_addr, r.user_agent])).toEqual(
      entries.map((e, i) => [
        i === entries.length - 1 ? 'lone \ufffd high' : e.detail,
        e.patientId,
        e.clientAddr,
        e.userAgent,
      ]),
    );
    expect(new Set(rows.map((r) => r.hash_version))).toEqual(new Set([2]));
    expect((await verifyChain(t.database.db)).ok).toBe(true);
  });
});

/** The details of the entries appended after the entry `before`, in chain order. */
async function appendedSince(before: number): Promise<string[]> {
  const { rows } = await t.database.pool.query<{ detail: string }>(
    'select detail from audit_log where id > $1 order by id',
    [before],
  );
  return rows.map((r) => r.detail);
}

async function newestId(): Promise<number> {
  const { rows } = await t.database.pool.query<{ max: string }>('select max(id) as max from audit_log');
  return Number(rows[0]?.max ?? 0);
}

describe('reads arriving together are appended together (group commit)', () => {
  const entry = (detail: string) => ({
    actor: 'reader@clinic.test',
    action: 'patients.list.view',
    resource: 'patients',
    detail,
    at: new Date(),
  });

  it('in their order of arrival, each resolved only once stored', async () => {
    const before = await newestId();
    const details = Array.from({ length: 120 }, (_, i) => `read ${i}`);
    const missingWhenResolved: string[] = [];
    await Promise.all(
      details.map((detail) =>
        recordNow(t.database.db, entry(detail)).then(async () => {
          if (!(await appendedSince(before)).includes(detail)) missingWhenResolved.push(detail);
        }),
      ),
    );
    expect(missingWhenResolved).toEqual([]);
    expect(await appendedSince(before)).toEqual(details);
    expect((await verifyChain(t.database.db)).ok).toBe(true);
  });

  it('stores a lone UTF-16 surrogate from a request as U+FFFD, hashed as stored, so the chain still verifies', async () => {
    const before = await newestId();
    await Promise.all(
      ['lone \ud800 high', 'lone \udc00 low', 'pair \ud83d\ude00 kept'].map((d) => recordNow(t.database.db, entry(d))),
    );
    expect(await appendedSince(before)).toEqual(['lone \ufffd high', 'lone \ufffd low', 'pair \ud83d\ude00 kept']);
    expect((await verifyChain(t.database.db)).ok).toBe(true);
  });

  it('an entry the database refuses fails alone; the reads grouped with it are still appended', async () => {
    const before = await newestId();
    const results = await Promise.allSettled(
      ['first', 'second', 'nul \u0000 byte', 'third', 'fourth'].map((detail) =>
        recordNow(t.database.db, entry(detail)),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(await appendedSince(before)).toEqual(['first', 'second', 'third', 'fourth']);
    expect((await verifyChain(t.database.db)).ok).toBe(true);
  });
});

describe('entries written with a change are chained as its transaction commits', () => {
  const entry = (detail: string) => ({
    actor: 'biller@clinic.test',
    action: 'claim.update',
    resource: 'claim/1',
    detail,
    at: new Date(),
  });
  const staged = async () =>
    Number((await t.database.ownerPool.query<{ n: string }>('select count(*) as n from audit_staging')).rows[0]?.n);

  it('commits with its change and not before: a rolled-back change leaves no entry and nothing staged', async () => {
    const before = await newestId();
    await t.database.db
      .transaction(async (tx) => {
        await record(tx, entry('rolled back'));
        expect(await appendedSince(before)).toEqual([]);
        throw new Error('the change fails');
      })
      .catch(() => {});
    await t.database.db.transaction(async (tx) => {
      await record(tx, entry('kept 1'));
      await recordMany(tx, [entry('kept 2'), entry('kept 3')]);
      await record(tx, entry('kept 4'));
    });
    expect(await appendedSince(before)).toEqual(['kept 1', 'kept 2', 'kept 3', 'kept 4']);
    expect(await staged()).toBe(0);
    expect((await verifyChain(t.database.db)).ok).toBe(true);
  });

  it('an open transaction that has recorded does not hold up another writer: entries chain in commit order', async () => {
    const before = await newestId();
    let releaseFirst: () => void = () => {};
    const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstRecorded: () => void = () => {};
    const recorded = new Promise<void>((resolve) => (firstRecorded = resolve));
    const first = t.database.db.transaction(async (tx) => {
      await record(tx, entry('open first, committed second'));
      firstRecorded();
      await firstMayCommit;
    });
    await recorded;
    try {
      // With the lock taken at the append, this would wait for the first transaction and time out.
      await Promise.race([
        t.database.db.transaction((tx) => record(tx, entry('opened second, committed first'))),
        new Promise((_, reject) => setTimeout(() => reject(new Error('the second writer waited')), 5000)),
      ]);
    } finally {
      // Whatever happened, the first transaction ends, so a failure here cannot leave the chain's lock held.
      releaseFirst();
      await first;
    }
    expect(await appendedSince(before)).toEqual(['opened second, committed first', 'open first, committed second']);
    expect((await verifyChain(t.database.db)).ok).toBe(true);
  });

  it('many writers committing at once leave one verifiable chain', async () => {
    const before = await newestId();
    const written = Array.from({ length: 40 }, (_, i) => `writer ${i}`);
    await Promise.all(
      written.map((detail) =>
        t.database.db.transaction(async (tx) => {
          await record(tx, entry(detail));
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
        }),
      ),
    );
    expect((await appendedSince(before)).sort()).toEqual([...written].sort());
    expect(await staged()).toBe(0);
    expect((await verifyChain(t.database.db)).ok).toBe(true);
  });

  it('refuses to chain from a REPEATABLE READ transaction, whose snapshot could not see the newest entry', async () => {
    const before = await newestId();
    await expect(
      t.database.db.transaction((tx) => record(tx, entry('under repeatable read')), {
        isolationLevel: 'repeatable read',
      }),
    ).rejects.toThrow();
    expect(await appendedSince(before)).toEqual([]);
    expect((await verifyChain(t.database.db)).ok).toBe(true);
  });
});

describe('tampering is detected', () => {
  it('a modified entry fails at its own position with "modified"', async () => {
    expect((await verify()).ok).toBe(true);
    const position = 42;
    const id = await idAt(position);
    await tamper(`update audit_log set detail = 'nothing to see here' where id = $1`, [id]);
    expect(await verify()).toEqual({ ok: false, checked: position, firstBreak: { position, id, problem: 'modified' } });
    const { rows } = await t.database.pool.query<{ detail: string }>(
      `select detail from audit_log where action = 'audit.verify' order by id desc limit 1`,
    );
    expect(rows[0]?.detail).toBe(`chain broken at position ${position} (entry ${id}): modified`);
  });

  it('a deleted entry breaks the link of the next one: "missing-before" there', async () => {
    // The entry modified above stays modified; deleting an earlier one makes this the first break.
    const position = 10;
    const removed = await idAt(position);
    const next = await idAt(position + 1);
    await tamper(`delete from audit_log where id = $1`, [removed]);
    expect(await verify()).toEqual({
      ok: false,
      checked: position,
      firstBreak: { position, id: next, problem: 'missing-before' },
    });
  });

  it('a rewritten entry whose hash was recomputed still breaks the link after it', async () => {
    // Before the first break (position 10), the chain is intact; rewriting entry 3 and its own hash with
    // the app's formula moves the first break to entry 4's link.
    const { entryHash } = await import('./audit.queries');
    const { rows } = await t.database.pool.query<{
      id: string;
      ms: string;
      actor: string;
      actor_user_id: number | null;
      actor_role: string | null;
      action: string;
      resource: string;
      patient_id: number | null;
      prev_hash: string;
    }>(
      `select id, round(extract(epoch from occurred_at) * 1000)::bigint as ms, actor, actor_user_id, actor_role,
              action, resource, patient_id, prev_hash
         from audit_log order by id offset 2 limit 1`,
    );
    const row = rows[0]!;
    const forged = entryHash(row.prev_hash, {
      occurredAtMs: Number(row.ms),
      actor: row.actor,
      actorUserId: row.actor_user_id,
      actorRole: row.actor_role,
      action: row.action,
      resource: row.resource,
      detail: 'forged',
      patientId: row.patient_id,
    });
    await tamper(`update audit_log set detail = 'forged', hash = $2 where id = $1`, [Number(row.id), forged]);
    const result = await verify();
    expect(result.ok).toBe(false);
    expect(result.firstBreak).toEqual({ position: 4, id: await idAt(4), problem: 'missing-before' });
  });
});

describe('keyset paging uses the index', () => {
  it('reads a page after a cursor in index order, with no sort of the whole table', async () => {
    // The demo trail is small, so the planner may prefer a sort; with sorts and other scans priced out, the
    // plan shows whether an index scan can give the order and apply the cursor itself.
    const client = await t.database.pool.connect();
    try {
      await client.query('set enable_seqscan = off');
      await client.query('set enable_bitmapscan = off');
      await client.query('set enable_sort = off');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `explain select id from audit_log
          where (occurred_at, id) < ('2026-11-20T12:00:00Z'::timestamptz, 100000)
          order by occurred_at desc, id desc limit 201`,
      );
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Index (Only )?Scan using audit_log_occurred_id_idx/);
      expect(plan).not.toMatch(/Sort/);
      expect(plan).toMatch(/Index Cond/);
    } finally {
      await client.query('reset all');
      client.release();
    }
  });
});
