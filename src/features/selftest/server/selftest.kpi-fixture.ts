/**
 * The KPI formulas checked on a fixed fixture, against the live query code.
 *
 * Inside a transaction that is always rolled back, temporary tables shadow the real ones
 * (`create temp table claims (like public.claims including all)`): PostgreSQL searches pg_temp first, so
 * the unqualified table names the analytics queries write resolve to the empty copies. A handful of
 * rows is inserted and the real KPI functions run on that transaction; every expected value below is
 * computed by hand (formulas in docs/kpis.md). Nothing of the clinic's data is read or changed.
 *
 * The fixture's "today" is 2026-11-22; the 30-day period is 2026-10-24 … 2026-11-22.
 */
import { sql } from 'drizzle-orm';
import { billingStaffHours, operatingExpenses } from '@/features/analytics/server/analytics.table';
import { claims, payments } from '@/features/claims/server/claims.table';
import { appointments } from '@/features/appointments/server/appointments.table';
import type { Tx } from '@/server/db/types';

export const FIXTURE_NOW = new Date('2026-11-22T15:00:00Z');

export const SHADOWED_TABLES = [
  'claims',
  'payments',
  'operating_expenses',
  'billing_staff_hours',
  'encounters',
  'appointments',
  // The analytics rollups (docs/kpis.md "Rollups"): the temporary claims and payments have no triggers, so the check
  // rebuilds these shadows from the fixture (rebuildRollups) before reading the KPIs.
  'analytics_daily',
  'analytics_ar_daily',
  'analytics_ar_provider',
  'analytics_denials_daily',
  'claims_status_rollup',
  'claims_daily_rollup',
  'analytics_visits_daily',
] as const;

/**
 * | claim | service    | submitted  | adjudicated | resolved   | billed | payer paid | contract. | patient resp | status    | notes |
 * | K1    | 2026-11-02 | 2026-11-03 | 2026-11-10  | 2026-11-10 | 20000  | 12000      | 8000      | 0            | Closed    | clean |
 * | K2    | 2026-11-05 | 2026-11-07 | 2026-11-15  | –          | 10000  | 5000       | 3000      | 2000         | Paid      | clean; patient paid 1500 |
 * | K3    | 2026-11-09 | 2026-11-13 | 2026-11-20  | –          | 15000  | 0          | 0         | 0            | Denied    | NOT clean, denied CO-197 |
 * | K4    | 2026-11-16 | 2026-11-17 | –           | –          | 5000   | 0          | 0         | 0            | Submitted | clean |
 * | K5    | 2026-07-01 | 2026-07-02 | 2026-07-20  | –          | 10000  | 6000       | 3000      | 1000         | Paid      | clean; patient paid 400 on 10-23 |
 */
const CLAIMS: (typeof claims.$inferInsert)[] = [
  {
    accountNumber: 'SELFTEST-K1',
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
  {
    accountNumber: 'SELFTEST-K2',
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
  {
    accountNumber: 'SELFTEST-K3',
    serviceDate: '2026-11-09',
    submittedOn: '2026-11-13',
    adjudicatedOn: '2026-11-20',
    billedCents: 15000,
    status: 'Denied',
    reasonCode: 'CO-197',
    cleanSubmission: false,
    deniedOnFirstAdjudication: true,
  },
  {
    accountNumber: 'SELFTEST-K4',
    serviceDate: '2026-11-16',
    submittedOn: '2026-11-17',
    billedCents: 5000,
    status: 'Submitted',
  },
  {
    accountNumber: 'SELFTEST-K5',
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
].map((c) => ({ patientId: 1, providerId: 1, procedureCode: '99213', payer: 'Aetna', ...c }));

/** [claim, source, cents, received on] */
const PAYMENTS: [string, 'payer' | 'patient', number, string][] = [
  ['SELFTEST-K1', 'payer', 12000, '2026-11-10'],
  ['SELFTEST-K2', 'payer', 5000, '2026-11-15'],
  ['SELFTEST-K2', 'patient', 1500, '2026-11-18'],
  ['SELFTEST-K5', 'payer', 6000, '2026-07-20'],
  ['SELFTEST-K5', 'patient', 400, '2026-10-23'], // the day before the period
];

/** Each KPI with its hand-computed value. */
export const EXPECTED_KPIS = {
  // Outstanding A/R: K2 10000−5000−3000−1500 = 500; K3 15000; K4 5000; K5 10000−6000−3000−400 = 600 → 21100
  // (K1 is resolved). Charges in the period: K1+K2+K3+K4 = 50000, ÷ 30 days. 21100 ÷ 1666.67 = 12.66
  avgDaysAR: 12.7,
  // Submitted in the period: K1–K4 = 4, clean 3 → 75%
  cleanClaimRate: 75,
  // Adjudicated in the period: K1, K2, K3 = 3; denied first: K3 → 33.3%
  denialRate: 33.3,
  // Collected on those: 12000 + (5000 + 1500) + 0 = 18500; billed − contractual: 12000 + 7000 + 15000 = 34000 → 54.4%
  netCollectionRate: 54.4,
  // Clean, not denied, paid + contractual + patient resp ≥ billed: K1, K2 → 2 ÷ 3
  firstPassResolutionRate: 66.7,
  // Completed visits in the period 4 (11-02, 11-05, 11-12, 11-16), billed by a claim of that day 3 (not 11-12)
  chargeCaptureAccuracy: 75,
  // Patient responsibility of the adjudicated: K2 2000; paid 1500 → 75%
  patientPaymentRate: 75,
  // Collections in the period 18500; expenses October 31000 × 8/31 + November 15000 × 22/30 = 19000 → −2.7%
  operatingMargin: -2.7,
  // Service → submission days: 1 + 2 + 4 + 1 = 8 ÷ 4
  billingCycleTime: 2,
  // 4 claims submitted ÷ (0.25 + 0.50 + 0.25) hours
  billingProductivity: 4,
  totalClaims: 4,
  paidClaims: 2,
  deniedClaims: 1,
  totalPaidCents: 18500,
  totalBilledCents: 50000,
  revenueLostCents: 0,
  outstandingArCents: 21100,
  openDenialsCents: 15000,
} as const;

/** AR aging as of 2026-11-22: K2 (17 days) + K3 (13) + K4 (6) = 20500 in 0–30; K5 (144 days) 600 in 120+. */
export const EXPECTED_AR_AGING = [
  ['0-30', 20500, 97.16],
  ['31-60', 0, 0],
  ['61-90', 0, 0],
  ['91-120', 0, 0],
  ['120+', 600, 2.84],
] as const;

/** Denied first and adjudicated in the period: K3 only (CO-45 and PR-* are never denials). */
export const EXPECTED_DENIALS = [['CO-197', 1]] as const;

export async function shadowTables(tx: Tx) {
  for (const table of SHADOWED_TABLES) {
    await tx.execute(sql.raw(`create temp table ${table} (like public.${table} including all)`));
  }
}

export async function insertFixture(tx: Tx) {
  const inserted = await tx.insert(claims).values(CLAIMS).returning({ id: claims.id, account: claims.accountNumber });
  const idOf = new Map(inserted.map((r) => [r.account, r.id]));
  await tx.insert(payments).values(
    PAYMENTS.map(([account, source, amountCents, receivedOn]) => ({
      patientId: 1,
      claimId: idOf.get(account) ?? null,
      source,
      amountCents,
      receivedOn,
    })),
  );
  await tx.insert(operatingExpenses).values([
    { month: '2026-10-01', amountCents: 31000 },
    { month: '2026-11-01', amountCents: 15000 },
  ]);
  await tx.insert(billingStaffHours).values([
    { day: '2026-11-03', hours: '0.25' },
    { day: '2026-11-10', hours: '0.50' },
    { day: '2026-11-17', hours: '0.25' },
  ]);
  const visit = (date: string) => ({
    patientId: 1,
    providerId: 1,
    date,
    time: '09:00',
    status: 'Completed',
    reason: 'Check-up',
  });
  await tx
    .insert(appointments)
    .values([visit('2026-11-02'), visit('2026-11-05'), visit('2026-11-12'), visit('2026-11-16')]);
}
