import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';

/**
 * The guard against a second clock (docs/clock.md). The app's "now" is its injected clock
 * alone: the day the screens call today, the times rows are written with, the seed's "today". Here the app
 * runs years before this machine's real date, the demo clinic is seeded through the API on that day, and a
 * few writes follow; anything that read the real clock instead (the database's now(), a `new Date()` in a
 * query or the seed) is dated after the app's now and fails this file at once, not the day the browser
 * tests' pinned date and the real one drift apart.
 */

/** A Monday years before any real run, the day after the United States' spring daylight-saving change. */
const FAR_NOW = new Date('2021-03-15T17:00:00Z');
const FAR_TODAY = '2021-03-15';

let t: TestApp;
const query = async <T>(text: string, values: unknown[] = []) =>
  (await t.database.pool.query(text, values)).rows as T[];
let admin: SignedIn;
/** The seed keeps the staff accounts and the audit trail: their rows from before it are the template's. */
const keptBefore: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const table of ['users', 'audit_log']) {
    const [r] = await query<{ id: number }>(`select coalesce(max(id), 0)::int as id from ${table}`);
    keptBefore[table] = r!.id;
  }
  t.clock.set(FAR_NOW);
  admin = await signInAs(t.app, 'admin');
  const seeded = await admin.request({ method: 'POST', url: '/api/seed', payload: { confirm: 'SEED' } });
  expect(seeded.statusCode, seeded.body).toBe(200);
});

afterAll(async () => {
  await t.close();
});

describe('one clock: an app whose clock is years behind the machine', () => {
  it("tells the browser its own now, and counts the seeded day's visits as today's", async () => {
    const session = (await admin.request({ method: 'GET', url: '/api/auth/session' })).json<{ serverTime: string }>();
    expect(session.serverTime.slice(0, 10)).toBe(FAR_TODAY);

    const summary = await admin.request({ method: 'GET', url: '/api/dashboard/summary' });
    expect(summary.statusCode).toBe(200);
    const body = summary.json<{ today: string; stats: { todaysAppointments: number } }>();
    expect(body.today).toBe(FAR_TODAY);
    const [row] = await query<{ n: number }>(
      `select count(*)::int as n from appointments where date = $1 and status <> 'Cancelled'`,
      [FAR_TODAY],
    );
    expect(row!.n).toBeGreaterThan(0);
    expect(body.stats.todaysAppointments).toBe(row!.n);

    // Appointments opens on the app's today (its list with no date asked): that day's seeded visits only.
    const day = (await admin.request({ method: 'GET', url: '/api/appointments' })).json<{
      items: { date: string }[];
    }>();
    expect(day.items.length).toBeGreaterThan(0);
    expect(new Set(day.items.map((a) => a.date))).toEqual(new Set([FAR_TODAY]));
  });

  it('dates every row the seed and the app write by the app clock, none by the real one', async () => {
    const created = await admin.request({
      method: 'POST',
      url: '/api/patients',
      payload: { name: 'Clock Guard', dob: '1980-01-02', phone: '(555) 010-7788', mrn: 'CLOCK-GUARD-1' },
    });
    expect(created.statusCode, created.body).toBe(201);

    // Each creation time the schema keeps (docs/clock.md), and the audit trail's.
    const columns = await query<{ table_name: string; column_name: string }>(
      `select table_name, column_name from information_schema.columns
        where table_schema = 'public' and data_type = 'timestamp with time zone'
          and column_name in ('created_at', 'imported_at', 'opened_at', 'scrubbed_at', 'occurred_at')
        order by table_name, column_name`,
    );
    expect(columns.map((c) => `${c.table_name}.${c.column_name}`)).toEqual(
      expect.arrayContaining([
        'claims.created_at',
        'patients.created_at',
        'payments.created_at',
        'audit_log.occurred_at',
      ]),
    );
    const later: string[] = [];
    for (const { table_name: table, column_name: column } of columns) {
      const [r] = await query<{ n: number; latest: string | null }>(
        `select count(*)::int as n, max("${column}")::text as latest from "${table}"
          where "${column}" > $1 and ${table in keptBefore ? `id > ${keptBefore[table]}` : 'true'}`,
        [new Date(FAR_NOW.getTime() + 60_000).toISOString()],
      );
      if (r!.n > 0) later.push(`${table}.${column}: ${r!.n} rows up to ${r!.latest}`);
    }
    expect(later).toEqual([]);
  });
});
