import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TODAY } from '@/testing/test-clock';
import { createTestApp, demoAccount, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { DashboardSummary } from '../dashboard.schema';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function rows<T>(query: string, params: unknown[] = []): Promise<T[]> {
  return (await t.database.pool.query(query, params)).rows as T[];
}
async function scalar(query: string, params: unknown[] = []): Promise<number> {
  const [row] = await rows<{ n: string }>(query, params);
  return Number(row?.n ?? 0);
}
async function statusCounts(query: string, params: unknown[] = []) {
  const counted = await rows<{ status: string; count: string }>(query, params);
  return Object.fromEntries(counted.map((r) => [r.status, Number(r.count)]));
}
const asMap = (counts: { status: string; count: number }[] | null) =>
  Object.fromEntries((counts ?? []).map((c) => [c.status, c.count]));

async function summary(who: SignedIn): Promise<DashboardSummary> {
  const res = await who.request({ method: 'GET', url: '/api/dashboard/summary' });
  expect(res.statusCode).toBe(200);
  return res.json<DashboardSummary>();
}

describe('GET /api/dashboard/summary', () => {
  it('tells its server time in a Server-Timing header (the benchmark reads it)', async () => {
    const admin = await signInAs(t.app, 'admin');
    const res = await admin.request({ method: 'GET', url: '/api/dashboard/summary' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['server-timing']).toMatch(/^app;dur=\d+\.\d{2}$/);
  });

  it('gives the admin every number, equal to independent counts of the seeded data', async () => {
    const admin = await signInAs(t.app, 'admin');
    const s = await summary(admin);
    expect(s.today).toBe(TEST_TODAY);
    expect(s.stats).toEqual({
      patients: await scalar('select count(*) as n from patients'),
      todaysAppointments: await scalar('select count(*) as n from appointments where date = $1', [TEST_TODAY]),
      pendingAuthorizations: await scalar("select count(*) as n from authorizations where status = 'Pending'"),
      // Payments received in the last 30 days, as the KPIs page counts Revenue Collected.
      revenueCollectedCents: await scalar(
        'select sum(amount_cents) as n from payments where received_on between $1::date - 29 and $1::date',
        [TEST_TODAY],
      ),
      revenuePeriodDays: 30,
    });
    expect(s.stats.patients).toBeGreaterThan(0);
    // TEST_TODAY is a Sunday, when the practice is closed: no visits (Monday's are counted below).
    expect(s.stats.todaysAppointments).toBe(0);
    expect(s.stats.pendingAuthorizations).toBeGreaterThan(0);
    expect(s.stats.revenueCollectedCents).toBeGreaterThan(0);

    expect(asMap(s.statusCounts.appointmentsToday)).toEqual(
      await statusCounts('select status, count(*) from appointments where date = $1 group by status', [TEST_TODAY]),
    );
    expect(asMap(s.statusCounts.claims)).toEqual(
      await statusCounts('select status, count(*) from claims group by status'),
    );
    expect(asMap(s.statusCounts.authorizations)).toEqual(
      await statusCounts('select status, count(*) from authorizations group by status'),
    );
  });

  it('lists the oldest pending authorizations over 7 days and the newest denials as critical alerts', async () => {
    const admin = await signInAs(t.app, 'admin');
    const s = await summary(admin);
    const aged = await rows<{ id: number; age: number }>(
      `select id, ($1::date - requested_on) as age from authorizations
       where status = 'Pending' and ($1::date - requested_on) > 7 order by requested_on, id limit 3`,
      [TEST_TODAY],
    );
    expect(aged).toHaveLength(3);
    expect(s.alerts.agedAuthorizations?.map((a) => [a.id, a.ageDays])).toEqual(aged.map((a) => [a.id, a.age]));
    const denied = await rows<{ id: number }>(
      `select id from claims where status = 'Denied'
       order by adjudicated_on desc nulls last, service_date desc, id desc limit 2`,
    );
    expect(denied).toHaveLength(2);
    expect(s.alerts.deniedClaims?.map((c) => c.id)).toEqual(denied.map((d) => d.id));
  });

  it('shows a role with the audit log the newest entries of everyone', async () => {
    const admin = await signInAs(t.app, 'admin');
    const s = await summary(admin);
    const newest = await rows<{ id: string }>('select id from audit_log order by occurred_at desc, id desc limit 5');
    expect(s.recentActivity.map((e) => e.id)).toEqual(newest.map((r) => Number(r.id)));
  });

  it("shows the doctor only the doctor's own recent activity", async () => {
    const doctor = await signInAs(t.app, 'doctor');
    // Something of someone else's happens after the doctor's last entry: it must not show.
    await (await signInAs(t.app, 'nurse_manager')).request({ method: 'GET', url: '/api/patients/1' });
    const s = await summary(doctor);
    const doctorId = await scalar('select id as n from users where email = $1', [demoAccount('doctor').email]);
    const own = await rows<{ id: string }>(
      'select id from audit_log where actor_user_id = $1 order by occurred_at desc, id desc limit 5',
      [doctorId],
    );
    expect(s.recentActivity).toHaveLength(5);
    expect(s.recentActivity.map((e) => e.id)).toEqual(own.map((r) => Number(r.id)));
    expect(s.recentActivity.every((e) => e.actor === demoAccount('doctor').email)).toBe(true);
  });

  it('agrees with the KPIs page on Revenue Collected for the same 30 days', async () => {
    const billing = await signInAs(t.app, 'billing_admin');
    const kpis = await billing.request({ method: 'GET', url: '/api/claims/analytics/kpis?periodDays=30' });
    expect(kpis.statusCode).toBe(200);
    expect((await summary(billing)).stats.revenueCollectedCents).toBe(
      kpis.json<{ totalPaidCents: number }>().totalPaidCents,
    );
  });

  it('gives the nurse manager the four stat cards but not the claims lists', async () => {
    const nurse = await signInAs(t.app, 'nurse_manager');
    const s = await summary(nurse);
    expect(s.stats.revenueCollectedCents).toBeGreaterThan(0);
    expect(s.alerts.deniedClaims).toBeNull();
    expect(s.statusCounts.claims).toBeNull();
    expect(s.stats.patients).toBeGreaterThan(0);
    expect(s.stats.todaysAppointments).toBe(0); // a Sunday: the practice is closed
    expect(s.stats.pendingAuthorizations).toBeGreaterThan(0);
    expect(s.alerts.agedAuthorizations).not.toBeNull();
    expect(s.recentActivity.every((e) => e.actor === demoAccount('nurse_manager').email)).toBe(true);
  });

  it('gives the billing admin the four stat cards but not the appointment and authorization lists', async () => {
    const billing = await signInAs(t.app, 'billing_admin');
    const admin = await summary(await signInAs(t.app, 'admin'));
    const s = await summary(billing);
    // Clinic-wide totals, no one's PHI: the same four numbers as the admin's.
    expect(s.stats).toEqual(admin.stats);
    expect(s.alerts.agedAuthorizations).toBeNull();
    expect(s.alerts.deniedClaims).toHaveLength(2);
    expect(s.statusCounts).toMatchObject({ appointmentsToday: null, authorizations: null });
    expect(s.statusCounts.claims).not.toBeNull();
    // billing_admin reads the audit log, so recent activity is not limited to its own entries.
    expect(s.recentActivity).toHaveLength(5);
  });

  it('counts today by the server clock', async () => {
    t.clock.advance(24 * 3600 * 1000);
    try {
      const s = await summary(await signInAs(t.app, 'admin'));
      expect(s.today).toBe('2026-11-23');
      expect(s.stats.todaysAppointments).toBe(
        await scalar("select count(*) as n from appointments where date = '2026-11-23'"),
      );
      expect(s.stats.todaysAppointments).toBeGreaterThan(0);
      expect(asMap(s.statusCounts.appointmentsToday)).toEqual(
        await statusCounts("select status, count(*) from appointments where date = '2026-11-23' group by status"),
      );
    } finally {
      t.clock.advance(-24 * 3600 * 1000);
    }
  });

  it('refuses guest and patient with 403, and answers 401 without a session', async () => {
    for (const role of ['guest', 'patient'] as const) {
      const who = await signInAs(t.app, role);
      expect((await who.request({ method: 'GET', url: '/api/dashboard/summary' })).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/dashboard/summary' })).statusCode).toBe(401);
  });
});
