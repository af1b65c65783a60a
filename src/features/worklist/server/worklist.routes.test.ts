import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskText, rolesWith } from '@/shared/access';
import { today } from '@/shared/api';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { OverdueFollowUp, OverdueFollowUpPage, WorklistSummary } from '../worklist.schema';

let t: TestApp;
let doctor: SignedIn;
let providerId: number;
beforeAll(async () => {
  t = await createTestApp();
  doctor = await signInAs(t.app, 'doctor');
  const { rows } = await t.database.pool.query<{ id: number }>(`select id from providers order by id limit 1`);
  providerId = rows[0]?.id ?? 0;
});
afterAll(async () => {
  await t.close();
});

const DAY_MS = 86_400_000;

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** Every page of the worklist for these parameters, following nextCursor; small pages, so paging is exercised. */
async function pages(params = '', session: SignedIn = doctor, limit = 7): Promise<OverdueFollowUpPage[]> {
  const found: OverdueFollowUpPage[] = [];
  let cursor: string | null = null;
  do {
    const url: string = `/api/worklist/overdue-followups?limit=${limit}${params}${cursor ? `&cursor=${cursor}` : ''}`;
    const res = await session.request({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<OverdueFollowUpPage>();
    found.push(page);
    cursor = page.nextCursor;
    expect(found.length).toBeLessThan(1000);
  } while (cursor);
  return found;
}

/** The whole worklist in its default order (priority, then the longest overdue), read page by page. */
async function worklist(session: SignedIn = doctor): Promise<OverdueFollowUp[]> {
  return (await pages('', session)).flatMap((p) => p.items);
}

/**
 * The worklist worked out here from the raw tables, in plain code: per patient, the most recent encounter
 * whose follow-up is due before today with no later non-cancelled, non-no-show appointment and no later
 * encounter.
 */
async function expectedWorklist() {
  const day = today(t.clock());
  const encounters = (
    await t.database.pool.query<{
      id: number;
      patient_id: number;
      encounter_date: string;
      follow_up_due: string | null;
    }>(`select id, patient_id, encounter_date::text, follow_up_due::text from encounters`)
  ).rows;
  const appointments = (
    await t.database.pool.query<{ patient_id: number; date: string; status: string }>(
      `select patient_id, date::text, status from appointments`,
    )
  ).rows;
  const byPatient = new Map<number, { id: number; daysOverdue: number; date: string }>();
  for (const e of encounters) {
    if (e.follow_up_due === null || e.follow_up_due >= day) continue;
    const laterAppointment = appointments.some(
      (a) =>
        a.patient_id === e.patient_id &&
        a.date > e.encounter_date &&
        a.status !== 'Cancelled' &&
        a.status !== 'No-Show',
    );
    const laterEncounter = encounters.some((o) => o.patient_id === e.patient_id && o.encounter_date > e.encounter_date);
    if (laterAppointment || laterEncounter) continue;
    const current = byPatient.get(e.patient_id);
    if (!current || e.encounter_date > current.date || (e.encounter_date === current.date && e.id > current.id)) {
      byPatient.set(e.patient_id, { id: e.id, daysOverdue: daysBetween(e.follow_up_due, day), date: e.encounter_date });
    }
  }
  return byPatient;
}

let patientCounter = 0;

/** A new patient with one encounter whose follow-up is `daysOverdue` days overdue (negative: not yet due). */
async function patientWithEncounter(diagnosis: string[], daysOverdue: number | null, encounterDaysAgo = 200) {
  patientCounter += 1;
  const day = today(t.clock());
  const patient = await t.database.pool.query<{ id: number }>(
    `insert into patients (name, mrn, dob, phone) values ($1, $2, '1960-01-01', '(555) 000-0000') returning id`,
    [`Rule Testpatient ${patientCounter}`, `MRN-RULE-${patientCounter}`],
  );
  const patientId = patient.rows[0]?.id ?? 0;
  const encounterId = await addEncounter(
    patientId,
    addDays(day, -encounterDaysAgo),
    diagnosis,
    daysOverdue === null ? null : addDays(day, -daysOverdue),
  );
  return { patientId, encounterId, name: `Rule Testpatient ${patientCounter}` };
}

async function addEncounter(patientId: number, date: string, diagnosis: string[], followUpDue: string | null) {
  const { rows } = await t.database.pool.query<{ id: number }>(
    `insert into encounters (patient_id, provider_id, encounter_date, encounter_type, chief_complaint, diagnosis, follow_up_due)
     values ($1, $2, $3, 'Office Visit', 'Check-up', $4, $5) returning id`,
    [patientId, providerId, date, diagnosis, followUpDue],
  );
  return rows[0]?.id ?? 0;
}

async function book(patientId: number, date: string, status: string, time = '07:15') {
  await t.database.pool.query(
    `insert into appointments (patient_id, provider_id, reason, date, time, status) values ($1, $2, 'Follow-up', $3, $4, $5)`,
    [patientId, providerId, date, time, status],
  );
}

const HEART_FAILURE = 'I50.9 Heart failure, unspecified';
const DIABETES = 'E11.9 Type 2 diabetes without complications';
const OTITIS = 'H66.90 Otitis media, unspecified';
const BACK_PAIN = 'M54.5 Low back pain';

describe('GET /api/worklist/overdue-followups on the seed', () => {
  it('lists exactly the patients whose follow-up is overdue with no later visit, one row each', async () => {
    const expected = await expectedWorklist();
    const rows = await worklist();
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBe(expected.size);
    const expectedByEncounter = new Map([...expected.values()].map((e) => [e.id, e.daysOverdue]));
    for (const row of rows) {
      expect(expectedByEncounter.get(row.encounterId), `encounter ${row.encounterId}`).toBe(row.daysOverdue);
      expect(row.daysOverdue).toBeGreaterThan(0);
      expect(row.diagnosis.length).toBeGreaterThan(0);
      expect(row.patientName).not.toBe('');
      expect(row.providerName).toMatch(/^Dr\. /);
    }
    expect(new Set(rows.map((r) => r.patientName)).size).toBe(rows.length);
  });

  it('orders by priority, then the longest overdue first', async () => {
    const rows = await worklist();
    const rank = { High: 0, Medium: 1, Low: 2 };
    for (let i = 1; i < rows.length; i += 1) {
      const a = rows[i - 1]!;
      const b = rows[i]!;
      expect(rank[a.priority] < rank[b.priority] || (a.priority === b.priority && a.daysOverdue >= b.daysOverdue)).toBe(
        true,
      );
    }
  });

  it('audits each page read, which lists PHI', async () => {
    const before = await t.database.pool.query<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'worklist.view'`,
    );
    const res = await doctor.request({ method: 'GET', url: '/api/worklist/overdue-followups?limit=5' });
    const after = await t.database.pool.query<{ actor: string; detail: string }>(
      `select actor, detail from audit_log where action = 'worklist.view' order by id desc`,
    );
    expect(res.json<OverdueFollowUpPage>().items).toHaveLength(5);
    expect(after.rows.length).toBe((before.rows[0]?.n ?? 0) + 1);
    expect(after.rows[0]?.actor).toBe('doctor@healthcare.demo');
    // The query and the patients the page showed (docs/audit.md).
    expect(after.rows[0]?.detail).toMatch(/^\/api\/worklist\/overdue-followups\?.*limit=5.*: patients \[\d+(,\d+)*\]$/);
  });
});

describe('keyset paging (docs/paging.md)', () => {
  const RANK = { High: 0, Medium: 1, Low: 2 };

  it('returns every row exactly once across pages, for each sort and direction, with the total on page 1 only', async () => {
    const whole = await expectedWorklist();
    for (const sort of ['priority', 'daysOverdue'] as const) {
      for (const dir of ['asc', 'desc'] as const) {
        const found = await pages(`&sort=${sort}&dir=${dir}`, doctor, 4);
        expect(found[0]?.total, `${sort} ${dir}`).toBe(whole.size);
        expect(found.slice(1).every((p) => p.total === null)).toBe(true);
        const rows = found.flatMap((p) => p.items);
        const ids = rows.map((r) => r.encounterId);
        expect(new Set(ids).size, `${sort} ${dir}: no duplicates`).toBe(ids.length);
        expect(ids.sort((a, b) => a - b)).toEqual([...whole.values()].map((e) => e.id).sort((a, b) => a - b));
        // Each page continues the order of the one before (ties on days broken by encounter id).
        const key = (r: OverdueFollowUp) =>
          sort === 'priority' ? [RANK[r.priority], -r.daysOverdue, r.encounterId] : [r.daysOverdue, -r.encounterId];
        const sign = dir === 'asc' ? 1 : -1;
        const inOrder = found.flatMap((p) => p.items);
        for (let i = 1; i < inOrder.length; i += 1) {
          const a = key(inOrder[i - 1]!);
          const b = key(inOrder[i]!);
          const cmp = a.map((v, j) => Math.sign(v - (b[j] ?? 0))).find((c) => c !== 0) ?? 0;
          expect(cmp * sign, `${sort} ${dir} at ${i}`).toBeLessThan(0);
        }
      }
    }
  });

  it('pages the filtered list: one priority, one provider, both', async () => {
    const whole = await worklist();
    const provider = whole[0]?.providerName ?? '';
    const filters: { priority?: string; provider?: string }[] = [
      { priority: 'High' },
      { priority: 'Low' },
      { provider },
      { priority: whole[0]?.priority ?? 'High', provider },
    ];
    for (const params of filters) {
      const query = Object.entries(params)
        .map(([k, v]) => `&${k}=${encodeURIComponent(v ?? '')}`)
        .join('');
      for (const sort of ['priority', 'daysOverdue']) {
        const found = await pages(`${query}&sort=${sort}`, doctor, 3);
        const expected = whole.filter(
          (r) =>
            ('priority' in params ? r.priority === params.priority : true) &&
            ('provider' in params ? r.providerName === params.provider : true),
        );
        expect(expected.length, query).toBeGreaterThan(0);
        expect(found[0]?.total, query).toBe(expected.length);
        const ids = found.flatMap((p) => p.items.map((r) => r.encounterId));
        expect(
          ids.sort((a, b) => a - b),
          `${query} ${sort}`,
        ).toEqual(expected.map((r) => r.encounterId).sort((a, b) => a - b));
      }
    }
  });

  it('keeps ties on the follow-up due date apart by encounter id', async () => {
    const tied: { encounterId: number }[] = [];
    for (let i = 0; i < 5; i += 1) tied.push(await patientWithEncounter([DIABETES], 77, 90));
    const rows = (await pages('&sort=daysOverdue&dir=desc', doctor, 2)).flatMap((p) => p.items);
    const mine = rows.filter((r) => tied.some((x) => x.encounterId === r.encounterId));
    expect(mine.map((r) => r.encounterId)).toEqual(tied.map((x) => x.encounterId).sort((a, b) => a - b));
    expect(mine.every((r) => r.daysOverdue === 77)).toBe(true);
  });

  it('refuses a cursor of another sort or direction, or a forged one, naming the cursor', async () => {
    const first = await doctor.request({ method: 'GET', url: '/api/worklist/overdue-followups?limit=2' });
    const cursor = first.json<OverdueFollowUpPage>().nextCursor;
    expect(cursor).not.toBeNull();
    for (const url of [
      `/api/worklist/overdue-followups?limit=2&sort=daysOverdue&cursor=${cursor}`,
      `/api/worklist/overdue-followups?limit=2&dir=desc&cursor=${cursor}`,
      `/api/worklist/overdue-followups?limit=2&cursor=bm90LWEtY3Vyc29y`,
    ]) {
      const res = await doctor.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      const body = res.json<{ error: { message: string; fields: { field: string }[] } }>();
      expect(body.error.fields.map((f) => f.field)).toEqual(['cursor']);
      expect(body.error.message).toMatch(/^cursor: /);
    }
    const badSort = await doctor.request({ method: 'GET', url: '/api/worklist/overdue-followups?sort=patient' });
    expect(badSort.statusCode).toBe(400);
  });

  it('serves the tiles over the whole list and the providers for the filter', async () => {
    const whole = await worklist();
    const res = await doctor.request({ method: 'GET', url: '/api/worklist/overdue-followups/summary' });
    expect(res.statusCode).toBe(200);
    const count = (p: string) => whole.filter((r) => r.priority === p).length;
    expect(res.json<WorklistSummary>()).toEqual({
      total: whole.length,
      high: count('High'),
      medium: count('Medium'),
      low: count('Low'),
      avgDaysOverdue: Math.round(whole.reduce((sum, r) => sum + r.daysOverdue, 0) / whole.length),
      providers: [...new Set(whole.map((r) => r.providerName))].sort((a, b) => a.localeCompare(b)),
    });
  });
});

describe('what counts as a later visit', () => {
  it('drops a patient once a later appointment is booked, but not for a cancelled or no-show one', async () => {
    const listed = (await worklist())[0];
    if (!listed) throw new Error('the seed has no overdue follow-up');
    const { rows } = await t.database.pool.query<{ patient_id: number }>(
      `select patient_id from encounters where id = $1`,
      [listed.encounterId],
    );
    const patientId = rows[0]?.patient_id ?? 0;
    const day = today(t.clock());

    await book(patientId, addDays(day, 5), 'Cancelled');
    await book(patientId, addDays(day, -3), 'No-Show', '07:45');
    expect((await worklist()).map((r) => r.encounterId)).toContain(listed.encounterId);

    await book(patientId, addDays(day, 7), 'Scheduled');
    const after = await worklist();
    expect(after.map((r) => r.encounterId)).not.toContain(listed.encounterId);
    expect(after.map((r) => r.patientName)).not.toContain(listed.patientName);
  });

  it('does not count an appointment on the encounter day itself', async () => {
    const p = await patientWithEncounter([BACK_PAIN], 40, 60);
    await book(p.patientId, addDays(today(t.clock()), -60), 'Completed');
    expect((await worklist()).map((r) => r.encounterId)).toContain(p.encounterId);
  });

  it('counts a later encounter as a visit, and lists only the most recent overdue encounter', async () => {
    const day = today(t.clock());
    const seenSince = await patientWithEncounter([HEART_FAILURE], 100, 150);
    await addEncounter(seenSince.patientId, addDays(day, -20), [BACK_PAIN], null);
    const twice = await patientWithEncounter([HEART_FAILURE], 200, 250);
    const recent = await addEncounter(twice.patientId, addDays(day, -60), [OTITIS], addDays(day, -30));
    const rows = await worklist();
    expect(rows.map((r) => r.patientName)).not.toContain(seenSince.name);
    const listed = rows.filter((r) => r.patientName === twice.name);
    expect(listed.map((r) => r.encounterId)).toEqual([recent]);
    expect(listed[0]?.daysOverdue).toBe(30);
  });

  it('leaves out follow-ups due today or later, and encounters that need none', async () => {
    const dueToday = await patientWithEncounter([HEART_FAILURE], 0);
    const dueLater = await patientWithEncounter([HEART_FAILURE], -10);
    const none = await patientWithEncounter([HEART_FAILURE], null);
    const names = (await worklist()).map((r) => r.patientName);
    expect(names).not.toContain(dueToday.name);
    expect(names).not.toContain(dueLater.name);
    expect(names).not.toContain(none.name);
  });
});

describe('priority and recommended action (docs/worklist.md)', () => {
  it('follows the rules by risk class and days overdue, at the boundaries', async () => {
    const cases = [
      { diagnosis: [HEART_FAILURE], days: 15, priority: 'High' },
      { diagnosis: [HEART_FAILURE], days: 14, priority: 'Medium' },
      { diagnosis: [BACK_PAIN, 'J44.9 COPD, unspecified'], days: 1, priority: 'Medium' },
      { diagnosis: [DIABETES], days: 181, priority: 'High' },
      { diagnosis: [DIABETES], days: 180, priority: 'Medium' },
      { diagnosis: ['I10 Essential hypertension'], days: 31, priority: 'Medium' },
      { diagnosis: ['I10 Essential hypertension'], days: 30, priority: 'Low' },
      { diagnosis: [OTITIS], days: 181, priority: 'Medium' },
      { diagnosis: [OTITIS], days: 180, priority: 'Low' },
      { diagnosis: [OTITIS, 'Z00.00 General adult examination'], days: 300, priority: 'Medium' },
    ] as const;
    const actions = {
      High: 'Call patient today to schedule follow-up',
      Medium: 'Schedule follow-up within 1 week',
      Low: 'Send reminder to schedule follow-up',
    };
    const created = [];
    for (const c of cases)
      created.push({ ...c, ...(await patientWithEncounter([...c.diagnosis], c.days, c.days + 30)) });
    const rows = await worklist();
    for (const c of created) {
      const row = rows.find((r) => r.encounterId === c.encounterId);
      expect(row, `${c.diagnosis.join(', ')} ${c.days} days`).toMatchObject({
        daysOverdue: c.days,
        diagnosis: [...c.diagnosis],
        priority: c.priority,
        recommendedAction: actions[c.priority],
      });
    }
  });
});

describe('POST /api/worklist/overdue-followups/exports', () => {
  it('serves every row the filters select and records the export with its filters', async () => {
    const whole = await worklist();
    const provider = whole.find((r) => r.priority === 'High')?.providerName ?? '';
    const res = await doctor.request({
      method: 'POST',
      url: '/api/worklist/overdue-followups/exports',
      payload: { priority: 'High', provider },
    });
    expect(res.statusCode).toBe(200);
    const expected = whole.filter((r) => r.priority === 'High' && r.providerName === provider);
    expect(expected.length).toBeGreaterThan(0);
    expect(res.json<OverdueFollowUp[]>()).toEqual(expected);
    const { rows } = await t.database.pool.query<{ action: string; resource: string; detail: string }>(
      `select action, resource, detail from audit_log order by id desc limit 1`,
    );
    expect(rows[0]).toEqual({
      action: 'export.csv',
      resource: 'overdue-followups',
      detail: `overdue-followups.csv: ${expected.length} rows (priority High, provider ${provider})`,
    });
  });

  it('refuses a malformed filter with the field named', async () => {
    const res = await doctor.request({
      method: 'POST',
      url: '/api/worklist/overdue-followups/exports',
      payload: { provider: '', priority: 'Urgent' },
    });
    expect(res.statusCode).toBe(400);
    const fields = res.json<{ error: { fields: { field: string }[] } }>().error.fields.map((f) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['provider', 'priority']));
  });
});

describe('access', () => {
  it('lets nurse managers, doctors and admins read', async () => {
    for (const role of ['nurse_manager', 'doctor', 'admin'] as const) {
      const session = await signInAs(t.app, role);
      const res = await session.request({ method: 'GET', url: '/api/worklist/overdue-followups' });
      expect(res.statusCode, role).toBe(200);
    }
  });

  it('refuses other roles (403) and callers with no session (401)', async () => {
    const calls = [
      { method: 'GET' as const, url: '/api/worklist/overdue-followups' },
      { method: 'GET' as const, url: '/api/worklist/overdue-followups/summary' },
      { method: 'POST' as const, url: '/api/worklist/overdue-followups/exports', payload: {} },
    ];
    for (const role of ['billing_admin', 'patient', 'guest'] as const) {
      const session = await signInAs(t.app, role);
      for (const call of calls) expect((await session.request(call)).statusCode, `${role} ${call.url}`).toBe(403);
    }
    for (const call of calls) expect((await t.app.inject(call)).statusCode, `no session ${call.url}`).toBe(401);
  });
});

describe("the patient's phone on the worklist", () => {
  it('is on every row of the pages and of the export, masked as the caller’s role requires', async () => {
    const { rows } = await t.database.pool.query<{ id: number; phone: string }>(
      'select e.id, p.phone from encounters e join patients p on p.id = e.patient_id',
    );
    const phoneOf = new Map(rows.map((r) => [r.id, r.phone]));
    for (const role of rolesWith('worklist:read')) {
      const session = await signInAs(t.app, role);
      const listed = (await pages('', session, 50)).flatMap((p) => p.items);
      expect(listed.length, role).toBeGreaterThan(0);
      for (const item of listed) {
        expect(item.phone, `${role} ${item.encounterId}`).toBe(maskText('phone', phoneOf.get(item.encounterId)!, role));
      }
      const exported = await session.request({
        method: 'POST',
        url: '/api/worklist/overdue-followups/exports',
        payload: {},
      });
      expect(exported.statusCode, role).toBe(200);
      for (const item of exported.json<OverdueFollowUp[]>()) {
        expect(item.phone, `${role} export ${item.encounterId}`).toBe(
          maskText('phone', phoneOf.get(item.encounterId)!, role),
        );
      }
    }
  });
});
