import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolesWith } from '@/shared/access';
import { READ_PATIENT_IDS_MAX } from '@/features/audit/server/audit.queries';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { KpiResult, MissedChargeVisits } from '../analytics.schema';

/**
 * Charge Capture Accuracy: a completed visit (appointment with status Completed) is captured when a claim
 * bills that patient for that day; a completed visit without a claim is a missed charge, counted in the KPI
 * and listed on its drill-down.
 */
let t: TestApp;
let staff: SignedIn;

async function rows<T>(query: string, params: unknown[] = []): Promise<T[]> {
  return (await t.database.pool.query<T & Record<string, unknown>>(query, params)).rows;
}

/** The KPI computed here from the raw tables, independently of the server. */
async function expectedRate(start: string, end: string): Promise<number | null> {
  const [row] = await rows<{ completed: number; captured: number }>(
    `select count(*)::int as completed,
       (count(*) filter (where exists (select 1 from claims c where c.patient_id = a.patient_id
                                         and c.service_date = a.date)))::int as captured
     from appointments a where a.status = 'Completed' and a.date between $1 and $2`,
    [start, end],
  );
  if (!row || row.completed === 0) return null;
  return Math.round((1000 * row.captured) / row.completed) / 10;
}

const kpis = async (periodDays: number) =>
  (
    await staff.request({ method: 'GET', url: `/api/claims/analytics/kpis?periodDays=${periodDays}` })
  ).json<KpiResult>();
const missed = (periodDays: number, as: SignedIn = staff) =>
  as.request({ method: 'GET', url: `/api/claims/analytics/kpis/charge-capture/missed?periodDays=${periodDays}` });

beforeAll(async () => {
  t = await createTestApp();
  staff = await signInAs(t.app, 'billing_admin');
});
afterAll(async () => {
  await t.close();
});

describe('Charge Capture Accuracy', () => {
  it('sits near its target on the seeded clinic: nearly every completed visit is billed', async () => {
    const kpi = await kpis(30);
    expect(kpi.chargeCaptureAccuracy).toBe(await expectedRate(kpi.periodStart, kpi.periodEnd));
    expect(kpi.chargeCaptureAccuracy).toBeGreaterThan(90);
    expect(kpi.chargeCaptureAccuracy).toBeLessThan(100);
  });

  it('counts a patient’s completed visits without claims as missed, and lists them on the drill-down', async () => {
    const [period] = await rows<{ start: string; end: string }>(
      `select (date '2026-11-22' - 89)::text as start, date '2026-11-22'::text as end`,
    );
    // A patient with no claims and six completed visits in the last 90 days.
    const [patient] = await rows<{ id: number }>(
      `insert into patients (name, mrn, dob, phone) values ('Unbilled Visits Test', 'MRN-UNBILLED-1', '1970-01-01', '555-0100')
       returning id`,
    );
    const [provider] = await rows<{ id: number; name: string }>('select id, name from providers order by id limit 1');
    const dates = [3, 10, 17, 24, 31, 45].map((days) => `date '2026-11-22' - ${days}`);
    for (const [i, date] of dates.entries()) {
      await rows(
        `insert into appointments (patient_id, provider_id, reason, date, time, status)
         values ($1, $2, 'Follow-up', ${date}, $3, 'Completed')`,
        [patient!.id, provider!.id, `05:${String(10 + i).padStart(2, '0')}`],
      );
    }

    const kpi = await kpis(90);
    expect(kpi.chargeCaptureAccuracy).toBe(await expectedRate(period!.start, period!.end));

    const res = await missed(90);
    expect(res.statusCode).toBe(200);
    const drill = res.json<MissedChargeVisits>();
    expect(drill).toMatchObject({ periodDays: 90, periodStart: period!.start, periodEnd: period!.end });
    const theirs = drill.visits.filter((v) => v.patientId === patient!.id);
    expect(theirs).toHaveLength(6);
    expect(theirs.every((v) => v.patientName === 'Unbilled Visits Test' && v.provider === provider!.name)).toBe(true);
    // Every visit listed is a completed visit no claim bills; newest first.
    const [{ n: unbilled } = { n: 0 }] = await rows<{ n: number }>(
      `select count(*)::int as n from appointments a where a.status = 'Completed' and a.date between $1 and $2
         and not exists (select 1 from claims c where c.patient_id = a.patient_id and c.service_date = a.date)`,
      [period!.start, period!.end],
    );
    expect(drill.visits).toHaveLength(Math.min(unbilled, 200));
    const order = drill.visits.map((v) => `${v.date} ${v.time}`);
    expect(order).toEqual([...order].sort().reverse());

    // A claim for one of the visits makes it captured: it leaves the drill-down.
    const billedVisit = theirs[0]!;
    await rows(
      `insert into claims (patient_id, provider_id, account_number, procedure_code, payer, service_date, billed_cents, status)
       values ($1, $2, 'ACC-UNBILLED-1', '99213', 'Aetna', $3, 14900, 'Draft')`,
      [patient!.id, provider!.id, billedVisit.date],
    );
    const after = (await missed(90)).json<MissedChargeVisits>();
    expect(after.visits.filter((v) => v.patientId === patient!.id)).toHaveLength(5);

    const [entry] = await rows<{ action: string; actor_role: string; detail: string }>(
      'select action, actor_role, detail from audit_log order by id desc limit 1',
    );
    expect(entry).toMatchObject({ action: 'analytics.missed_charges.view', actor_role: 'billing_admin' });
    // The read names its patients (or their count), like every PHI list page.
    expect(entry!.detail).toMatch(/^\/api\/claims\/analytics\/kpis\/charge-capture\/missed\?periodDays=90: /);
    const shownPatients = new Set(after.visits.map((v) => v.patientId));
    if (shownPatients.size <= READ_PATIENT_IDS_MAX) {
      const ids = /patients \[([\d,]*)\]/.exec(entry!.detail)?.[1]?.split(',').map(Number) ?? [];
      expect(ids).toContain(patient!.id);
    }
  });

  it('answers the drill-down only to the roles that open the KPIs screen', async () => {
    for (const role of ['nurse_manager', 'doctor', 'billing_admin', 'admin', 'patient', 'guest'] as const) {
      const res = await missed(30, await signInAs(t.app, role));
      expect(res.statusCode, role).toBe(rolesWith('analytics:drilldown').includes(role) ? 200 : 403);
    }
    expect(rolesWith('analytics:drilldown')).toContain('billing_admin');
  });
});
