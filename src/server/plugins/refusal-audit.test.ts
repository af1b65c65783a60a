import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyChain } from '@/features/audit/server/audit.queries';
import { withAuditEntryTampered } from '@/testing/audit-tamper';
import { createTestApp, signInAs, type TestApp } from '@/testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Row {
  id: string;
  actor: string;
  action: string;
  resource: string;
  detail: string | null;
  client_addr: string | null;
  user_agent: string | null;
}

async function entriesAfter(id: number): Promise<Row[]> {
  const { rows } = await t.database.pool.query<Row>(
    `select id, actor, action, resource, detail, client_addr, user_agent from audit_log where id > $1 order by id`,
    [id],
  );
  return rows;
}

async function newestId(): Promise<number> {
  const { rows } = await t.database.pool.query<{ max: string }>('select coalesce(max(id), 0) as max from audit_log');
  return Number(rows[0]!.max);
}

const anonymous = (ua = 'flood/1.0') =>
  t.app.inject({ method: 'GET', url: '/api/settings', headers: { 'x-user-role': 'admin', 'user-agent': ua } });

describe('anonymous refusals are rate-limited per client address and minute', () => {
  it('writes the first refusal of each kind, then one summary with the count when the minute is over', async () => {
    // Away from the minute's end, so the whole burst falls in one minute of the test clock.
    t.clock.set(new Date('2026-11-22T15:10:05Z'));
    const before = await newestId();
    for (let i = 0; i < 50; i += 1) expect((await anonymous()).statusCode).toBe(401);

    const burst = await entriesAfter(before);
    expect(burst.map((e) => e.action)).toEqual(['security.role_header_mismatch', 'access.unauthenticated']);
    for (const e of burst) {
      expect(e.client_addr).toBe('127.0.0.1');
      expect(e.user_agent).toBe('flood/1.0');
    }

    // The next minute's first refusal writes the summaries of the one before, then its own entries.
    t.clock.advance(60_000);
    const mark = await newestId();
    await anonymous();
    const next = await entriesAfter(mark);
    const summaries = next.filter((e) => e.action === 'access.refused.summary');
    expect(summaries.map((e) => [e.resource, e.detail, e.client_addr])).toEqual(
      expect.arrayContaining([
        [
          'security.role_header_mismatch',
          '49 more refused requests from 127.0.0.1 in minute 2026-11-22T15:10Z',
          '127.0.0.1',
        ],
        ['access.unauthenticated', '49 more refused requests from 127.0.0.1 in minute 2026-11-22T15:10Z', '127.0.0.1'],
      ]),
    );
    expect(summaries).toHaveLength(2);
    expect(next.filter((e) => e.action !== 'access.refused.summary').map((e) => e.action)).toEqual([
      'security.role_header_mismatch',
      'access.unauthenticated',
    ]);
    expect((await verifyChain(t.database.db)).ok).toBe(true);
  });

  it('writes a signed-in caller refusals one by one, with the client on each entry', async () => {
    const nurse = await signInAs(t.app, 'nurse_manager');
    const before = await newestId();
    for (let i = 0; i < 3; i += 1) {
      const res = await nurse.request({ method: 'GET', url: '/api/audit', headers: { 'user-agent': 'ward-pc' } });
      expect(res.statusCode).toBe(403);
    }
    const denied = (await entriesAfter(before)).filter((e) => e.action === 'access.denied');
    expect(denied).toHaveLength(3);
    expect(denied.every((e) => e.client_addr === '127.0.0.1' && e.user_agent === 'ward-pc')).toBe(true);

    // The hash covers them: an entry whose address was changed afterwards no longer verifies.
    const id = Number(denied[0]!.id);
    const result = await withAuditEntryTampered(
      t.database.ownerPool,
      id,
      { column: 'client_addr', value: '10.9.9.9' },
      () => verifyChain(t.database.db),
    );
    expect(result.firstBreak).toMatchObject({ id, problem: 'modified' });
  });

  it('writes what is still counted when the app closes', async () => {
    const other = await createTestApp();
    try {
      other.clock.set(new Date('2026-11-22T16:00:10Z'));
      for (let i = 0; i < 5; i += 1) {
        await other.app.inject({ method: 'GET', url: '/api/settings' });
      }
      await other.app.close();
      const { rows } = await other.database.pool.query<{ detail: string }>(
        `select detail from audit_log where action = 'access.refused.summary'`,
      );
      expect(rows.map((r) => r.detail)).toEqual(['4 more refused requests from 127.0.0.1 in minute 2026-11-22T16:00Z']);
    } finally {
      await other.database.drop();
    }
  });
});
