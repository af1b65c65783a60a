/**
 * Rollups (docs/kpis.md): every analytics answer served from the rollups equals the raw reference, on the demo
 * data and after every kind of write the app (or anyone with SQL) makes: new claims, status and money
 * changes, a change of provider, payments added, moved and removed, appeals, a CSV import, deletes (a
 * claim, a patient with everything of theirs), visits completed, moved, re-assigned, billed and unbilled
 * (Charge Capture), a TRUNCATE, a reset and a re-seed. A property test then applies random sequences of writes.
 * Each check compares the maintained rollup tables with a rebuild (made in a transaction that is rolled back),
 * then the answers with their raw references. The rollups are never rebuilt between writes: the triggers alone
 * keep them exact.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodEndingToday } from '@/shared/period';
import { countAuthorizationsByStatus } from '@/features/authorizations/server/authorizations.queries';
import { getPayerPerformance, getPayerPerformanceRaw, payAsGuest } from '@/features/billing/server/billing.queries';
import { countPatients } from '@/features/patients/server/patients.queries';
import {
  appealClaim,
  claimsOverview,
  claimsOverviewRaw,
  importClaims,
  voidClaim,
} from '@/features/claims/server/claims.queries';
import { CLAIM_FILTER_FIELDS } from '@/features/claims/server/claims.filter.queries';
import { claimOpenBalanceSql } from '@/features/claims/server/claims.formulas';
import { summariseClaims, summariseClaimsRaw } from '@/features/claims/server/claims.summary.queries';
import { reseedDemoClinic, resetSystem } from '@/features/system/server/system.queries';
import type { RequestContext } from '@/server/context';
import { CLAIM_STATUSES, claimFilterSchema, type ClaimFilter } from '@/features/claims/claims.schema';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';
import type { DbOrTx } from '@/server/db/types';
import { eraFile, eraHeader } from '@/testing/era-files';
import { importRemittances } from '@/features/remittances/server/remittances.queries';
import { TEST_TODAY } from '@/testing/test-clock';
import {
  computeArAging,
  computeArAgingRaw,
  computeDenialsByReason,
  computeDenialsByReasonRaw,
  computeKpis,
  computeKpisRaw,
  computeProviderAnalytics,
  computeProviderAnalyticsRaw,
  rebuildRollups,
  visitsByDay,
  visitsByDayRaw,
} from './analytics.queries';

const NOW = new Date(`${TEST_TODAY}T15:00:00Z`);
/** Other days too: the rollups hold no "today", so they must agree on any day's answer. */
const DAYS = [NOW, new Date('2026-09-30T12:00:00Z'), new Date('2027-02-14T12:00:00Z')];
/**
 * The Claims overview's filters: none, every declared filter field alone with each of its samples (so a
 * field whose rollup condition is missing or wrong fails here), and two fields together.
 */
const FILTERS: ClaimFilter[] = [
  claimFilterSchema.parse({}),
  ...Object.entries(CLAIM_FILTER_FIELDS).flatMap(([field, declared]) =>
    declared.samples.map((value: string) => claimFilterSchema.parse({ [field]: value })),
  ),
  { search: '', reason: 'pr-2', payer: 'Medicare' },
];

let database: TestDatabase;
let ctx: RequestContext;

beforeAll(async () => {
  database = await createTestDatabase();
  const admin = await database.db.execute<{ id: number; email: string; name: string }>(
    sql`select id, email, name from users where role = 'admin' order by id limit 1`,
  );
  const user = admin.rows[0];
  if (!user) throw new Error('no admin account in the test database');
  ctx = { user: { ...user, role: 'admin', patientId: null }, now: NOW };
});
afterAll(async () => {
  await database.drop();
});

/**
 * Every endpoint's rollup answer against its raw reference, for every period and filter, on `todays` (today by
 * default; every one of DAYS where a test's writes end), after the maintained rollup tables were found equal to
 * a rebuild. That row-for-row check covers every day at once, so a wrong trigger fails it whatever day its
 * error lands on; the answers on other days read the same rows through the same queries, and are compared at
 * the end of each run of writes rather than after each step (each day's answers take about as long as the
 * rebuild and its comparison).
 */
async function expectRollupsEqualRaw(label: string, todays: readonly Date[] = [NOW]) {
  const db = database.db;
  await expectMaintainedEqualsRebuilt(label);
  for (const now of todays) {
    for (const days of [7, 30, 60, 90]) {
      const period = periodEndingToday(now, days);
      expect(await computeKpis(db, period), `${label}: KPIs ${days}d to ${period.end}`).toEqual(
        await computeKpisRaw(db, period),
      );
      expect(await computeProviderAnalytics(db, period), `${label}: providers ${days}d`).toEqual(
        await computeProviderAnalyticsRaw(db, period),
      );
      expect(await computeDenialsByReason(db, period), `${label}: denials ${days}d`).toEqual(
        await computeDenialsByReasonRaw(db, period),
      );
      const at = { ...ctx, now };
      expect(await getPayerPerformance(db, at, days), `${label}: payer performance ${days}d`).toEqual(
        await getPayerPerformanceRaw(db, at, days),
      );
    }
    expect(await computeArAging(db, now), `${label}: AR aging on ${now.toISOString()}`).toEqual(
      await computeArAgingRaw(db, now),
    );
    for (const filter of FILTERS) {
      const at = { ...ctx, now };
      expect(await claimsOverview(db, at, filter), `${label}: overview ${JSON.stringify(filter)}`).toEqual(
        await claimsOverviewRaw(db, at, filter),
      );
    }
  }
  // Charge capture's counts day by day: the KPI's rounded percentage alone could hide a wrong count.
  expect(await visitsByDay(db), `${label}: completed and billed visits by day`).toEqual(await visitsByDayRaw(db));
  expect(await summariseClaims(db), `${label}: dashboard`).toEqual(await summariseClaimsRaw(db));
  // The dashboard's counts: the rollups against counting the tables.
  const [patients] = (await db.execute<{ n: number }>(sql`select count(*)::int as n from patients`)).rows;
  expect(await countPatients(db), `${label}: patients`).toBe(patients?.n);
  const byStatus = await db.execute<{ status: string; count: number }>(
    sql`select status, count(*)::int as count from authorizations group by status order by status`,
  );
  expect(await countAuthorizationsByStatus(db), `${label}: authorizations`).toEqual(byStatus.rows);
}

/**
 * Charge capture alone: its counts day by day and the KPIs over a few periods. Between the steps of a run of
 * visit writes, where every endpoint and filter after each step would take most of the test's time; the run
 * ends with expectRollupsEqualRaw.
 */
async function expectVisitsEqualRaw(label: string) {
  const db = database.db;
  expect(await visitsByDay(db), `${label}: completed and billed visits by day`).toEqual(await visitsByDayRaw(db));
  for (const days of [7, 30, 90]) {
    const period = periodEndingToday(NOW, days);
    expect(await computeKpis(db, period), `${label}: KPIs ${days}d`).toEqual(await computeKpisRaw(db, period));
  }
}

async function exec(statement: string) {
  await database.db.execute(sql.raw(statement));
}

/** The rollup tables as rows (all-zero rows dropped), to compare the triggers' result with a rebuild. */
async function rollupSnapshot(db: DbOrTx = database.db) {
  const tables = [
    'analytics_daily',
    'analytics_ar_daily',
    'analytics_ar_provider',
    'analytics_denials_daily',
    'claims_status_rollup',
    'claims_daily_rollup',
    'analytics_encounters_daily',
    'analytics_visits_daily',
    'billing_payer_daily',
    'patients_count_rollup',
    'authorizations_status_rollup',
  ];
  const snapshot: Record<string, unknown[]> = {};
  for (const table of tables) {
    const rows = await db.execute(sql.raw(`select * from ${table} t order by t`));
    // Counts and sums are bigint (strings from the driver); a row whose every one is 0 counts for nothing.
    snapshot[table] = rows.rows.filter((row) =>
      Object.values(row).some((value) => typeof value === 'string' && /^-?\d+$/.test(value) && value !== '0'),
    );
  }
  return snapshot;
}

/** Thrown to roll a transaction back with what it saw. */
class RolledBack<T> extends Error {
  constructor(readonly value: T) {
    super('rolled back');
  }
}

/**
 * The rollup tables the triggers keep equal what a rebuild gives, the rebuild made in a transaction that is
 * rolled back: the maintained rows stay as the triggers left them. A few queries, where comparing every
 * endpoint, period and filter with its raw reference is a few hundred.
 */
async function expectMaintainedEqualsRebuilt(label: string) {
  const maintained = await rollupSnapshot();
  let rebuilt: Awaited<ReturnType<typeof rollupSnapshot>> | undefined;
  try {
    await database.db.transaction(async (tx) => {
      await rebuildRollups(tx);
      throw new RolledBack(await rollupSnapshot(tx));
    });
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
    rebuilt = error.value as typeof rebuilt;
  }
  expect(maintained, `${label}: the maintained rollups against a rebuild`).toEqual(rebuilt);
}

describe('analytics rollups equal the raw reference', () => {
  it('on the demo data, for every endpoint, period and filter', async () => {
    const [count] = (await database.db.execute<{ n: number }>(sql`select count(*)::int as n from claims`)).rows;
    expect(count?.n).toBeGreaterThan(1000);
    await expectRollupsEqualRaw('demo data', DAYS);
  });

  it('after new claims, status and money changes, payments, appeals, an import and deletes', async () => {
    // New claims, one statement and one by one.
    await exec(`insert into claims (patient_id, provider_id, account_number, procedure_code, payer, service_date,
        submitted_on, adjudicated_on, billed_cents, paid_cents, contractual_adjustment_cents, patient_responsibility_cents,
        status, reason_code, denial_description, clean_submission, denied_on_first_adjudication)
      select p.id, (select min(id) from providers), 'RT-' || g, '99213', 'Aetna', date '2026-11-20' - g,
        date '2026-11-21' - g, date '2026-11-21', 14900, 0, 0, 0, 'Denied', 'CO-16', 'Missing info ' || (g % 2), g % 3 = 0, true
      from generate_series(1, 12) g, (select min(id) as id from patients) p`);
    await exec(`insert into claims (patient_id, provider_id, account_number, procedure_code, payer, service_date,
        submitted_on, billed_cents, status) select min(id), (select max(id) from providers), 'RT-SUB', '99214', 'Cigna',
        '2026-11-18', '2026-11-19', 21400, 'Submitted' from patients`);
    await expectRollupsEqualRaw('after inserts');

    // Status changes: adjudicated and paid with a patient share, written off, back to pending.
    await exec(`update claims set adjudicated_on = '2026-11-22', status = 'Paid', paid_cents = 9000,
        contractual_adjustment_cents = 3900, patient_responsibility_cents = 2000, reason_code = 'PR-2'
      where account_number = 'RT-SUB'`);
    await exec(`update claims set status = 'Written Off', resolved_on = '2026-11-22' where account_number = 'RT-3'`);
    await exec(
      `update claims set status = 'Pending', denied_on_first_adjudication = false where account_number = 'RT-4'`,
    );
    // A paid claim whose balance is resolved is Closed, and Paid again when reopened (the database keeps the two
    // agreeing for any writer); counted as paid either way. A claim written off stays Written Off.
    const statusOf = async (account: string) =>
      (await database.db.execute<{ status: string }>(sql`select status from claims where account_number = ${account}`))
        .rows[0]?.status;
    await exec(`update claims set resolved_on = '2026-11-23' where account_number = 'RT-SUB'`);
    expect(await statusOf('RT-SUB')).toBe('Closed');
    await exec(`update claims set resolved_on = null where account_number = 'RT-SUB'`);
    expect(await statusOf('RT-SUB')).toBe('Paid');
    await exec(`update claims set status = 'Closed' where account_number = 'RT-SUB'`);
    expect(await statusOf('RT-SUB')).toBe('Paid');
    await exec(`update claims set resolved_on = '2026-11-23' where account_number = 'RT-SUB'`);
    expect(await statusOf('RT-SUB')).toBe('Closed');
    expect(await statusOf('RT-3')).toBe('Written Off');
    await exec(`update claims set provider_id = (select max(id) from providers) where id in
      (select claim_id from payments where claim_id is not null order by id limit 3)`);
    // A change of payer on claims with payer payments: their collections move to the new payer.
    await exec(`update claims set payer = case when payer = 'Cigna' then 'Aetna' else 'Cigna' end where id in
      (select claim_id from payments where claim_id is not null and source = 'payer' order by id desc limit 4)`);
    await expectRollupsEqualRaw('after updates');

    // Encounters, authorizations and patients: inserted, changed and deleted by SQL.
    await exec(`insert into encounters (patient_id, provider_id, encounter_date, encounter_type, chief_complaint,
        charges_captured)
      select (select min(id) from patients), (select min(id) from providers), date '2026-11-22' - g,
        (select encounter_type from encounters limit 1), 'Cough', g % 4 <> 0
      from generate_series(0, 9) g`);
    await exec(`update encounters set charges_captured = not charges_captured, encounter_date = encounter_date - 3
      where id in (select id from encounters order by id desc limit 4)`);
    await exec(`delete from encounters where id in (select id from encounters order by id limit 3)`);
    await exec(`insert into authorizations (patient_id, service, procedure_code, payer, status, requested_on)
      select patient_id, service, procedure_code, payer, 'Pending', date '2026-11-20' from authorizations limit 3`);
    await exec(`update authorizations set status = 'Approved', decided_on = date '2026-11-22'
      where id in (select id from authorizations where status = 'Pending' order by id limit 2)`);
    await exec(`delete from authorizations where id = (select max(id) from authorizations)`);
    await exec(`insert into patients (name, mrn, dob, phone) values
      ('Rollup One', 'MRN-RT-1', '1980-01-01', '(555) 201-0001'), ('Rollup Two', 'MRN-RT-2', '1981-02-02', '(555) 201-0002')`);
    await exec(`delete from patients where mrn = 'MRN-RT-2'`);
    await expectRollupsEqualRaw('after encounters, authorizations and patients');

    // Payments: a guest pays part of a share through the app, then payments are moved and removed by SQL.
    const owed = (
      await database.db.execute<{ account_number: string; dob: string }>(sql`
        select c.account_number, to_char(p.dob, 'YYYY-MM-DD') as dob from claims c join patients p on p.id = c.patient_id
        where c.patient_responsibility_cents > 100 and c.resolved_on is null and c.status = 'Paid'
          and c.patient_responsibility_cents > (select coalesce(sum(amount_cents), 0) from payments
            where claim_id = c.id and source in ('patient', 'guest')) + 100
        order by c.id limit 1`)
    ).rows[0];
    expect(owed).toBeDefined();
    if (owed)
      await payAsGuest(database.db, ctx, { accountNumber: owed.account_number, dob: owed.dob, amountCents: 100 });
    await exec(`insert into payments (patient_id, claim_id, amount_cents, source, received_on)
      select patient_id, id, 2000, 'patient', '2026-11-22' from claims where account_number = 'RT-SUB'`);
    await exec(`insert into payments (patient_id, claim_id, amount_cents, source, received_on)
      select min(id), null, 500, 'patient', '2026-11-20' from patients`);
    await exec(
      `update payments set amount_cents = amount_cents + 1 where id in (select id from payments order by id desc limit 5)`,
    );
    await exec(`update payments set claim_id = (select id from claims where account_number = 'RT-1')
      where id = (select max(id) from payments where source = 'patient' and claim_id is not null)`);
    await exec(
      `delete from payments where id in (select id from payments where source <> 'payer' order by id limit 4)`,
    );
    await expectRollupsEqualRaw('after payments');

    // Appeals through the app.
    const denied = (
      await database.db.execute<{ id: number }>(sql`select id from claims where status = 'Denied' order by id limit 3`)
    ).rows;
    for (const claim of denied) await appealClaim(database.db, ctx, claim.id, { reason: 'Corrected claim', note: '' });
    await expectRollupsEqualRaw('after appeals');

    // Visits (Charge Capture): completed by SQL, one and many at once, moved to another day and patient,
    // billed by a new claim, unbilled by deleting and re-dating claims, and deleted.
    const [visit] = (
      await database.db.execute<{ id: number; patient_id: number; date: string }>(sql`
        select id, patient_id, date::text as date from appointments a where status = 'Completed'
          and date between date '2026-11-22' - 25 and date '2026-11-22'
          and exists (select 1 from claims c where c.patient_id = a.patient_id and c.service_date = a.date)
        order by id limit 1`)
    ).rows;
    expect(visit).toBeDefined();
    if (!visit) throw new Error('no billed visit in the demo data');
    await exec(`update appointments set status = 'Completed' where id in (select id from appointments
      where status <> 'Completed' and date <= date '2026-11-22' order by id limit 5)`);
    await exec(`update appointments set status = 'No-Show' where id = (select max(id) from appointments
      where status = 'Completed' and date >= date '2026-11-22' - 30)`);
    await exec(`insert into appointments (patient_id, provider_id, reason, date, time, status)
      select (select min(id) from patients), (select min(id) from providers), 'Follow-up', date '2026-11-22' - g,
        '05:05', 'Completed' from generate_series(1, 6) g`);
    await expectVisitsEqualRaw('after visits completed and booked');
    // The billed visit: its claims move a day later (unbilled), then back; then it moves to another day and patient.
    await exec(`update claims set service_date = service_date + 1
      where patient_id = ${visit.patient_id} and service_date = '${visit.date}'`);
    await expectVisitsEqualRaw('after re-dating a visit’s claims');
    await exec(`update claims set service_date = service_date - 1
      where patient_id = ${visit.patient_id} and service_date = date '${visit.date}' + 1`);
    await exec(`update appointments set date = date - 2, time = '05:07' where id = ${visit.id}`);
    await exec(`update appointments set patient_id = (select min(id) from patients) where id = ${visit.id}`);
    await expectVisitsEqualRaw('after moving a visit to another day and patient');
    // A claim for a booked visit bills it; a claim moved to another patient unbills one and may bill another.
    await exec(`insert into claims (patient_id, provider_id, account_number, procedure_code, payer, service_date,
        billed_cents, status)
      values ((select min(id) from patients), (select min(id) from providers), 'RT-VISIT', '99213', 'Aetna',
        date '2026-11-22' - 2, 14900, 'Draft')`);
    await exec(`update claims set patient_id = (select max(id) from patients where id in (select patient_id from appointments))
      where id = (select max(id) from claims where service_date >= date '2026-11-22' - 30 and account_number not like 'RT-%')`);
    await expectVisitsEqualRaw('after billing visits');
    await exec(`delete from appointments where id in (select id from appointments where status = 'Completed'
      and date >= date '2026-11-22' - 30 order by id desc limit 3)`);
    await expectRollupsEqualRaw('after deleting visits');

    // A CSV import through the app.
    const refs = (
      await database.db.execute<{ mrn: string; provider: string }>(sql`
        select (select mrn from patients order by id limit 1) as mrn, (select name from providers order by id limit 1) as provider`)
    ).rows[0];
    if (!refs) throw new Error('no patient or provider');
    const csv = [
      'accountNumber,patientMrn,procedureCode,provider,payer,serviceDate,billedAmount,status,reasonCode',
      `IMP-RT-1,${refs.mrn},99213,${refs.provider},Aetna,2026-11-10,149.00,Submitted,`,
      `IMP-RT-2,${refs.mrn},99214,${refs.provider},Medicare,2026-11-12,214.00,Denied,CO-197`,
      `IMP-RT-3,${refs.mrn},80053,${refs.provider},Cigna,2026-11-14,116.00,Draft,`,
    ].join('\n');
    expect(await importClaims(database.db, ctx, csv)).toEqual({ ok: true, imported: 3, warnings: [] });
    await expectRollupsEqualRaw('after an import');

    // Voiding imported claims (a denied one too) takes them out of every rollup and raw answer alike.
    for (const account of ['IMP-RT-1', 'IMP-RT-2']) {
      const [row] = (
        await database.db.execute<{ id: number }>(sql`select id from claims where account_number = ${account}`)
      ).rows;
      await voidClaim(database.db, ctx, row?.id ?? 0, { reason: 'entered by mistake' });
    }
    await expectRollupsEqualRaw('after a void');

    // Deletes: a claim with payments (they are kept, on no claim), then a patient with all their records.
    await exec(`delete from claims where id = (select claim_id from payments where claim_id is not null
      and source = 'patient' order by id limit 1)`);
    await expectRollupsEqualRaw('after deleting a claim with patient payments');
    await exec(`delete from claims where account_number in ('RT-1', 'RT-2', 'IMP-RT-2')`);
    await expectRollupsEqualRaw('after deleting claims');
    // A patient with payments on claims and no sign-in account (a patient account must keep its record).
    await exec(
      `delete from patients where id = (select patient_id from payments where claim_id is not null
         and patient_id not in (select patient_id from users where patient_id is not null) order by id desc limit 1)`,
    );
    await expectRollupsEqualRaw('after deletes', DAYS);
  });

  it('after updates that change no rollup column, some rows that do among many that do not, and the scrub facts', async () => {
    const before = await rollupSnapshot();
    // Columns no rollup reads, on every claim, and the first-scrub fact; clean_submission on claims neither
    // submitted nor adjudicated (the parts that read it skip them): the rollup tables stay as they were.
    await exec(`update claims set place_of_service = place_of_service, diagnoses = diagnoses || '{}'::text[],
        first_scrub_clean = not coalesce(first_scrub_clean, false)`);
    await exec(`update claims set clean_submission = not clean_submission
      where submitted_on is null and adjudicated_on is null`);
    await exec(`update claims set status = status where false`);
    expect(await rollupSnapshot()).toEqual(before);
    await expectRollupsEqualRaw('after updates of no rollup column');

    // One statement over many claims where only some change what the rollups count: the clean-submission fact
    // of submitted claims, a Draft made Ready, a claim voided, a billed amount.
    await exec(`update claims set clean_submission = case when submitted_on is not null and id % 3 = 0
          then not clean_submission else clean_submission end,
        status = case when status = 'Draft' and id % 2 = 0 then 'Ready' else status end,
        voided_at = case when id % 97 = 0 and status = 'Denied' then timestamptz '2026-11-22 10:00Z' else voided_at end,
        billed_cents = case when id % 89 = 0 then billed_cents + 100 else billed_cents end,
        first_scrub_clean = coalesce(first_scrub_clean, id % 2 = 0)`);
    expect(await rollupSnapshot()).not.toEqual(before);
    await expectRollupsEqualRaw('after an update where some claims change rollup columns');

    // The scrub's move between Draft and Ready (the trigger's short path), both ways in one statement, with a
    // voided Draft among them and a submitted one (reopened to be corrected: owed, in open A/R either way).
    await exec(`update claims set voided_at = timestamptz '2026-11-22 10:00Z'
      where id = (select min(id) from claims where status = 'Draft' and voided_at is null)`);
    await exec(`update claims set status = 'Draft', submitted_on = date '2026-11-20'
      where id = (select max(id) from claims where status = 'Submitted' and voided_at is null)`);
    const [unsent] = (
      await database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from claims where status in ('Draft', 'Ready') and voided_at is null`,
      )
    ).rows;
    expect(unsent?.n).toBeGreaterThan(3);
    const beforeSwap = await rollupSnapshot();
    await exec(`update claims set status = case status when 'Draft' then 'Ready' else 'Draft' end
      where status in ('Draft', 'Ready')`);
    expect(await rollupSnapshot()).not.toEqual(beforeSwap);
    await expectRollupsEqualRaw('after claims moved between Draft and Ready', DAYS);
  });

  it('after claims of every status move to every other, status alone (an appeal, an acceptance)', async () => {
    // The trigger moves a claim in the count per status alone when no other rollup can tell its old status
    // from its new one (Denied to Appealed, Submitted to Accepted); any other move takes the whole delta.
    // Each statement moves a thirteenth of the claims, of every status, to one status.
    const [denied] = (
      await database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from claims where status = 'Denied' and voided_at is null and id % 2 = 0`,
      )
    ).rows;
    expect(denied?.n).toBeGreaterThan(0);
    await exec(`update claims set status = 'Appealed' where status = 'Denied' and id % 2 = 0`);
    await expectRollupsEqualRaw('after denied claims were appealed', DAYS);
    for (const [i, status] of CLAIM_STATUSES.entries()) {
      await exec(`update claims set status = '${status}' where id % 13 = ${i} and status <> '${status}'`);
      if (i === 5) await expectRollupsEqualRaw(`after claims moved to ${CLAIM_STATUSES.slice(0, 6).join(', ')}`);
    }
    await expectRollupsEqualRaw('after claims moved to every status', DAYS);
  });

  it('after random sequences of writes (property)', async () => {
    const claimIdsQuery = `(select id from claims order by id offset (%s %% greatest(1, (select count(*) from claims))) limit 1)`;
    const pick = (n: number) => claimIdsQuery.replace('%s', String(n)).replace('%%', '%');
    const write = fc.oneof(
      fc.record({ kind: fc.constant('status' as const), n: fc.nat(5000), status: fc.constantFrom(...CLAIM_STATUSES) }),
      fc.record({ kind: fc.constant('money' as const), n: fc.nat(5000), cents: fc.nat(30000) }),
      fc.record({ kind: fc.constant('dates' as const), n: fc.nat(5000), back: fc.integer({ min: -5, max: 200 }) }),
      fc.record({ kind: fc.constant('resolve' as const), n: fc.nat(5000), open: fc.boolean() }),
      fc.record({ kind: fc.constant('pay' as const), n: fc.nat(5000), cents: fc.integer({ min: 1, max: 20000 }) }),
      fc.record({ kind: fc.constant('unpay' as const), n: fc.nat(5000) }),
      fc.record({ kind: fc.constant('provider' as const), n: fc.nat(5000) }),
      fc.record({ kind: fc.constant('scrubbed' as const), n: fc.nat(5000), clean: fc.boolean() }),
      fc.record({ kind: fc.constant('unsubmit' as const), n: fc.nat(5000) }),
      fc.record({ kind: fc.constant('delete' as const), n: fc.nat(5000) }),
      fc.record({
        kind: fc.constant('payer' as const),
        n: fc.nat(5000),
        payer: fc.constantFrom('Aetna', 'Medicare', 'Self-Pay'),
      }),
      fc.record({
        kind: fc.constant('encounter' as const),
        n: fc.nat(5000),
        back: fc.nat(120),
        captured: fc.boolean(),
      }),
      fc.record({ kind: fc.constant('unencounter' as const), n: fc.nat(5000) }),
      fc.record({
        kind: fc.constant('authorization' as const),
        n: fc.nat(5000),
        status: fc.constantFrom('Pending', 'Approved', 'Denied'),
      }),
      // Charge Capture: visits to and from Completed, moved, re-assigned, booked and deleted; claims billing a
      // visit, moved to a visit's patient, voided and un-voided.
      fc.record({
        kind: fc.constant('visit' as const),
        n: fc.nat(5000),
        status: fc.constantFrom('Completed', 'Completed', 'Scheduled', 'No-Show', 'Cancelled'),
      }),
      fc.record({ kind: fc.constant('visitDate' as const), n: fc.nat(5000), back: fc.integer({ min: -3, max: 120 }) }),
      fc.record({ kind: fc.constant('visitPatient' as const), n: fc.nat(5000), m: fc.nat(5000) }),
      fc.record({ kind: fc.constant('book' as const), n: fc.nat(5000), back: fc.nat(60) }),
      fc.record({ kind: fc.constant('unbook' as const), n: fc.nat(5000) }),
      fc.record({ kind: fc.constant('bill' as const), n: fc.nat(5000) }),
      fc.record({ kind: fc.constant('claimPatient' as const), n: fc.nat(5000), m: fc.nat(5000) }),
      fc.record({ kind: fc.constant('void' as const), n: fc.nat(5000), voided: fc.boolean() }),
      // A visit billed to the patient's next policy: a claim linked to another (or unlinked), what the earlier payers
      // settled of it, and the balance a claim handed on (the charges cohort and outstanding A/R read all three).
      fc.record({ kind: fc.constant('nextPolicy' as const), n: fc.nat(5000), m: fc.nat(5000), cents: fc.nat(30000) }),
    );
    type Write = typeof write extends fc.Arbitrary<infer W> ? W : never;
    const appointment = (n: number) =>
      `(select id from appointments order by id offset (${n} % greatest(1, (select count(*) from appointments))) limit 1)`;
    // A live booking must keep its provider's slot to itself (appointments_provider_slot_uq): a write that
    // would take a held slot leaves the appointment as it is.
    const slotFree = (date: string, status: string) => `(${status} in ('Cancelled', 'Rescheduled', 'No-Show')
      or not exists (select 1 from appointments b where b.provider_id = a.provider_id and b.date = ${date}
        and b.time = a.time and b.id <> a.id and b.status not in ('Cancelled', 'Rescheduled', 'No-Show')))`;
    let billed = 0;
    const apply = async (w: Write) => {
      const id = pick(w.n);
      switch (w.kind) {
        case 'status':
          return exec(`update claims set status = '${w.status}', denied_on_first_adjudication =
            (status in ('Denied', 'Appealed') or denied_on_first_adjudication) where id = ${id}`);
        case 'money':
          return exec(`update claims set paid_cents = ${w.cents} % (billed_cents + 1),
            patient_responsibility_cents = ${w.cents % 4000}, contractual_adjustment_cents = ${w.cents % 1500} where id = ${id}`);
        case 'dates':
          return exec(`update claims set service_date = date '2026-11-22' - ${w.back} - 3,
            submitted_on = date '2026-11-22' - ${w.back}, adjudicated_on = date '2026-11-22' - ${w.back} + 2 where id = ${id}`);
        case 'resolve':
          return exec(`update claims set resolved_on = ${w.open ? 'null' : `date '2026-11-21'`} where id = ${id}`);
        case 'pay':
          return exec(`insert into payments (patient_id, claim_id, amount_cents, source, received_on)
            select patient_id, id, ${w.cents}, '${w.cents % 2 ? 'guest' : 'payer'}', date '2026-11-22' - ${w.cents % 40}
            from claims where id = ${id}`);
        case 'unpay':
          return exec(`delete from payments where id = (select id from payments order by id offset
            (${w.n} % greatest(1, (select count(*) from payments))) limit 1)`);
        case 'provider':
          return exec(`update claims set provider_id = (select id from providers order by id offset
            (${w.n} % (select count(*) from providers)) limit 1) where id = ${id}`);
        case 'scrubbed':
          // A scrub's writes: the first-scrub fact, the clean-submission fact and Draft or Ready.
          return exec(`update claims set first_scrub_clean = ${w.clean}, clean_submission = ${w.clean},
            status = case when status in ('Draft', 'Ready') then '${w.clean ? 'Ready' : 'Draft'}' else status end
            where id = ${id}`);
        case 'unsubmit':
          return exec(
            `update claims set submitted_on = null, adjudicated_on = null, status = 'Draft' where id = ${id}`,
          );
        case 'delete':
          return exec(`delete from claims where id = ${id}`);
        case 'payer':
          return exec(`update claims set payer = '${w.payer}' where id = ${id}`);
        case 'encounter':
          return exec(`update encounters set encounter_date = date '2026-11-22' - ${w.back},
            charges_captured = ${w.captured} where id = (select id from encounters order by id offset
            (${w.n} % greatest(1, (select count(*) from encounters))) limit 1)`);
        case 'unencounter':
          return exec(`delete from encounters where id = (select id from encounters order by id offset
            (${w.n} % greatest(1, (select count(*) from encounters))) limit 1)`);
        case 'authorization':
          return exec(`update authorizations set status = '${w.status}', decided_on = ${w.status === 'Pending' ? 'null' : `date '2026-11-22'`}
            where id = (select id from authorizations order by id offset
            (${w.n} % greatest(1, (select count(*) from authorizations))) limit 1)`);
        case 'visit':
          return exec(`update appointments a set status = '${w.status}'
            where id = ${appointment(w.n)} and ${slotFree('a.date', `'${w.status}'`)}`);
        case 'visitDate':
          return exec(`update appointments a set date = date '2026-11-22' - ${w.back}
            where id = ${appointment(w.n)} and ${slotFree(`date '2026-11-22' - ${w.back}`, 'a.status')}`);
        case 'visitPatient':
          return exec(`update appointments set patient_id = (select patient_id from appointments
            where id = ${appointment(w.m)}) where id = ${appointment(w.n)}`);
        case 'book':
          // A completed visit for the patient of a claim, on the claim's day or a day with no claim of theirs.
          return exec(`insert into appointments (patient_id, provider_id, reason, date, time, status)
            select patient_id, provider_id, 'Follow-up', ${w.back % 2 ? 'service_date' : `date '2026-11-22' - ${w.back}`},
              '05:' || lpad((${w.n} % 60)::text, 2, '0'), 'Completed'
            from claims where id = ${id} on conflict do nothing`);
        case 'unbook':
          return exec(`delete from appointments where id = ${appointment(w.n)}`);
        case 'bill':
          billed += 1;
          return exec(`insert into claims (patient_id, provider_id, account_number, procedure_code, payer, service_date,
              billed_cents, status)
            select patient_id, provider_id, 'RT-BILL-${billed}', '99213', 'Aetna', date, 14900, 'Draft'
            from appointments where id = ${appointment(w.n)}`);
        case 'claimPatient':
          return exec(`update claims set patient_id = (select patient_id from appointments where id = ${appointment(w.m)}),
            service_date = (select date from appointments where id = ${appointment(w.m)}) where id = ${id}`);
        case 'void':
          return exec(`update claims set voided_at = ${w.voided ? 'now()' : 'null'} where id = ${id}`);
        case 'nextPolicy':
          await exec(`update claims set handed_on_cents = ${w.cents % 5000} where id = ${pick(w.m)}`);
          return exec(`update claims set primary_claim_id = ${w.cents % 3 === 0 ? 'null' : pick(w.m)},
            prior_payers_cents = ${w.cents} % (billed_cents + 1) where id = ${id} and id <> ${pick(w.m)}`);
      }
    };
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 8 }), async (writes) => {
        for (const w of writes) await apply(w);
        // The tables after each sequence; every endpoint against its raw reference once, after the last.
        await expectMaintainedEqualsRebuilt(`after ${JSON.stringify(writes)}`);
      }),
      { numRuns: 12, seed: 20261122 },
    );
    await expectRollupsEqualRaw('after the random sequences of writes', DAYS);
  });

  it('after 835 remittances: postings, a denial, PLB, a reversal and its correction', async () => {
    await exec(`insert into claims (patient_id, provider_id, account_number, procedure_code, payer, service_date,
        submitted_on, billed_cents, status)
      select p.id, (select min(id) from providers), 'ERA-RT-' || g, '99213', 'Aetna', date '2026-11-10' - g,
        date '2026-11-11' - g, 20000, 'Pending'
      from generate_series(1, 3) g, (select min(id) as id from patients) p`);
    await expectRollupsEqualRaw('before the remittances');
    // Claim-level payments (the claims have no lines): paid 120.00 with a deductible, a denial, and interest (PLB).
    const first = eraFile([
      ...eraHeader({ paid: '240.00', trace: 'RT-ERA-1' }),
      'CLP*ERA-RT-1*1*200*120*30*12*A1',
      'CAS*CO*45*50',
      'CAS*PR*1*30',
      'CLP*ERA-RT-2*4*200*0**12*A2',
      'CAS*CO*50*200',
      'CLP*ERA-RT-3*1*200*100**12*A3',
      'CAS*CO*45*100',
      'PLB*1234567893*20261231*L6:INT*-20',
    ]);
    await importRemittances(database.db, ctx, first);
    await expectRollupsEqualRaw('after an 835');
    // The payer reverses ERA-RT-1 and pays it again at 100.00.
    const second = eraFile([
      ...eraHeader({ paid: '20.00', trace: 'RT-ERA-2' }).map((s) =>
        s.startsWith('BPR') ? s.replace('*20.00*C*', '*20.00*D*') : s,
      ),
      'CLP*ERA-RT-1*22*-200*-120*-30*12*A1',
      'CAS*CO*45*-50',
      'CAS*PR*1*-30',
      'CLP*ERA-RT-1*1*200*100*30*12*A1',
      'CAS*CO*45*70',
      'CAS*PR*1*30',
    ]);
    await importRemittances(database.db, ctx, second);
    await expectRollupsEqualRaw('after a reversal and its correction', DAYS);
    const [claim] = (
      await database.db.execute<{ paid_cents: number }>(
        sql`select paid_cents from claims where account_number = 'ERA-RT-1'`,
      )
    ).rows;
    expect(claim?.paid_cents).toBe(10000);
  });

  it("counts a visit billed to the patient's next policy once: its charge, and what is owed on it", async () => {
    const db = database.db;
    const period = periodEndingToday(NOW, 30);
    // The first payer allowed 172.00 of 200.00 and paid 144.00; the patient's coinsurance, 28.00, is left.
    await exec(`insert into claims (patient_id, provider_id, account_number, procedure_code, payer, service_date,
        submitted_on, adjudicated_on, billed_cents, paid_cents, contractual_adjustment_cents,
        patient_responsibility_cents, status, reason_code)
      select min(id), (select min(id) from providers), 'NP-RT-1', '99214', 'Medicare', '2026-11-12', '2026-11-13',
        '2026-11-20', 20000, 14400, 2800, 2800, 'Partially Paid', 'PR-2' from patients`);
    const before = await computeKpisRaw(db, period);
    const agingBefore = await computeArAgingRaw(db, NOW);
    /** The coinsurance billed to the next policy on a new claim of the whole charge, sent; its account number. */
    const billNext = async (account: string) => {
      await exec(`insert into claims (patient_id, provider_id, account_number, procedure_code, payer, service_date,
          submitted_on, billed_cents, status, primary_claim_id, prior_payers_cents)
        select patient_id, provider_id, '${account}', procedure_code, 'Aetna', service_date, '2026-11-21',
          billed_cents, 'Submitted', id, 17200 from claims where account_number = 'NP-RT-1'`);
      await exec(`update claims set handed_on_cents = 2800 where account_number = 'NP-RT-1'`);
    };
    const balances = async () =>
      (
        await db.execute<{ account_number: string; balance: number }>(sql`
          select account_number, ${claimOpenBalanceSql()} as balance from claims
          where account_number like 'NP-RT-%' order by account_number`)
      ).rows.map((r) => [r.account_number, r.balance]);

    await billNext('NP-RT-2');
    const billed = await computeKpisRaw(db, period);
    // Not counted twice: the same A/R (moved from the first claim to the second), the same charges and claims.
    expect(billed.outstandingArCents).toBe(before.outstandingArCents);
    expect(billed.totalBilledCents).toBe(before.totalBilledCents);
    expect(billed.totalClaims).toBe(before.totalClaims);
    expect(await computeArAgingRaw(db, NOW)).toEqual(agingBefore);
    expect(await balances()).toEqual([
      ['NP-RT-1', 0],
      ['NP-RT-2', 2800],
    ]);
    await expectRollupsEqualRaw('after a visit billed to its next policy');

    // Voided, the new claim bills nothing: the coinsurance is the first claim's balance again.
    const [second] = (await db.execute<{ id: number }>(sql`select id from claims where account_number = 'NP-RT-2'`))
      .rows;
    await voidClaim(db, ctx, second!.id, { reason: 'billed to the wrong plan' });
    expect(await balances()).toEqual([
      ['NP-RT-1', 2800],
      ['NP-RT-2', 0],
    ]);
    expect((await computeKpisRaw(db, period)).outstandingArCents).toBe(before.outstandingArCents);
    await expectRollupsEqualRaw('after the claim of the next policy is voided');

    // Billed again; the next payer pays 20.00 and reports the first payer's 172.00 as CARC 23: 8.00 left to collect.
    await billNext('NP-RT-3');
    await exec(`update claims set adjudicated_on = '2026-11-22', status = 'Partially Paid', paid_cents = 2000,
        contractual_adjustment_cents = 17200, patient_responsibility_cents = 800, reason_code = 'PR-2'
      where account_number = 'NP-RT-3'`);
    expect((await computeKpisRaw(db, period)).outstandingArCents).toBe(before.outstandingArCents - 2000);
    expect(await balances()).toEqual([
      ['NP-RT-1', 0],
      ['NP-RT-2', 0],
      ['NP-RT-3', 800],
    ]);
    await expectRollupsEqualRaw('after the next payer answers', DAYS);
  });

  it('collects a visit billed to two policies once: Net Collection and Patient Payment Rates count its share once', async () => {
    const db = database.db;
    // A day of its own, long before the demo clinic's claims: the rates are this visit's alone.
    const day = { days: 1, start: '2020-03-02', end: '2020-03-02' };
    // The first payer allowed 172.00 of 200.00 and paid 144.00, leaving 28.00 of coinsurance, handed on to the next
    // policy; that payer paid 20.00, reported the first payer's 172.00 as CARC 23, and left 8.00 to the patient,
    // who paid it.
    await exec(`insert into claims (patient_id, provider_id, account_number, procedure_code, payer, service_date,
        submitted_on, adjudicated_on, billed_cents, paid_cents, contractual_adjustment_cents,
        patient_responsibility_cents, status, reason_code, handed_on_cents)
      select min(id), (select min(id) from providers), 'NP-NCR-1', '99214', 'Medicare', '2020-02-20', '2020-02-21',
        '2020-03-02', 20000, 14400, 2800, 2800, 'Paid', 'PR-2', 2800 from patients`);
    await exec(`insert into claims (patient_id, provider_id, account_number, procedure_code, payer, service_date,
        submitted_on, adjudicated_on, billed_cents, paid_cents, contractual_adjustment_cents,
        patient_responsibility_cents, status, reason_code, primary_claim_id, prior_payers_cents)
      select patient_id, provider_id, 'NP-NCR-2', procedure_code, 'Aetna', service_date, '2020-02-25', '2020-03-02',
        20000, 2000, 17200, 800, 'Paid', 'PR-2', id, 17200 from claims where account_number = 'NP-NCR-1'`);
    await exec(`insert into payments (patient_id, claim_id, amount_cents, source, received_on, reference)
      select patient_id, id, 800, 'patient', '2020-03-05', 'NCR' from claims where account_number = 'NP-NCR-2'`);
    const kpis = await computeKpisRaw(db, day);
    // Collected 144.00 + 20.00 + 8.00 of the 172.00 the payers allowed; the patient paid the 8.00 asked of them.
    expect([kpis.netCollectionRate, kpis.patientPaymentRate]).toEqual([100, 100]);
    expect(await computeKpis(db, day)).toEqual(kpis);
    await expectRollupsEqualRaw('after a visit billed to two policies is paid');
  });

  it('when a visit and its claim are written at once, in two transactions', async () => {
    // Whether a visit is billed joins two tables, so each transaction alone sees only half of it: the one
    // that recounts the day second must wait for the first and count what it committed. Both orders, on a
    // day where the patient has neither a visit nor a claim yet.
    const [patient] = (
      await database.db.execute<{ id: number; provider: number }>(sql`
        select min(id) as id, (select min(id) from providers) as provider from patients`)
    ).rows;
    if (!patient) throw new Error('no patient in the demo data');
    const visitSql = (day: string, time: string) => `insert into appointments (patient_id, provider_id, reason,
        date, time, status) values (${patient.id}, ${patient.provider}, 'Follow-up', '${day}', '${time}', 'Completed')`;
    const claimSql = (day: string, account: string) => `insert into claims (patient_id, provider_id,
        account_number, procedure_code, payer, service_date, billed_cents, status)
      values (${patient.id}, ${patient.provider}, '${account}', '99213', 'Aetna', '${day}', 14900, 'Draft')`;
    const cases = [
      { day: '2026-11-03', first: claimSql('2026-11-03', 'RT-RACE-1'), second: visitSql('2026-11-03', '05:31') },
      { day: '2026-11-04', first: visitSql('2026-11-04', '05:32'), second: claimSql('2026-11-04', 'RT-RACE-2') },
    ];
    for (const { day, first, second } of cases) {
      await exec(`delete from claims where patient_id = ${patient.id} and service_date = '${day}'`);
      await exec(`delete from appointments where patient_id = ${patient.id} and date = '${day}'`);
      const a = await database.pool.connect();
      const b = await database.pool.connect();
      try {
        await a.query('begin');
        await a.query(first);
        await b.query('begin');
        const [{ pid }] = (await b.query<{ pid: number }>('select pg_backend_pid() as pid')).rows as [{ pid: number }];
        const waiting = b.query(second);
        // B's trigger waits on the day A holds.
        for (let i = 0; ; i += 1) {
          const { rows } = await a.query<{ waits: boolean }>(
            `select wait_event_type = 'Lock' as waits from pg_stat_activity where pid = $1`,
            [pid],
          );
          if (rows[0]?.waits) break;
          if (i > 200) throw new Error('the second writer did not wait for the first');
          await new Promise((r) => setTimeout(r, 25));
        }
        await a.query('commit');
        await waiting;
        await b.query('commit');
      } finally {
        a.release();
        b.release();
      }
      const [row] = (
        await database.db.execute<{ completed: string; captured: string }>(sql`
          select completed, captured from analytics_visits_daily where day = ${day}`)
      ).rows;
      const [raw] = (await visitsByDayRaw(database.db)).filter((v) => v.day === day);
      expect(raw?.captured, `${day}: the raw count bills the visit`).toBeGreaterThan(0);
      expect({ completed: Number(row?.completed), captured: Number(row?.captured) }, day).toEqual({
        completed: raw?.completed,
        captured: raw?.captured,
      });
    }
    await expectRollupsEqualRaw('after concurrent writers of a day', DAYS);
  });

  it('after a TRUNCATE, a reset and a re-seed', async () => {
    await exec(`truncate payments`);
    await expectRollupsEqualRaw('after truncating payments');
    await exec(`truncate appointments`);
    await expectRollupsEqualRaw('after truncating appointments');
    await resetSystem(database.db, ctx);
    await expectRollupsEqualRaw('after a reset');
    const [rows] = (
      await database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from claims_status_rollup where claims <> 0`,
      )
    ).rows;
    expect(rows?.n).toBe(0);
    await reseedDemoClinic(database.db, ctx);
    await expectRollupsEqualRaw('after a re-seed', DAYS);
  });
});
