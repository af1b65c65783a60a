import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '@/shared/api';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { Authorization, AuthorizationList } from '../authorizations.schema';

let t: TestApp;
let nurse: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  nurse = await signInAs(t.app, 'nurse_manager');
});
afterAll(async () => {
  await t.close();
});

interface RawAuthorization {
  id: number;
  payer: string;
  status: string;
  requested_on: string;
  decided_on: string | null;
  patient_id: number;
}

/** Every authorization straight from the table, with its age worked out here rather than by the app. */
async function rawAuthorizations() {
  const { rows } = await t.database.pool.query<RawAuthorization>(
    `select id, payer, status, requested_on::text, decided_on::text, patient_id from authorizations order by id`,
  );
  const day = Date.parse(`${today(t.clock())}T00:00:00Z`);
  return rows.map((r) => {
    const end = r.decided_on ? Date.parse(`${r.decided_on}T00:00:00Z`) : day;
    return { ...r, age: Math.round((end - Date.parse(`${r.requested_on}T00:00:00Z`)) / 86_400_000) };
  });
}

async function list(query = '', session: SignedIn = nurse) {
  const res = await session.request({ method: 'GET', url: `/api/authorizations${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AuthorizationList>();
}

/** The KPIs a first page carries (later pages carry none). */
async function kpisOf(query = '') {
  const { kpis } = await list(query);
  if (!kpis) throw new Error('a first page without its KPIs');
  return kpis;
}

/** The six tiles worked out here from raw rows, for comparing with what the app computes. */
function expectedKpis(raw: Awaited<ReturnType<typeof rawAuthorizations>>) {
  const pending = raw.filter((r) => r.status === 'Pending');
  return {
    total: raw.length,
    pending: pending.length,
    approved: raw.filter((r) => r.status === 'Approved').length,
    denied: raw.filter((r) => r.status === 'Denied').length,
    atRisk: pending.filter((r) => r.age > 5).length,
    avgAgeDays: raw.length === 0 ? 0 : Math.round((raw.reduce((sum, r) => sum + r.age, 0) / raw.length) * 10) / 10,
  };
}

async function auditCount() {
  const { rows } = await t.database.pool.query<{ n: number }>(`select count(*)::int as n from audit_log`);
  return rows[0]?.n ?? 0;
}

async function maxAuditId() {
  const { rows } = await t.database.pool.query<{ id: number }>(`select coalesce(max(id), 0)::int as id from audit_log`);
  return rows[0]?.id ?? 0;
}

describe('GET /api/authorizations', () => {
  it('computes the six KPIs over the authorizations the filters match', async () => {
    const all = await rawAuthorizations();
    const kpis = await kpisOf('?limit=5');
    const raw = all;
    const pending = raw.filter((r) => r.status === 'Pending');
    const avg = raw.reduce((sum, r) => sum + r.age, 0) / raw.length;
    expect(raw.length).toBeGreaterThan(50);
    expect(kpis).toEqual({
      total: raw.length,
      pending: pending.length,
      approved: raw.filter((r) => r.status === 'Approved').length,
      denied: raw.filter((r) => r.status === 'Denied').length,
      atRisk: pending.filter((r) => r.age > 5).length,
      avgAgeDays: Math.round(avg * 10) / 10,
    });
    // The seed has both sides of the at-risk line, so the KPI really tells them apart.
    expect(kpis.atRisk).toBeGreaterThan(0);
    expect(kpis.atRisk).toBeLessThan(kpis.pending);

    // A filter narrows the tiles as it narrows the list: 'Showing N of M' and Total agree.
    for (const [query, keep] of [
      ['?payer=Aetna', (r: (typeof all)[number]) => r.payer === 'Aetna'],
      ['?status=Pending&payer=Medicare', (r: (typeof all)[number]) => r.status === 'Pending' && r.payer === 'Medicare'],
    ] as const) {
      const rows = all.filter(keep);
      const page = await list(`${query}&limit=5`);
      const pending = rows.filter((r) => r.status === 'Pending');
      expect(page.kpis, query).toMatchObject({
        total: rows.length,
        pending: pending.length,
        approved: rows.filter((r) => r.status === 'Approved').length,
        denied: rows.filter((r) => r.status === 'Denied').length,
        atRisk: pending.filter((r) => r.age > 5).length,
      });
      expect(page.total, query).toBe(rows.length);
      expect(page.overallTotal, query).toBe(all.length);
      expect(rows.length, query).toBeLessThan(all.length);
    }
  });

  it('filters by payer and by status in the database, and pages the result', async () => {
    const raw = await rawAuthorizations();
    const expected = raw.filter((r) => r.payer === 'Medicare' && r.status === 'Pending');
    expect(expected.length).toBeGreaterThan(3);
    const page = await list('?payer=Medicare&status=Pending&limit=500');
    expect(page.total).toBe(expected.length);
    expect(page.items.map((a) => a.id).sort((a, b) => a - b)).toEqual(expected.map((r) => r.id));
    for (const item of page.items) {
      const source = expected.find((r) => r.id === item.id);
      expect(item.ageDays).toBe(source?.age);
      expect(item.atRisk).toBe((source?.age ?? 0) > 5);
    }

    const first = await list('?payer=Medicare&status=Pending&limit=2&offset=0&sort=ageDays&dir=desc');
    const second = await list('?payer=Medicare&status=Pending&limit=2&offset=2&sort=ageDays&dir=desc');
    expect(first.items).toHaveLength(2);
    expect(first.total).toBe(expected.length);
    const ages = [...first.items, ...second.items].map((a) => a.ageDays);
    expect(ages).toEqual([...ages].sort((a, b) => b - a));
    expect(new Set([...first.items, ...second.items].map((a) => a.id)).size).toBe(4);
  });

  it('sorts by patient name', async () => {
    const page = await list('?sort=patient&dir=asc&limit=500');
    const { rows } = await t.database.pool.query<{ id: number }>(
      `select a.id from authorizations a join patients p on p.id = a.patient_id order by p.name asc, a.id asc`,
    );
    expect(page.items.map((a) => a.id)).toEqual(rows.map((r) => r.id));
  });

  it('walks every sort both ways by cursor, filtered and searched: each row once, in order', async () => {
    const day = today(t.clock());
    const keys: Record<string, string[]> = {
      patient: ['p.name', 'p.id'],
      service: ['a.service'],
      payer: ['a.payer'],
      status: ['a.status', 'a.requested_on'],
      ageDays: [`coalesce(a.decided_on, '${day}'::date) - a.requested_on`],
    };
    for (const [query, where] of [
      ['', 'true'],
      ['&status=Pending', `a.status = 'Pending'`],
      ['&search=an', `(p.name ilike '%an%' or a.service ilike '%an%')`],
    ] as const) {
      for (const sort of Object.keys(keys)) {
        for (const dir of ['asc', 'desc'] as const) {
          const order = [...keys[sort]!, 'a.id'].map((k) => `${k} ${dir}`).join(', ');
          const expected = await t.database.pool.query<{ id: number }>(
            `select a.id from authorizations a join patients p on p.id = a.patient_id where ${where} order by ${order}`,
          );
          const seen: number[] = [];
          let cursor: string | null = null;
          do {
            const page: AuthorizationList = await list(
              `?sort=${sort}&dir=${dir}${query}&limit=4${cursor ? `&cursor=${cursor}` : ''}`,
            );
            expect(page.total === null).toBe(cursor !== null);
            // The KPIs read every authorization: a first page carries them, later pages do not recompute them.
            expect(page.kpis === null).toBe(cursor !== null);
            seen.push(...page.items.map((a) => a.id));
            cursor = page.nextCursor;
          } while (cursor);
          expect(seen, `${query} ${sort} ${dir}`).toEqual(expected.rows.map((r) => r.id));
        }
      }
    }
  });

  it('refuses a forged cursor naming cursor', async () => {
    const first = await list('?sort=service&limit=2');
    for (const cursor of ['x', Buffer.from('["service","asc",1,1]').toString('base64url'), first.nextCursor]) {
      const res = await nurse.request({ method: 'GET', url: `/api/authorizations?sort=payer&cursor=${cursor}` });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('cursor');
    }
  });

  it('refuses an unknown payer, status or sort with the field named', async () => {
    for (const [query, field] of [
      ['?payer=Acme%20Health', 'payer'],
      ['?payer=Self-Pay', 'payer'],
      ['?status=Lost', 'status'],
      ['?sort=mrn', 'sort'],
    ] as const) {
      const res = await nurse.request({ method: 'GET', url: `/api/authorizations${query}` });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: { fields: { field: string }[] } }>().error.fields.map((f) => f.field)).toContain(field);
    }
  });
});

describe('GET /api/authorizations/export', () => {
  it('serves every row matching the filters and audits the export', async () => {
    const raw = await rawAuthorizations();
    const before = await auditCount();
    const res = await nurse.request({ method: 'GET', url: '/api/authorizations/export?status=Approved' });
    expect(res.statusCode).toBe(200);
    const items = res.json<{ items: Authorization[] }>().items;
    expect(items.map((a) => a.id).sort((a, b) => a - b)).toEqual(
      raw.filter((r) => r.status === 'Approved').map((r) => r.id),
    );
    expect(await auditCount()).toBe(before + 1);
    const { rows } = await t.database.pool.query<{ action: string; resource: string; detail: string; actor: string }>(
      `select action, resource, detail, actor from audit_log order by id desc limit 1`,
    );
    expect(rows[0]).toMatchObject({
      action: 'export.csv',
      resource: 'authorizations',
      actor: 'nurse.manager@healthcare.demo',
    });
    expect(rows[0]?.detail).toContain(`${items.length} rows`);
    expect(rows[0]?.detail).toContain('status Approved');
  });
});

const APPROVAL = {
  status: 'Approved',
  authNumber: 'AET-77821',
  units: 12,
  validFrom: '2026-11-20',
  validTo: '2027-02-20',
} as const;

describe('PATCH /api/authorizations/:id', () => {
  async function pendingIds() {
    return (await rawAuthorizations()).filter((r) => r.status === 'Pending');
  }

  it('approves a pending authorization and audits it with the patient', async () => {
    const [target] = await pendingIds();
    if (!target) throw new Error('the seed has no pending authorization');
    const lastAuditId = await maxAuditId();
    const res = await nurse.request({
      method: 'PATCH',
      url: `/api/authorizations/${target.id}`,
      payload: APPROVAL,
    });
    expect(res.statusCode, res.body).toBe(200);
    const day = today(t.clock());
    expect(res.json()).toMatchObject({
      id: target.id,
      status: 'Approved',
      decidedOn: day,
      atRisk: false,
      authNumber: 'AET-77821',
      approvedUnits: 12,
      validFrom: '2026-11-20',
      validTo: '2027-02-20',
      denialReason: null,
    });
    const stored = (await rawAuthorizations()).find((r) => r.id === target.id);
    expect(stored).toMatchObject({ status: 'Approved', decided_on: day });
    const { rows } = await t.database.pool.query<{ action: string; patient_id: number; detail: string; actor: string }>(
      `select action, patient_id, detail, actor from audit_log where resource = $1 and id > $2`,
      [`authorization/${target.id}`, lastAuditId],
    );
    expect(rows).toEqual([
      {
        action: 'authorization.update',
        patient_id: target.patient_id,
        detail: 'status Pending → Approved; authorization AET-77821, 12 units, valid 2026-11-20 to 2027-02-20',
        actor: 'nurse.manager@healthcare.demo',
      },
    ]);
  });

  it('denies a pending authorization (doctor and admin may decide too)', async () => {
    const [first, second] = await pendingIds();
    if (!first || !second) throw new Error('the seed has too few pending authorizations');
    const doctor = await signInAs(t.app, 'doctor');
    const denied = await doctor.request({
      method: 'PATCH',
      url: `/api/authorizations/${first.id}`,
      payload: { status: 'Denied', reason: 'Not medically necessary' },
    });
    expect(denied.statusCode).toBe(200);
    expect(denied.json()).toMatchObject({
      status: 'Denied',
      denialReason: 'Not medically necessary',
      authNumber: null,
    });
    const admin = await signInAs(t.app, 'admin');
    const approved = await admin.request({
      method: 'PATCH',
      url: `/api/authorizations/${second.id}`,
      payload: APPROVAL,
    });
    expect(approved.statusCode).toBe(200);
    // The unfiltered tiles come from the status rollup: exact after the decisions, and as the days pass
    // (an undecided request ages, a decided one does not).
    expect(await kpisOf()).toEqual(expectedKpis(await rawAuthorizations()));
    const started = t.clock();
    t.clock.advance(9 * 86_400_000);
    try {
      // A session of that later day (the others would have idled out by then).
      const later = await signInAs(t.app, 'nurse_manager');
      expect((await list('?limit=3', later)).kpis).toEqual(expectedKpis(await rawAuthorizations()));
    } finally {
      t.clock.set(started);
    }
  });

  it('refuses to decide an authorization twice, and writes nothing', async () => {
    const decided = (await rawAuthorizations()).find((r) => r.status === 'Denied');
    if (!decided) throw new Error('the seed has no denied authorization');
    const before = await auditCount();
    const res = await nurse.request({
      method: 'PATCH',
      url: `/api/authorizations/${decided.id}`,
      payload: APPROVAL,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ error: { code: string } }>().error.code).toBe('ALREADY_DECIDED');
    expect((await rawAuthorizations()).find((r) => r.id === decided.id)).toEqual(decided);
    expect(await auditCount()).toBe(before);
  });

  it('refuses a body that is not a decision, naming the field', async () => {
    const [target] = await pendingIds();
    if (!target) throw new Error('the seed has no pending authorization');
    const before = await auditCount();
    for (const payload of [{ status: 'Pending' }, { status: 'approved' }, {}, { ...APPROVAL, note: 'x' }]) {
      const res = await nurse.request({ method: 'PATCH', url: `/api/authorizations/${target.id}`, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const fields = res.json<{ error: { fields?: { field: string }[] } }>().error.fields ?? [];
      expect(fields.length).toBeGreaterThan(0);
    }
    // What an approval or a denial must record, each missing or wrong value named.
    for (const [payload, field] of [
      [{ status: 'Approved' }, 'authNumber'],
      [{ ...APPROVAL, authNumber: '' }, 'authNumber'],
      [{ ...APPROVAL, units: 0 }, 'units'],
      [{ ...APPROVAL, validFrom: '2026-02-30' }, 'validFrom'],
      [{ ...APPROVAL, validTo: '2026-11-01' }, 'validTo'],
      [{ status: 'Denied' }, 'reason'],
      [{ status: 'Denied', reason: '   ' }, 'reason'],
    ] as const) {
      const res = await nurse.request({ method: 'PATCH', url: `/api/authorizations/${target.id}`, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const fields = res.json<{ error: { fields?: { field: string }[] } }>().error.fields ?? [];
      expect(
        fields.map((f) => f.field),
        JSON.stringify(payload),
      ).toContain(field);
    }
    const pendingRes = await nurse.request({
      method: 'PATCH',
      url: `/api/authorizations/${target.id}`,
      payload: { status: 'Pending' },
    });
    expect(pendingRes.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('status');
    const junk = await nurse.request({
      method: 'PATCH',
      url: `/api/authorizations/${target.id}`,
      headers: { 'content-type': 'application/json' },
      payload: 'not json',
    });
    expect(junk.statusCode).toBe(400);
    const badId = await nurse.request({
      method: 'PATCH',
      url: '/api/authorizations/abc',
      payload: { status: 'Denied' },
    });
    expect(badId.statusCode).toBe(400);
    expect((await rawAuthorizations()).find((r) => r.id === target.id)?.status).toBe('Pending');
    expect(await auditCount()).toBe(before);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await nurse.request({
      method: 'PATCH',
      url: '/api/authorizations/987654',
      payload: APPROVAL,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('access', () => {
  it('lets nurse managers, doctors and admins read', async () => {
    for (const role of ['nurse_manager', 'doctor', 'admin'] as const) {
      const session = await signInAs(t.app, role);
      const res = await session.request({ method: 'GET', url: '/api/authorizations' });
      expect(res.statusCode, role).toBe(200);
    }
  });

  it('refuses other roles (403) and callers with no session (401), changing nothing', async () => {
    const [target] = (await rawAuthorizations()).filter((r) => r.status === 'Pending');
    if (!target) throw new Error('the seed has no pending authorization');
    const calls = [
      { method: 'GET' as const, url: '/api/authorizations' },
      { method: 'GET' as const, url: '/api/authorizations/export' },
      { method: 'PATCH' as const, url: `/api/authorizations/${target.id}`, payload: { status: 'Approved' } },
    ];
    for (const role of ['billing_admin', 'patient', 'guest'] as const) {
      const session = await signInAs(t.app, role);
      for (const call of calls) {
        const res = await session.request(call);
        expect(res.statusCode, `${role} ${call.method} ${call.url}`).toBe(403);
      }
    }
    for (const call of calls) {
      const res = await t.app.inject(call);
      expect(res.statusCode, `no session ${call.method} ${call.url}`).toBe(401);
    }
    expect((await rawAuthorizations()).find((r) => r.id === target.id)?.status).toBe('Pending');
  });
});
