import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '@/shared/api';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { AuditActions, AuditEntry, AuditExport, AuditPage, AuditStats } from '../audit.schema';
import { recordNow } from './audit.queries';

let t: TestApp;
let billing: SignedIn;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  billing = await signInAs(t.app, 'billing_admin');
  admin = await signInAs(t.app, 'admin');
});
afterAll(async () => {
  await t.close();
});

interface RawEntry {
  id: number;
  at: Date;
  actor: string;
  action: string;
}

/** Every entry straight from the table, newest first, ordered here rather than by the app. */
async function rawEntries(): Promise<RawEntry[]> {
  const { rows } = await t.database.pool.query<{ id: string; at: Date; actor: string; action: string }>(
    `select id, occurred_at as at, actor, action from audit_log`,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) })).sort((a, b) => b.at.getTime() - a.at.getTime() || b.id - a.id);
}

async function get<T>(url: string, session: SignedIn = billing): Promise<T> {
  const res = await session.request({ method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
}

/** Follows nextCursor to the end and returns every page; the first pages may be smaller. */
async function allPages(query: string, limit: number, firstLimits: number[] = []): Promise<AuditPage[]> {
  const pages: AuditPage[] = [];
  let cursor: string | null = null;
  do {
    const sep = query ? '&' : '';
    const size = firstLimits[pages.length] ?? limit;
    const url = `/api/audit?${query}${sep}limit=${size}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page: AuditPage = await get<AuditPage>(url);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 100);
  return pages;
}

function fieldsOf(body: string): string[] {
  return (JSON.parse(body) as { error: { fields?: { field: string }[] } }).error.fields?.map((f) => f.field) ?? [];
}

describe('GET /api/audit', () => {
  it('answers the 200 newest entries first, newest by time then id', async () => {
    const raw = await rawEntries();
    expect(raw.length).toBeGreaterThan(400);
    const page = await get<AuditPage>('/api/audit');
    expect(page.entries).toHaveLength(200);
    expect(page.entries.map((e) => e.id)).toEqual(raw.slice(0, 200).map((e) => e.id));
    expect(page.nextCursor).toEqual(expect.any(String));
    const first = page.entries[0]!;
    expect(new Date(first.time).getTime()).toBe(raw[0]!.at.getTime());
  });

  it('pages with the cursor: no overlap, no gap, and stable under equal timestamps', async () => {
    // Seven entries at the very same instant, after everything else: only the id orders them.
    const at = new Date(t.clock().getTime() + 60_000);
    for (let i = 0; i < 7; i += 1) {
      await recordNow(t.database.db, { actor: 'tie@test', action: 'test.tie', resource: `tie/${i}`, at });
    }
    const raw = await rawEntries();
    const pages = await allPages('', 500, [3, 3, 3, 3]);
    const ids = pages.flatMap((p) => p.entries.map((e) => e.id));
    expect(ids).toEqual(raw.map((e) => e.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages.at(-1)?.nextCursor).toBeNull();
    // The tie straddles pages 1-3 (3 + 3 + 1): id order decides, none lost or repeated.
    const ties = raw.filter((e) => e.action === 'test.tie').map((e) => e.id);
    expect(pages.slice(0, 3).map((p) => p.entries.filter((e) => e.action === 'test.tie').length)).toEqual([3, 3, 1]);
    expect(ids.slice(0, 7)).toEqual(ties);
    expect(ties).toEqual([...ties].sort((a, b) => b - a));
  });

  it('a page keeps its place while new entries are written', async () => {
    const first = await get<AuditPage>('/api/audit?limit=5');
    await recordNow(t.database.db, { actor: 'late@test', action: 'test.late', resource: 'x', at: t.clock() });
    await recordNow(t.database.db, {
      actor: 'late@test',
      action: 'test.late',
      resource: 'y',
      at: new Date(t.clock().getTime() + 3_600_000),
    });
    const second = await get<AuditPage>(`/api/audit?limit=5&cursor=${encodeURIComponent(first.nextCursor!)}`);
    const raw = await rawEntries();
    const lastShown = raw.findIndex((e) => e.id === first.entries.at(-1)!.id);
    expect(second.entries.map((e) => e.id)).toEqual(raw.slice(lastShown + 1, lastShown + 6).map((e) => e.id));
  });

  it('filters by actor (contains, any case), action (exact) and an inclusive day range', async () => {
    const raw = await rawEntries();
    const byActor = (await allPages('actor=BILLING.ad', 500)).flatMap((p) => p.entries);
    const expectedActor = raw.filter((e) => e.actor.toLowerCase().includes('billing.ad'));
    expect(expectedActor.length).toBeGreaterThan(10);
    expect(byActor.map((e) => e.id)).toEqual(expectedActor.map((e) => e.id));

    const byAction = (await allPages('action=patient.view', 500)).flatMap((p) => p.entries);
    const expectedAction = raw.filter((e) => e.action === 'patient.view');
    expect(expectedAction.length).toBeGreaterThan(10);
    expect(byAction.map((e) => e.id)).toEqual(expectedAction.map((e) => e.id));
    // Exact, not a prefix: 'patient' alone matches nothing.
    expect((await get<AuditPage>('/api/audit?action=patient')).entries).toEqual([]);

    // A 3-day window in the seeded month, both ends inclusive, in local calendar days like today().
    const days = [...new Set(raw.map((e) => today(e.at)))].sort();
    const from = days[5]!;
    const to = days[7]!;
    const byDays = (await allPages(`from=${from}&to=${to}`, 500)).flatMap((p) => p.entries);
    const expectedDays = raw.filter((e) => today(e.at) >= from && today(e.at) <= to);
    expect(expectedDays.length).toBeGreaterThan(10);
    expect(byDays.map((e) => e.id)).toEqual(expectedDays.map((e) => e.id));
    expect(byDays.some((e) => today(new Date(e.time)) === from)).toBe(true);
    expect(byDays.some((e) => today(new Date(e.time)) === to)).toBe(true);

    const combined = (await allPages(`actor=doctor&action=patient.view&from=${from}&to=${to}`, 500)).flatMap(
      (p) => p.entries,
    );
    expect(combined.map((e) => e.id)).toEqual(
      expectedDays.filter((e) => e.actor.includes('doctor') && e.action === 'patient.view').map((e) => e.id),
    );
  });

  it('takes % and _ in the actor filter literally', async () => {
    expect((await get<AuditPage>('/api/audit?actor=%25')).entries).toEqual([]);
    expect((await get<AuditPage>('/api/audit?actor=_')).entries).toEqual([]);
  });

  it('refuses bad input with 400 naming the field', async () => {
    for (const [query, field] of [
      ['from=2026-13-01', 'from'],
      ['to=yesterday', 'to'],
      ['from=2026-11-10&to=2026-11-09', 'to'],
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['limit=ten', 'limit'],
      ['cursor=not-a-cursor', 'cursor'],
      [`cursor=${Buffer.from('["2026-11-01",1]').toString('base64url')}`, 'cursor'],
      [`actor=${'a'.repeat(300)}`, 'actor'],
    ] as const) {
      const res = await billing.request({ method: 'GET', url: `/api/audit?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(fieldsOf(res.body), query).toContain(field);
    }
  });

  it('answers a page of 500 at most, and a limit between', async () => {
    expect((await get<AuditPage>('/api/audit?limit=500')).entries).toHaveLength(500);
    expect((await get<AuditPage>('/api/audit?limit=7')).entries).toHaveLength(7);
  });
});

describe('who may read the audit log', () => {
  it('is refused (403) to nurse_manager, doctor, patient and guest, and 401 without a session', async () => {
    for (const role of ['nurse_manager', 'doctor', 'patient', 'guest'] as const) {
      const session = await signInAs(t.app, role);
      for (const url of ['/api/audit', '/api/audit/stats', '/api/audit/actions', '/api/audit/export']) {
        const res = await session.request({ method: 'GET', url });
        expect(res.statusCode, `${role} ${url}`).toBe(403);
      }
      expect((await session.request({ method: 'GET', url: '/api/audit/verify' })).statusCode).toBe(403);
    }
    for (const url of [
      '/api/audit',
      '/api/audit/stats',
      '/api/audit/actions',
      '/api/audit/export',
      '/api/audit/verify',
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });

  it('lets billing_admin read but not verify the chain; admin does both', async () => {
    expect((await admin.request({ method: 'GET', url: '/api/audit' })).statusCode).toBe(200);
    expect((await billing.request({ method: 'GET', url: '/api/audit/verify' })).statusCode).toBe(403);
  });
});

describe('GET /api/audit/actions', () => {
  it('lists every distinct action once, alphabetically', async () => {
    const raw = await rawEntries();
    const { actions } = await get<AuditActions>('/api/audit/actions');
    expect(actions).toEqual([...new Set(raw.map((e) => e.action))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(actions).toContain('patient.view');
  });
});

describe('GET /api/audit/stats', () => {
  it('counts six figures exactly as hand-counted from the rows', async () => {
    const now = t.clock().getTime();
    // Entries on both sides of each window's edge, so an off-by-a-day window would show.
    const entries = [
      { action: 'auth.login.failure', ago: 1 },
      { action: 'auth.mfa.failure', ago: 23.9 },
      { action: 'auth.locked', ago: 24.1 },
      { action: 'auth.mfa.expired', ago: 4 },
      { action: 'auth.login.locked_out', ago: 6 },
      { action: 'auth.mfa.locked_out', ago: 30 },
      { action: 'access.denied', ago: 2 },
      { action: 'access.unauthenticated', ago: 24 * 6.9 },
      { action: 'access.denied', ago: 24 * 7.1 },
      { action: 'patient.view', ago: 3 },
      { action: 'statement.view', ago: 24 * 8 },
      { action: 'export.csv', ago: 5 },
      { action: 'statement.export', ago: 24 * 6 },
      { action: 'appointment.export', ago: 24 * 10 },
    ];
    for (const e of entries) {
      await recordNow(t.database.db, {
        actor: 'stats@test',
        action: e.action,
        resource: 'stats',
        at: new Date(now - e.ago * 3_600_000),
      });
    }
    const raw = await rawEntries();
    const within = (hours: number) => (e: RawEntry) =>
      e.at.getTime() > now - hours * 3_600_000 && e.at.getTime() <= now;
    const count = (hours: number, pick: (e: RawEntry) => boolean) => raw.filter(within(hours)).filter(pick).length;
    const expected: AuditStats = {
      totalEntries: raw.length,
      entriesLast24h: count(24, () => true),
      failedSignInsLast24h: count(24, (e) =>
        [
          'auth.login.failure',
          'auth.login.locked_out',
          'auth.mfa.failure',
          'auth.mfa.expired',
          'auth.mfa.locked_out',
          'auth.locked',
        ].includes(e.action),
      ),
      deniedAccessLast7d: count(24 * 7, (e) => ['access.denied', 'access.unauthenticated'].includes(e.action)),
      phiReadsLast7d: count(24 * 7, (e) => e.action.endsWith('.view')),
      exportsLast7d: count(24 * 7, (e) => e.action === 'export.csv' || e.action.endsWith('.export')),
    };
    const stats = await get<AuditStats>('/api/audit/stats');
    expect(stats).toEqual(expected);
    expect(stats.failedSignInsLast24h).toBeGreaterThanOrEqual(4);
    expect(stats.deniedAccessLast7d).toBeGreaterThanOrEqual(2);
    expect(stats.exportsLast7d).toBeGreaterThanOrEqual(2);
  });
});

describe('GET /api/audit/export', () => {
  it('serves the filtered rows and audits the export in the same call', async () => {
    const raw = await rawEntries();
    const expected = raw.filter((e) => e.action === 'claim.appeal');
    const body = await get<AuditExport>('/api/audit/export?action=claim.appeal');
    expect(body.capped).toBe(false);
    expect(body.maxRows).toBe(10_000);
    expect(body.entries.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    const [latest] = (await get<AuditPage>('/api/audit?limit=1&action=export.csv')).entries as [AuditEntry];
    expect(latest).toMatchObject({
      actor: 'billing.admin@healthcare.demo',
      action: 'export.csv',
      resource: 'audit_log',
      detail: `audit-log.csv: ${expected.length} rows (action claim.appeal)`,
    });
  });

  it('refuses a reversed day range', async () => {
    const res = await billing.request({ method: 'GET', url: '/api/audit/export?from=2026-11-10&to=2026-11-01' });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res.body)).toContain('to');
  });
});

describe('GET /api/audit/verify', () => {
  it('reports an intact chain to the admin, with every entry checked, and audits the check', async () => {
    const { rows } = await t.database.pool.query<{ n: number }>(`select count(*)::int as n from audit_log`);
    const result = await get<{ ok: boolean; checked: number; firstBreak: unknown }>('/api/audit/verify', admin);
    expect(result).toEqual({ ok: true, checked: rows[0]!.n, firstBreak: null });
    const [latest] = (await get<AuditPage>('/api/audit?limit=1&action=audit.verify')).entries as [AuditEntry];
    expect(latest).toMatchObject({ actor: 'admin@healthcare.demo', detail: `chain intact: ${rows[0]!.n} entries` });
  });
});
