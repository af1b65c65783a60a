import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TODAY } from '@/testing/test-clock';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';
import { verifyChain } from '@/features/audit/server/audit.queries';
import { rebuildRollups } from '@/features/analytics/server/analytics.queries';
import { isValidMbi } from '@/shared/billing-identifiers';
import { seedScale } from './scale-seed';

const CLAIMS = 5000;
// The scale seed runs as the tables' owner (npm run seed), which may turn the rollup triggers off while it loads.
let first: TestDatabase;
let second: TestDatabase;
beforeAll(async () => {
  [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
});
afterAll(async () => {
  await Promise.all([first.drop(), second.drop()]);
});

async function one<T extends object>(db: TestDatabase, text: string): Promise<T> {
  const { rows } = await db.pool.query<T>(text);
  if (!rows[0]) throw new Error(`no row: ${text}`);
  return rows[0];
}

const INDEXES = `select string_agg(indexname || ': ' || indexdef, E'\\n' order by indexname) as value
  from pg_indexes where schemaname = 'public'`;
const CONSTRAINTS = `select string_agg(conname || ': ' || pg_get_constraintdef(oid), E'\\n' order by conname) as value
  from pg_constraint where connamespace = 'public'::regnamespace`;
/** Every generated claim's facts, in account order, as one hash. */
const FINGERPRINT = `select count(*)::int as n, md5(string_agg(concat_ws('|', account_number, patient_id, provider_id,
  procedure_code, payer, service_date, submitted_on, adjudicated_on, resolved_on, billed_cents, paid_cents,
  contractual_adjustment_cents, patient_responsibility_cents, status, reason_code, denied_on_first_adjudication),
  ',' order by account_number)) as hash from claims where account_number like 'ACC-%-S%'`;

/** Every rollup row with a number other than 0, as one text (rows of zeros count for nothing). */
const ROLLUPS = `select string_agg(t || ' ' || r::text, E'\\n' order by t, r::text) as value from (${[
  'analytics_daily',
  'analytics_ar_daily',
  'analytics_ar_provider',
  'analytics_denials_daily',
  'analytics_encounters_daily',
  'analytics_visits_daily',
  'claims_status_rollup',
  'claims_daily_rollup',
  'billing_payer_daily',
  'patients_count_rollup',
  'authorizations_status_rollup',
]
  .map((table) => `select '${table}' as t, to_jsonb(x) as r from ${table} x`)
  .join(' union all ')}) rows
  where exists (select 1 from jsonb_each(r) e where jsonb_typeof(e.value) = 'number' and e.value <> '0'::jsonb)`;

/** Every patient's stored next visit, as one text, and how many generated patients have one. */
const NEXT_VISITS = `select string_agg(id || '=' || coalesce(next_visit::text, '-'), ',' order by id) as value,
  count(next_visit) filter (where mrn like 'MRN-S%')::int as booked from patients`;

describe('seedScale', () => {
  it('adds the claims and their proportions with consistent facts, and puts every index and key back', async () => {
    const indexesBefore = await one<{ value: string }>(first, INDEXES);
    const constraintsBefore = await one<{ value: string }>(first, CONSTRAINTS);
    const before = await one<{ claims: number; patients: number }>(
      first,
      `select (select count(*)::int from claims) as claims, (select count(*)::int from patients) as patients`,
    );

    const summary = await seedScale(first.ownerDb, { claims: CLAIMS, today: TEST_TODAY });
    expect(summary).toMatchObject({
      claims: CLAIMS,
      patients: CLAIMS / 10,
      encounters: CLAIMS / 10,
      authorizations: CLAIMS / 20,
    });
    // About 3 appointments per 10 claims, as far as the providers' slots allow.
    expect(summary.appointments).toBeGreaterThan(CLAIMS * 0.2);
    expect(summary.appointments).toBeLessThan(CLAIMS * 0.33);
    // The writes' audit entries are on the trail, chained on from the demo clinic's, and the chain verifies.
    const audit = await one<{ imports: number; payments: number; patientPayments: number }>(
      first,
      `select (select count(*)::int from audit_log where action = 'claims.import') as imports,
        (select count(*)::int from audit_log where action = 'payment.guest' and detail like '%receipt GP-S%') as payments,
        (select count(*)::int from payments where reference like 'GP-S%') as "patientPayments"`,
    );
    expect(audit.imports).toBeGreaterThan(0);
    expect(audit.payments).toBe(audit.patientPayments);
    expect(summary.auditEntries).toBe(audit.imports + audit.payments);
    expect(await verifyChain(first.db)).toMatchObject({ ok: true, firstBreak: null });

    const after = await one<{ claims: number; patients: number }>(
      first,
      `select (select count(*)::int from claims) as claims, (select count(*)::int from patients) as patients`,
    );
    expect(after).toEqual({ claims: before.claims + CLAIMS, patients: before.patients + CLAIMS / 10 });
    expect(await one(first, INDEXES)).toEqual(indexesBefore);
    expect(await one(first, CONSTRAINTS)).toEqual(constraintsBefore);

    const problems = await one<Record<string, number>>(
      first,
      `select
        count(*) filter (where paid_cents + contractual_adjustment_cents + patient_responsibility_cents > billed_cents)::int as overpaid,
        count(*) filter (where service_date > date '${TEST_TODAY}' or extract(isodow from service_date) > 5)::int as bad_service_date,
        count(*) filter (where submitted_on < service_date or adjudicated_on < submitted_on or resolved_on < service_date)::int as dates_out_of_order,
        count(*) filter (where status = 'Draft' and submitted_on is not null)::int as submitted_drafts,
        count(*) filter (where denied_on_first_adjudication and (reason_code is null or reason_code in ('CO-45', 'PR-1', 'PR-2', 'PR-3')))::int as denial_without_reason,
        count(*) filter (where not denied_on_first_adjudication and status in ('Denied', 'Appealed', 'Written Off'))::int as denied_status_without_denial,
        count(*) filter (where status in ('Paid', 'Closed') and paid_cents = 0 and payer <> 'Self-Pay')::int as paid_without_payment,
        count(*) filter (where (status = 'Closed') <> (status in ('Paid', 'Closed') and resolved_on is not null))::int as closed_unlike_resolved
      from claims where account_number like 'ACC-%-S%'`,
    );
    expect(problems).toEqual({
      overpaid: 0,
      bad_service_date: 0,
      dates_out_of_order: 0,
      submitted_drafts: 0,
      denial_without_reason: 0,
      denied_status_without_denial: 0,
      paid_without_payment: 0,
      closed_unlike_resolved: 0,
    });
    const mix = await one<{ denied: number; statuses: number; payers: number }>(
      first,
      `select (100.0 * count(*) filter (where denied_on_first_adjudication) / count(*))::float8 as denied,
        count(distinct status)::int as statuses, count(distinct payer)::int as payers
      from claims where account_number like 'ACC-%-S%'`,
    );
    // The payer mix's first-pass denial rates average about 7%.
    expect(mix.denied).toBeGreaterThan(4);
    expect(mix.denied).toBeLessThan(11);
    expect(mix.statuses).toBe(9);
    expect(mix.payers).toBe(10);
    // Payments match what the claims say was paid.
    const money = await one<{ claimed: string; remitted: string }>(
      first,
      `select (select sum(paid_cents) from claims where account_number like 'ACC-%-S%')::text as claimed,
        (select sum(amount_cents) from payments where reference like 'ERA-S%')::text as remitted`,
    );
    expect(money.remitted).toBe(money.claimed);
    // Claims arrive in date order: ids follow the service date.
    const order = await one<{ out_of_order: number }>(
      first,
      `select count(*)::int as out_of_order from (select service_date < lag(service_date) over (order by id) as back
        from claims where account_number like 'ACC-%-S%') x where back`,
    );
    expect(order.out_of_order).toBe(0);

    // Insured patients' claims are billed to their own coverage with that payer, in force on the service
    // date; self-pay claims name none. Patients have a sex and an address; member ids are in their payer's
    // shape (Medicare's an MBI), dependents name their subscriber, and some Medicare patients have a second plan.
    const billing = await one<Record<string, number>>(
      first,
      `select
        count(*) filter (where c.payer <> 'Self-Pay' and c.coverage_id is null)::int as insured_without_coverage,
        count(*) filter (where c.payer = 'Self-Pay' and c.coverage_id is not null)::int as self_pay_with_coverage,
        count(*) filter (where v.id is not null and (v.patient_id <> c.patient_id or v.payer <> c.payer
          or v.priority <> 1 or v.effective_on > c.service_date or v.end_on < c.service_date))::int as wrong_coverage
      from claims c left join coverages v on v.id = c.coverage_id where c.account_number like 'ACC-%-S%'`,
    );
    expect(billing).toEqual({ insured_without_coverage: 0, self_pay_with_coverage: 0, wrong_coverage: 0 });
    // Lines coded as the demo's are (claim-coding.ts): a rapid strep test billed to Medicare carries QW, to
    // anyone else no modifier; nothing else is modified, and the claim total is its lines'.
    const coding = await one<Record<string, number>>(
      first,
      `select
        count(*) filter (where l.procedure_code = '87880' and c.payer = 'Medicare' and l.modifiers = '{QW}')::int
          as waived_marked,
        count(*) filter (where l.modifiers <> '{}' and not (l.procedure_code = '87880' and c.payer = 'Medicare'
          and l.modifiers = '{QW}'))::int as wrongly_marked,
        (select count(*) from claims x where x.account_number like 'ACC-%-S%' and x.billed_cents <>
          (select sum(y.charge_cents) from claim_lines y where y.claim_id = x.id))::int as totals_off
      from claim_lines l join claims c on c.id = l.claim_id where c.account_number like 'ACC-%-S%'`,
    );
    expect(coding.waived_marked).toBeGreaterThan(0);
    expect({ ...coding, waived_marked: 0 }).toEqual({ waived_marked: 0, wrongly_marked: 0, totals_off: 0 });
    const people = await one<Record<string, number>>(
      first,
      `select count(*) filter (where sex not in ('F', 'M'))::int as no_sex,
        count(*) filter (where address_line1 is null or zip !~ '^[0-9]{5}$' or state <> 'IL')::int as no_address,
        count(*) filter (where extract(year from age(date '${TEST_TODAY}', dob)) < 65
          and exists (select 1 from coverages v where v.patient_id = p.id and v.payer = 'Medicare'))::int as young_medicare
      from patients p where mrn like 'MRN-S%'`,
    );
    expect(people).toEqual({ no_sex: 0, no_address: 0, young_medicare: 0 });
    const { rows: policies } = await first.pool.query<{
      payer: string;
      priority: number;
      member_id: string;
      group_number: string | null;
      relationship: string;
      subscriber_name: string | null;
    }>(
      `select v.payer, v.priority, v.member_id, v.group_number, v.relationship, v.subscriber_name
      from coverages v join patients p on p.id = v.patient_id where p.mrn like 'MRN-S%'`,
    );
    const shapes: Record<string, RegExp> = {
      'Blue Cross Blue Shield': /^(XOF|XOD|YRB)\d{9}$/,
      Aetna: /^W\d{9}$/,
      Cigna: /^U\d{8}$/,
      Humana: /^H\d{8}$/,
      Tricare: /^\d{11}$/,
    };
    const misshapen = policies.filter((v) =>
      v.payer === 'Medicare' ? !isValidMbi(v.member_id) : !(shapes[v.payer] ?? /^\d{9}$/).test(v.member_id),
    );
    expect(misshapen).toEqual([]);
    expect(policies.filter((v) => v.relationship !== 'self' && !v.subscriber_name)).toEqual([]);
    expect(policies.some((v) => v.relationship === 'child')).toBe(true);
    expect(policies.filter((v) => v.priority === 2).length).toBeGreaterThan(0);
    expect(new Set(policies.filter((v) => v.priority === 1).map((v) => v.payer)).size).toBe(9);

    // The rollups the load's triggers kept are exactly what a rebuild from the raw tables gives.
    const rollups = await one<{ value: string }>(first, ROLLUPS);
    for (const table of [
      'analytics_daily',
      'analytics_encounters_daily',
      'analytics_visits_daily',
      'billing_payer_daily',
      'patients_count_rollup',
    ])
      expect(rollups.value).toContain(`${table} {`);
    await rebuildRollups(first.db);
    expect(await one(first, ROLLUPS)).toEqual(rollups);

    // The seed writes each patient's next visit itself (the next-visit trigger is off during its load): it is
    // what the trigger's own function computes from the appointments.
    const nextVisits = await one<{ value: string; booked: number }>(first, NEXT_VISITS);
    expect(nextVisits.booked).toBeGreaterThan(CLAIMS / 100);
    await first.pool.query('select patients_next_visit_refresh(array(select id from patients))');
    expect(await one(first, NEXT_VISITS)).toEqual(nextVisits);
  });

  it('gives the same rows for the same count and day', async () => {
    await seedScale(second.ownerDb, { claims: CLAIMS, today: TEST_TODAY });
    const a = await one<{ n: number; hash: string }>(first, FINGERPRINT);
    const b = await one<{ n: number; hash: string }>(second, FINGERPRINT);
    expect(a.n).toBe(CLAIMS);
    expect(b).toEqual(a);
  });

  it("fills the worklist's open follow-ups (loaded with their triggers off) as the triggers would, and turns the triggers back on", async () => {
    const columns = 'encounter_id, patient_id, provider_id, encounter_date, follow_up_due, risk_class, superseded_from';
    const { rows: stored } = await first.pool.query(`select ${columns} from open_follow_ups order by encounter_id`);
    const { rows: defined } = await first.pool.query(
      `select ${columns} from open_follow_ups_definition order by encounter_id`,
    );
    expect(stored.length).toBeGreaterThan(50);
    expect(stored).toEqual(defined);
    const { rows: off } = await first.pool.query(
      `select tgname from pg_trigger where tgname like '%open_follow_ups%' and tgenabled = 'D'`,
    );
    expect(off).toEqual([]);
  });
});
