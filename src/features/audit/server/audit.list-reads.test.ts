/**
 * docs/audit.md: every page of a list or search that shows PHI appends one entry naming the query and the
 * patients shown; typed search text is kept only as its length (it may itself be PHI).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';

let t: TestApp;
let admin: SignedIn;
let nurse: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  [admin, nurse] = await Promise.all([signInAs(t.app, 'admin'), signInAs(t.app, 'nurse_manager')]);
});
afterAll(async () => {
  await t.close();
});

interface Entry {
  id: number;
  action: string;
  resource: string;
  detail: string;
  actor_role: string;
  patient_id: number | null;
}

async function newestEntries(afterId: number): Promise<Entry[]> {
  const { rows } = await t.database.pool.query<Entry>(
    'select id, action, resource, detail, actor_role, patient_id from audit_log where id > $1 order by id',
    [afterId],
  );
  return rows;
}

async function lastId(): Promise<number> {
  const { rows } = await t.database.pool.query<{ id: number | null }>('select max(id) as id from audit_log');
  return Number(rows[0]?.id ?? 0);
}

async function patientIdsOf(sql: string, params: unknown[]): Promise<number[]> {
  const { rows } = await t.database.pool.query<{ id: number }>(sql, params);
  return [...new Set(rows.map((r) => Number(r.id)))].sort((a, b) => a - b);
}

/** Reads `url` and returns the one entry it appended (failing unless exactly one). */
async function readAndAudit(who: SignedIn, url: string): Promise<{ body: unknown; entry: Entry }> {
  const before = await lastId();
  const res = await who.request({ method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  const entries = await newestEntries(before);
  expect(entries).toHaveLength(1);
  return { body: res.json(), entry: entries[0] as Entry };
}

describe('audited list reads', () => {
  it('a patients page names the query and the patients shown; the typed search only as its length', async () => {
    const { body, entry } = await readAndAudit(nurse, '/api/patients?search=Maria&limit=20');
    const ids = (body as { items: { id: number }[] }).items.map((p) => p.id).sort((a, b) => a - b);
    expect(ids.length).toBeGreaterThan(0);
    expect(entry.action).toBe('patients.list.view');
    expect(entry.actor_role).toBe('nurse_manager');
    expect(entry.resource).toBe('/api/patients');
    expect(entry.detail).toContain('search=(5 chars)');
    expect(entry.detail).toContain('limit=20');
    expect(entry.detail).toContain(`patients [${ids.join(',')}]`);
    expect(entry.detail).not.toMatch(/maria/i);
  });

  it('a page of more than 100 patients gives their count, and the next page is audited too', async () => {
    const first = await readAndAudit(admin, '/api/patients?limit=150');
    const page = first.body as { items: unknown[]; nextCursor: string | null };
    expect(page.items).toHaveLength(150);
    expect(first.entry.detail).toContain('150 patients');
    expect(page.nextCursor).not.toBeNull();
    const next = await readAndAudit(admin, `/api/patients?limit=150&cursor=${page.nextCursor ?? ''}`);
    expect(next.entry.action).toBe('patients.list.view');
    // The cursor carries the last row's sort keys (a name): only its presence is kept.
    expect(next.entry.detail).toContain('cursor=(given)');
    expect(next.entry.detail).not.toContain(page.nextCursor ?? '');
  });

  it('a day of appointments names the day and its patients', async () => {
    const { rows } = await t.database.pool.query<{ date: string }>(
      'select date::text as date from appointments group by date order by count(*) desc limit 1',
    );
    const day = rows[0]?.date ?? '';
    const { entry } = await readAndAudit(nurse, `/api/appointments?date=${day}&limit=500`);
    const ids = await patientIdsOf('select patient_id as id from appointments where date = $1', [day]);
    expect(entry.action).toBe('appointments.list.view');
    expect(entry.detail).toContain(`date=${day}`);
    expect(entry.detail).toContain(ids.length > 100 ? `${ids.length} patients` : `patients [${ids.join(',')}]`);
  });

  it('an authorizations page names its filters and patients', async () => {
    const { body, entry } = await readAndAudit(admin, '/api/authorizations?status=Pending&limit=10');
    expect((body as { items: unknown[] }).items.length).toBeGreaterThan(0);
    expect(entry.action).toBe('authorizations.list.view');
    expect(entry.detail).toContain('status=Pending');
    expect(entry.detail).toMatch(/patients \[\d+(,\d+)*\]/);
  });

  it('a claims page names its filters and the patients of its claims', async () => {
    const { body, entry } = await readAndAudit(admin, '/api/claims?payer=Aetna&limit=5');
    const accounts = (body as { items: { accountNumber: string }[] }).items.map((c) => c.accountNumber);
    const ids = await patientIdsOf('select patient_id as id from claims where account_number = any($1)', [accounts]);
    expect(entry.action).toBe('claims.list.view');
    expect(entry.detail).toContain('payer=Aetna');
    expect(entry.detail).toContain(`patients [${ids.join(',')}]`);
  });

  it('a worklist page names its query and patients', async () => {
    const { body, entry } = await readAndAudit(nurse, '/api/worklist/overdue-followups?limit=5');
    const encounterIds = (body as { items: { encounterId: number }[] }).items.map((i) => i.encounterId);
    const ids = await patientIdsOf('select patient_id as id from encounters where id = any($1)', [encounterIds]);
    expect(entry.action).toBe('worklist.view');
    expect(entry.detail).toContain('limit=5');
    expect(entry.detail).toContain(`patients [${ids.join(',')}]`);
  });

  it('a global search is audited with the text as its length and the patients of every group', async () => {
    const { body, entry } = await readAndAudit(admin, '/api/search?q=Maria');
    const result = body as { patients: { id: number }[]; appointments: object[]; claims: object[] };
    expect(result.patients.length).toBeGreaterThan(0);
    // The patient id the entry needs is not part of the answer.
    for (const row of [...result.appointments, ...result.claims]) expect(row).not.toHaveProperty('patientId');
    expect(entry.action).toBe('search.view');
    expect(entry.detail).toContain('q=(5 chars)');
    expect(entry.detail).not.toMatch(/maria/i);
    for (const p of result.patients) expect(entry.detail).toMatch(new RegExp(`[[,]${p.id}[,\\]]`));
  });
});
