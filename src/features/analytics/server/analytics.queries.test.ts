/**
 * The KPI formulas on a small fixture computed by hand. The test empties its private database and
 * inserts a handful of claims, payments, expenses, billing hours and completed visits; every expected value is
 * a literal with its arithmetic beside it (docs/kpis.md has the formulas).
 *
 * Today is 2026-11-22; the 30-day period is 2026-10-24 … 2026-11-22 (both included).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingStaffHours, operatingExpenses } from '@/features/analytics/server/analytics.table';
import { claims, payments } from '@/features/claims/server/claims.table';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';
import { appointments } from '@/features/appointments/server/appointments.table';
import { clearClinicData } from '@/server/db/seed/demo-seed';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';
import { computeArAging, computeDenialsByReason, computeKpis, computeProviderAnalytics } from './analytics.queries';
import { daysInArSql } from '@/features/claims/server/claims.summary.queries';
import { periodEndingToday } from '@/shared/period';

const NOW = new Date('2026-11-22T15:00:00Z');
const PERIOD_30 = periodEndingToday(NOW, 30);

let database: TestDatabase;
let providerA = 0;
let providerB = 0;
let patientId = 0;
const claimIds = new Map<string, number>();

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.transaction((tx) => clearClinicData(tx));
});
afterAll(async () => {
  await database.drop();
});

type ClaimFixture = Omit<
  typeof claims.$inferInsert,
  'patientId' | 'providerId' | 'accountNumber' | 'procedureCode' | 'payer'
> & {
  provider: 'A' | 'B';
};

/**
 * The claims of the fixture (amounts in cents):
 *
 * | claim | prov | service    | submitted  | adjudicated | resolved   | billed | payer paid | contract. | patient resp | status         | notes |
 * | C1    | A    | 2026-11-02 | 2026-11-03 | 2026-11-10  | 2026-11-10 | 20000  | 12000      | 8000      | 0            | Closed         | clean, CO-45 |
 * | C2    | A    | 2026-11-05 | 2026-11-07 | 2026-11-15  | –          | 10000  | 5000       | 3000      | 2000         | Paid           | clean, PR-2; patient paid 1500 |
 * | C3    | B    | 2026-11-09 | 2026-11-13 | 2026-11-20  | –          | 15000  | 0          | 0         | 0            | Denied         | NOT clean, denied CO-197 |
 * | C4    | B    | 2026-11-16 | 2026-11-17 | –           | –          | 5000   | 0          | 0         | 0            | Submitted      | clean |
 * | C5    | A    | 2026-11-20 | –          | –           | –          | 8000   | 0          | 0         | 0            | Draft          | |
 * | C6    | B    | 2026-08-03 | 2026-08-04 | 2026-08-20  | 2026-11-01 | 12000  | 0          | 0         | 0            | Written Off    | clean, denied CO-16 |
 * | C7    | A    | 2026-07-01 | 2026-07-02 | 2026-07-20  | –          | 10000  | 6000       | 3000      | 1000         | Paid           | clean, PR-1; patient paid 400 on 10-23 |
 * | C8    | B    | 2026-10-01 | 2026-10-02 | 2026-10-24  | –          | 30000  | 12000      | 10000     | 0            | Partially Paid | clean, CO-45 |
 * | C9    | A    | 2026-10-26 | 2026-10-27 | 2026-11-05  | 2026-11-19 | 12000  | 9000       | 3000      | 0            | Closed         | clean, denied OA-18 then paid on appeal |
 * | C10   | A    | 2026-11-10 | 2026-11-11 | 2026-11-18  | 2026-11-18 | 5000   | 1000       | 1500      | 2500         | Closed         | clean, PR-3 copay paid by a guest at the visit |
 */
const FIXTURE: Record<string, ClaimFixture> = {
  C1: {
    provider: 'A',
    serviceDate: '2026-11-02',
    submittedOn: '2026-11-03',
    adjudicatedOn: '2026-11-10',
    resolvedOn: '2026-11-10',
    billedCents: 20000,
    paidCents: 12000,
    contractualAdjustmentCents: 8000,
    status: 'Closed',
    reasonCode: 'CO-45',
  },
  C2: {
    provider: 'A',
    serviceDate: '2026-11-05',
    submittedOn: '2026-11-07',
    adjudicatedOn: '2026-11-15',
    billedCents: 10000,
    paidCents: 5000,
    contractualAdjustmentCents: 3000,
    patientResponsibilityCents: 2000,
    status: 'Paid',
    reasonCode: 'PR-2',
  },
  C3: {
    provider: 'B',
    serviceDate: '2026-11-09',
    submittedOn: '2026-11-13',
    adjudicatedOn: '2026-11-20',
    billedCents: 15000,
    status: 'Denied',
    reasonCode: 'CO-197',
    cleanSubmission: false,
    deniedOnFirstAdjudication: true,
  },
  C4: { provider: 'B', serviceDate: '2026-11-16', submittedOn: '2026-11-17', billedCents: 5000, status: 'Submitted' },
  C5: { provider: 'A', serviceDate: '2026-11-20', billedCents: 8000, status: 'Draft' },
  C6: {
    provider: 'B',
    serviceDate: '2026-08-03',
    submittedOn: '2026-08-04',
    adjudicatedOn: '2026-08-20',
    resolvedOn: '2026-11-01',
    billedCents: 12000,
    status: 'Written Off',
    reasonCode: 'CO-16',
    deniedOnFirstAdjudication: true,
  },
  C7: {
    provider: 'A',
    serviceDate: '2026-07-01',
    submittedOn: '2026-07-02',
    adjudicatedOn: '2026-07-20',
    billedCents: 10000,
    paidCents: 6000,
    contractualAdjustmentCents: 3000,
    patientResponsibilityCents: 1000,
    status: 'Paid',
    reasonCode: 'PR-1',
  },
  C8: {
    provider: 'B',
    serviceDate: '2026-10-01',
    submittedOn: '2026-10-02',
    adjudicatedOn: '2026-10-24',
    billedCents: 30000,
    paidCents: 12000,
    contractualAdjustmentCents: 10000,
    status: 'Partially Paid',
    reasonCode: 'CO-45',
  },
  C9: {
    provider: 'A',
    serviceDate: '2026-10-26',
    submittedOn: '2026-10-27',
    adjudicatedOn: '2026-11-05',
    resolvedOn: '2026-11-19',
    billedCents: 12000,
    paidCents: 9000,
    contractualAdjustmentCents: 3000,
    status: 'Closed',
    reasonCode: 'OA-18',
    deniedOnFirstAdjudication: true,
  },
  C10: {
    provider: 'A',
    serviceDate: '2026-11-10',
    submittedOn: '2026-11-11',
    adjudicatedOn: '2026-11-18',
    resolvedOn: '2026-11-18',
    billedCents: 5000,
    paidCents: 1000,
    contractualAdjustmentCents: 1500,
    patientResponsibilityCents: 2500,
    status: 'Closed',
    reasonCode: 'PR-3',
  },
};

/** [claim, source, cents, received on] */
const PAYMENTS: [string, 'payer' | 'patient' | 'guest', number, string][] = [
  ['C1', 'payer', 12000, '2026-11-10'],
  ['C2', 'payer', 5000, '2026-11-15'],
  ['C2', 'patient', 1500, '2026-11-18'],
  ['C7', 'payer', 6000, '2026-07-20'],
  ['C7', 'patient', 400, '2026-10-23'], // the day before the period: not a collection of the period
  ['C8', 'payer', 12000, '2026-10-24'], // the period's first day: counted
  ['C9', 'payer', 9000, '2026-11-19'],
  ['C10', 'guest', 2500, '2026-11-10'],
  ['C10', 'payer', 1000, '2026-11-18'],
];

async function insertFixture() {
  const db = database.db;
  const [a, b] = await db
    .insert(providers)
    .values([
      { name: 'Dr. Provider A', specialty: 'Family Medicine' },
      { name: 'Dr. Provider B', specialty: 'Internal Medicine' },
      { name: 'Dr. Idle', specialty: 'Pediatrics' },
    ])
    .returning({ id: providers.id });
  providerA = a?.id ?? 0;
  providerB = b?.id ?? 0;
  const [patient] = await db
    .insert(patients)
    .values({ name: 'Fixture Patient', mrn: 'MRN-FIX-1', dob: '1970-01-01', phone: '(555) 000-0001' })
    .returning({ id: patients.id });
  patientId = patient?.id ?? 0;
  for (const [name, { provider, ...claim }] of Object.entries(FIXTURE)) {
    const [row] = await db
      .insert(claims)
      .values({
        ...claim,
        patientId,
        providerId: provider === 'A' ? providerA : providerB,
        accountNumber: `ACC-FIX-${name}`,
        procedureCode: '99213',
        payer: 'Aetna',
      })
      .returning({ id: claims.id });
    claimIds.set(name, row?.id ?? 0);
  }
  await db.insert(payments).values(
    PAYMENTS.map(([claim, source, amountCents, receivedOn]) => ({
      patientId,
      claimId: claimIds.get(claim) ?? null,
      source,
      amountCents,
      receivedOn,
    })),
  );
  await db.insert(operatingExpenses).values([
    { month: '2026-10-01', amountCents: 31000 },
    { month: '2026-11-01', amountCents: 15000 },
  ]);
  await db.insert(billingStaffHours).values([
    { day: '2026-10-23', hours: '5.00' }, // before the period
    { day: '2026-11-03', hours: '0.25' },
    { day: '2026-11-10', hours: '0.50' },
    { day: '2026-11-17', hours: '0.25' },
  ]);
  // Completed visits are billed when a claim bills the patient for that day: 10-20 has no claim (and is
  // before the 30 days), 11-02 (C1), 11-05 (C2) and 11-20 (C5) have one, 11-12 has none (a missed charge);
  // a cancelled visit is no completed visit.
  const visit = (date: string, status: 'Completed' | 'Cancelled' = 'Completed') => ({
    patientId,
    providerId: providerA,
    date,
    time: '09:00',
    status,
    reason: 'Check-up',
  });
  await db
    .insert(appointments)
    .values([
      visit('2026-10-20'),
      visit('2026-11-02'),
      visit('2026-11-05'),
      visit('2026-11-12'),
      visit('2026-11-13', 'Cancelled'),
      visit('2026-11-20'),
    ]);
}

describe('KPI engine on an empty database', () => {
  it('answers null for every KPI (zero denominators) and zero totals', async () => {
    const kpis = await computeKpis(database.db, PERIOD_30);
    expect(kpis).toEqual({
      periodDays: 30,
      periodStart: '2026-10-24',
      periodEnd: '2026-11-22',
      avgDaysAR: null,
      cleanClaimRate: null,
      denialRate: null,
      netCollectionRate: null,
      firstPassResolutionRate: null,
      chargeCaptureAccuracy: null,
      patientPaymentRate: null,
      operatingMargin: null,
      billingCycleTime: null,
      billingProductivity: null,
      totalClaims: 0,
      paidClaims: 0,
      deniedClaims: 0,
      totalPaidCents: 0,
      totalBilledCents: 0,
      revenueLostCents: 0,
      revenueAtRiskCents: 0,
      outstandingArCents: 0,
      openDenialsCents: 0,
    });
    const aging = await computeArAging(database.db, NOW);
    expect(aging.totalCents).toBe(0);
    expect(aging.buckets.map((b) => [b.bucket, b.amountCents, b.percent])).toEqual([
      ['0-30', 0, 0],
      ['31-60', 0, 0],
      ['61-90', 0, 0],
      ['91-120', 0, 0],
      ['120+', 0, 0],
    ]);
    expect(await computeDenialsByReason(database.db, PERIOD_30)).toEqual([]);
    expect(await computeProviderAnalytics(database.db, PERIOD_30)).toEqual([]);
  });
});

describe('KPI engine on the hand-computed fixture', () => {
  beforeAll(async () => {
    await insertFixture();
  });

  it('computes every KPI of the last 30 days with its standard formula', async () => {
    const kpis = await computeKpis(database.db, PERIOD_30);
    expect(kpis).toEqual({
      periodDays: 30,
      periodStart: '2026-10-24',
      periodEnd: '2026-11-22',
      // Outstanding A/R (submitted, unresolved, not written off: billed − payer paid − contractual − patient paid):
      //   C2 10000−5000−3000−1500 = 500; C3 15000; C4 5000; C7 10000−6000−3000−400 = 600; C8 30000−12000−10000 = 8000
      //   = 29100. Charges with service date in the period: C1 20000 + C2 10000 + C3 15000 + C4 5000 + C5 8000
      //   + C9 12000 + C10 5000 = 75000, i.e. 2500 a day. Days in A/R = 29100 ÷ 2500 = 11.64
      avgDaysAR: 11.6,
      // Submitted in the period: C1, C2, C3, C4, C9, C10 = 6; clean: all but C3 = 5. 5 ÷ 6 = 83.33%
      cleanClaimRate: 83.3,
      // Adjudicated in the period: C1, C2, C3, C8 (on the first day), C9, C10 = 6; denied first: C3, C9. 2 ÷ 6 = 33.33%
      denialRate: 33.3,
      // Those 6 claims: payer paid + patient paid = 12000 + (5000+1500) + 0 + 12000 + 9000 + (1000+2500) = 43000;
      //   billed − contractual = 12000 + 7000 + 15000 + 20000 + 9000 + 3500 = 66500. 43000 ÷ 66500 = 64.66%
      netCollectionRate: 64.7,
      // Resolved on first submission (clean, not denied, paid + contractual + patient resp = billed): C1, C2, C10.
      //   C8 is short (12000 + 10000 < 30000), C3 and C9 were denied. 3 ÷ 6 = 50%
      firstPassResolutionRate: 50,
      // Completed visits in the period: 11-02 ✓, 11-05 ✓, 11-12 ✗ (no claim), 11-20 ✓ (10-20 is before it). 3 ÷ 4 = 75%
      chargeCaptureAccuracy: 75,
      // Patient responsibility of the adjudicated claims: C2 2000 + C10 2500 = 4500; paid: 1500 + 2500 (guest) = 4000.
      //   4000 ÷ 4500 = 88.89%
      patientPaymentRate: 88.9,
      // Collections received in the period: 12000 + 5000 + 1500 + 12000 + 9000 + 2500 + 1000 = 43000 (not C7's
      //   10-23 payment). Expenses: October 31000 × 8/31 days + November 15000 × 22/30 days = 8000 + 11000 = 19000.
      //   (43000 − 19000) ÷ 43000 = 55.81%
      operatingMargin: 55.8,
      // Days from service to submission of the 6 submitted: 1 + 2 + 4 + 1 + 1 + 1 = 10; 10 ÷ 6 = 1.67
      billingCycleTime: 1.7,
      // 6 claims submitted ÷ (0.25 + 0.50 + 0.25) hours = 6 per hour (the 10-23 hours are outside the period)
      billingProductivity: 6,
      // Service date in the period: C1, C2, C3, C4, C5, C9, C10
      totalClaims: 7,
      // Of those, Paid or Partially Paid: C1, C2, C9, C10
      paidClaims: 4,
      // Of those, denied on first adjudication: C3, C9
      deniedClaims: 2,
      totalPaidCents: 43000,
      totalBilledCents: 75000,
      // C6 written off on 11-01: 12000 − 0 paid − 0 contractual − 0 patient = 12000
      revenueLostCents: 12000,
      // Outstanding A/R, open denials (C3, 15000) included once
      revenueAtRiskCents: 29100,
      outstandingArCents: 29100,
      openDenialsCents: 15000,
    });
  });

  it('makes the operating margin null when a month of the period has no expenses recorded', async () => {
    // 60 days: 2026-09-24 … 2026-11-22 covers September, which has no expense row.
    const kpis = await computeKpis(database.db, periodEndingToday(NOW, 60));
    expect(kpis.periodStart).toBe('2026-09-24');
    expect(kpis.operatingMargin).toBeNull();
    // 7 days: 2026-11-16 … 2026-11-22. Collections: C2 patient 1500 (11-18) + C9 9000 (11-19) + C10 payer 1000
    //   (11-18) = 11500; expenses 15000 × 7/30 = 3500. (11500 − 3500) ÷ 11500 = 69.57%
    const week = await computeKpis(database.db, periodEndingToday(NOW, 7));
    expect(week.operatingMargin).toBe(69.6);
    // No completed visits from 11-16 on but the one on 11-20 (billed by C5): 1 ÷ 1
    expect(week.chargeCaptureAccuracy).toBe(100);
  });

  it('ages the outstanding A/R by days since the service date', async () => {
    const aging = await computeArAging(database.db, NOW);
    expect(aging).toEqual({
      asOf: '2026-11-22',
      totalCents: 29100,
      buckets: [
        // C2 500 (17 days) + C3 15000 (13 days) + C4 5000 (6 days) = 20500; 20500 ÷ 29100 = 70.45%
        { bucket: '0-30', amountCents: 20500, percent: 70.45 },
        // C8 8000 (52 days); 8000 ÷ 29100 = 27.49%
        { bucket: '31-60', amountCents: 8000, percent: 27.49 },
        { bucket: '61-90', amountCents: 0, percent: 0 },
        { bucket: '91-120', amountCents: 0, percent: 0 },
        // C7 600 (144 days); 600 ÷ 29100 = 2.06%
        { bucket: '120+', amountCents: 600, percent: 2.06 },
      ],
    });
  });

  it('computes each provider with the same formulas, by collections', async () => {
    expect(await computeProviderAnalytics(database.db, PERIOD_30)).toEqual([
      {
        provider: 'Dr. Provider A',
        // C1, C2, C5, C9, C10 (C7 is older)
        claimCount: 5,
        // 12000 + 5000 + 1500 + 9000 + 2500 + 1000 = 31000
        totalCollectionsCents: 31000,
        // adjudicated C1, C2, C9, C10: (12000 + 6500 + 9000 + 3500) ÷ (12000 + 7000 + 9000 + 3500) = 31000 ÷ 31500
        collectionRate: 98.4,
        // outstanding C2 500 + C7 600 = 1100 ÷ (charges 55000 ÷ 30) = 0.6
        avgDaysAR: 0.6,
      },
      {
        provider: 'Dr. Provider B',
        // C3, C4
        claimCount: 2,
        // C8 12000
        totalCollectionsCents: 12000,
        // adjudicated C3, C8: (0 + 12000) ÷ (15000 + 20000) = 34.29%
        collectionRate: 34.3,
        // outstanding C3 15000 + C4 5000 + C8 8000 = 28000 ÷ (charges 20000 ÷ 30) = 42
        avgDaysAR: 42,
      },
      // No claims at all: nothing to divide by.
      { provider: 'Dr. Idle', claimCount: 0, totalCollectionsCents: 0, collectionRate: null, avgDaysAR: null },
    ]);
  });

  it('counts the denials of the period by CARC reason, never CO-45 or PR-*', async () => {
    // Denied first and adjudicated in the period: C3 (CO-197) and C9 (OA-18); C6's CO-16 was adjudicated in August.
    expect(await computeDenialsByReason(database.db, PERIOD_30)).toEqual([
      { reason: 'CO-197', description: 'Precertification or authorization was not obtained', count: 1 },
      { reason: 'OA-18', description: 'Exact duplicate of a claim already received', count: 1 },
    ]);
    // 90 days (from 2026-08-25) still misses C6 (adjudicated 2026-08-20).
    const ninety = await computeDenialsByReason(database.db, periodEndingToday(NOW, 90));
    expect(ninety.map((d) => d.reason)).toEqual(['CO-197', 'OA-18']);
  });

  it("gives each claim's days in A/R: to its resolution, or to today while unresolved", async () => {
    const result = await database.db.execute<{ account_number: string; days: number }>(
      sql`select ${claims.accountNumber} as account_number, ${daysInArSql('2026-11-22')} as days from ${claims}
          order by ${claims.id}`,
    );
    expect(Object.fromEntries(result.rows.map((r) => [r.account_number.replace('ACC-FIX-', ''), r.days]))).toEqual({
      C1: 8, // 11-02 → resolved 11-10
      C2: 17, // 11-05 → today
      C3: 13, // 11-09 → today
      C4: 6, // 11-16 → today
      C5: 2, // 11-20 → today (a draft is not yet billed, but its charge is ageing)
      C6: 90, // 08-03 → written off 11-01
      C7: 144, // 07-01 → today
      C8: 52, // 10-01 → today
      C9: 24, // 10-26 → paid 11-19
      C10: 8, // 11-10 → resolved 11-18
    });
  });
});
