import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseX12, transactionSetsOf } from '@/features/x12/x12.parse';
import { DEFAULT_PRACTICE_HOURS } from '@/features/settings/practice.schema';
import type { NextDayEligibility } from '@/features/coverage/coverage.eligibility.schema';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { UncoveredAppointments } from '../appointments.schema';
import { nextWorkingDay } from './appointments.eligibility.queries';

// TEST_TODAY (2026-11-22) is a Sunday.
const FRIDAY = '2026-11-20';
const MONDAY = '2026-11-23';
/** Beyond the seeded appointments: a day the tests book on their own. */
const FAR_THURSDAY = '2027-03-04';
const FAR_FRIDAY = '2027-03-05';

let t: TestApp;
let frontDesk: SignedIn;

async function sql<T extends object>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await t.database.pool.query<T>(text, params)).rows;
}

const run = () => frontDesk.request({ method: 'POST', url: '/api/appointments/eligibility/next-day' });
/** Moves the clock to the evening of `day` and signs in again (a session does not outlive a jump in time). */
async function at(day: string) {
  t.clock.set(new Date(`${day}T23:30:00Z`));
  frontDesk = await signInAs(t.app, 'nurse_manager');
}

/** The policies a batch for `day` should ask about: in force, a payer with a payer id, of a booked visit. */
async function expectedCoverages(day: string): Promise<number[]> {
  const rows = await sql<{ id: number }>(
    `select distinct v.id from appointments a join coverages v on v.patient_id = a.patient_id
       join payers py on py.name = v.payer
     where a.date = $1::date and a.status not in ('Cancelled', 'Rescheduled', 'No-Show')
       and v.effective_on <= $1::date and (v.end_on is null or v.end_on >= $1::date)
       and py.payer_id is not null and py.claim_filing_indicator <> '09'
       and not exists (select 1 from eligibility_checks k where k.coverage_id = v.id and k.service_date = $1::date)
     order by v.id`,
    [day],
  );
  return rows.map((r) => r.id);
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('nextWorkingDay', () => {
  it('skips the weekend and the days the practice is closed', () => {
    expect(nextWorkingDay(DEFAULT_PRACTICE_HOURS, FRIDAY)).toBe(MONDAY);
    expect(nextWorkingDay(DEFAULT_PRACTICE_HOURS, '2026-11-22')).toBe(MONDAY);
    expect(nextWorkingDay({ ...DEFAULT_PRACTICE_HOURS, workingDays: ['Mon', 'Wed', 'Thu', 'Fri'] }, MONDAY)).toBe(
      '2026-11-25',
    );
    expect(nextWorkingDay({ ...DEFAULT_PRACTICE_HOURS, workingDays: ['Sat'] }, MONDAY)).toBe('2026-11-28');
    expect(nextWorkingDay({ ...DEFAULT_PRACTICE_HOURS, workingDays: [] }, MONDAY)).toBeNull();
  });
});

describe('the evening batch', () => {
  it('on a Friday evening asks about Monday’s visits: subscribers and dependents, not cancelled ones', async () => {
    // One patient's only Monday visit is cancelled: their policies are not asked about.
    const [cancelled] = await sql<{ patient_id: number }>(
      `update appointments set status = 'Cancelled' where id = (
         select a.id from appointments a where a.date = $1::date and a.status = 'Scheduled'
           and (select count(*) from appointments b where b.patient_id = a.patient_id and b.date = a.date) = 1
           and exists (select 1 from coverages v where v.patient_id = a.patient_id)
         order by a.id limit 1)
       returning patient_id`,
      [MONDAY],
    );
    expect(cancelled).toBeDefined();
    const expected = await expectedCoverages(MONDAY);
    expect(expected.length).toBeGreaterThan(1);
    const [booked] = await sql<{ n: number }>(
      `select count(*)::int as n from appointments where date = $1::date
         and status not in ('Cancelled', 'Rescheduled', 'No-Show')`,
      [MONDAY],
    );
    await at(FRIDAY);
    const res = await run();
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<NextDayEligibility>();
    expect(result).toMatchObject({ serviceDate: MONDAY, appointments: booked!.n, coverages: expected.length });
    const checks = await sql<{ coverage_id: number; patient_id: number; relationship: string }>(
      `select k.coverage_id, v.patient_id, v.relationship from eligibility_checks k
         join coverages v on v.id = k.coverage_id where k.inquiry_id = $1 order by k.coverage_id`,
      [result.inquiryId],
    );
    expect(checks.map((c) => c.coverage_id)).toEqual(expected);
    expect(checks.map((c) => c.patient_id)).not.toContain(cancelled!.patient_id);
    const [inquiry] = await sql<{ text: string; reason: string; created_by: number | null }>(
      `select text, reason, created_by from eligibility_inquiries where id = $1`,
      [result.inquiryId],
    );
    expect(inquiry).toMatchObject({ reason: 'evening', created_by: null });
    const segments = transactionSetsOf(parseX12(inquiry!.text), '270').flatMap((s) =>
      s.set.segments.map((g) => [g.id, ...g.elements].join('*')),
    );
    const dependents = checks.filter((c) => c.relationship !== 'self').length;
    expect(dependents).toBeGreaterThan(0);
    expect(segments.filter((s) => s.startsWith('NM1*03*'))).toHaveLength(dependents);
    expect(segments.filter((s) => s.startsWith('NM1*IL*'))).toHaveLength(checks.length);
    expect(segments.filter((s) => s === 'DTP*291*D8*20261123')).toHaveLength(checks.length);

    // Run again: everything is asked about already.
    const again = await run();
    expect(again.json<NextDayEligibility>()).toMatchObject({ inquiryId: null, coverages: 0, serviceDate: MONDAY });
  });

  it('lists the next working day’s visits not known to be covered for the front desk', async () => {
    await at('2026-11-22');
    const res = await frontDesk.request({ method: 'GET', url: '/api/appointments/eligibility/next-day' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<UncoveredAppointments>();
    expect(body.date).toBe(MONDAY);
    // Just asked, not answered: every visit with a primary policy awaits its answer; the others have none.
    expect(body.appointments.length).toBeGreaterThan(0);
    expect(new Set(body.appointments.map((a) => a.eligibility.state))).toEqual(
      new Set(body.appointments.map((a) => (a.payer === null ? 'unknown' : 'awaiting'))),
    );
    const page = await frontDesk.request({ method: 'GET', url: `/api/appointments?date=${MONDAY}&limit=5` });
    const items = page.json<{ items: { eligibility?: { state: string } }[] }>().items;
    expect(items.every((i) => i.eligibility !== undefined)).toBe(true);
  });

  it('asks about 1,000 visits in one 270 in under two seconds', async () => {
    // 1,000 visits on a free Friday: each provider's day filled minute by minute, patients taken in turn.
    await sql(
      `insert into appointments (patient_id, provider_id, reason, date, time, status)
       select p.id, v.id, 'Check-up', $1::date, to_char(time '08:00' + (n / 4) * interval '1 minute', 'HH24:MI'), 'Scheduled'
       from generate_series(0, 999) n
       join lateral (select id from providers order by id offset (n % 4) limit 1) v on true
       join lateral (select id from patients order by id offset (n % (select count(*) from patients)) limit 1) p on true`,
      [FAR_FRIDAY],
    );
    const expected = await expectedCoverages(FAR_FRIDAY);
    await at(FAR_THURSDAY);
    const started = performance.now();
    const res = await run();
    const elapsed = performance.now() - started;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<NextDayEligibility>()).toMatchObject({ appointments: 1000, coverages: expected.length });
    expect(elapsed).toBeLessThan(2000);
  });
});
