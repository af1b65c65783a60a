/**
 * Contracts of the revenue-cycle analytics (docs/kpis.md): the KPI result, AR aging, provider
 * analytics and denials by reason, plus the KPI targets that the cards, the analytics tiles and the CSV
 * export all use. Money is integer cents; rates are percentages (0–100). A KPI whose denominator is
 * zero for the period is null ("not enough data"), never a made-up 0 or 100.
 */
import { z } from 'zod';

export const KPI_PERIODS = [7, 30, 60, 90] as const;
export const DEFAULT_KPI_PERIOD = 30;

export const periodQuerySchema = z.object({
  periodDays: z.coerce
    .number()
    .int()
    .refine((n) => (KPI_PERIODS as readonly number[]).includes(n), { message: 'must be 7, 30, 60 or 90' })
    .default(DEFAULT_KPI_PERIOD),
});
export type PeriodQuery = z.infer<typeof periodQuerySchema>;

const rate = z.number().nullable();

/** Charge Capture's drill-down lists at most this many missed visits, newest first. */
export const MISSED_CHARGE_VISITS_LIMIT = 200;

/** A completed visit that no claim bills (a missed charge): Charge Capture Accuracy's drill-down. */
export const missedChargeVisitSchema = z.object({
  appointmentId: z.number().int(),
  date: z.string(),
  time: z.string(),
  patientId: z.number().int(),
  patientName: z.string(),
  provider: z.string(),
  reason: z.string(),
});
export type MissedChargeVisit = z.infer<typeof missedChargeVisitSchema>;

export const missedChargeVisitsSchema = z.object({
  periodDays: z.number().int(),
  periodStart: z.string(),
  periodEnd: z.string(),
  visits: z.array(missedChargeVisitSchema),
});
export type MissedChargeVisits = z.infer<typeof missedChargeVisitsSchema>;

export const kpiResultSchema = z.object({
  periodDays: z.number().int(),
  /** First and last calendar day of the period (inclusive), YYYY-MM-DD. */
  periodStart: z.string(),
  periodEnd: z.string(),
  avgDaysAR: rate,
  cleanClaimRate: rate,
  denialRate: rate,
  netCollectionRate: rate,
  firstPassResolutionRate: rate,
  chargeCaptureAccuracy: rate,
  patientPaymentRate: rate,
  operatingMargin: rate,
  billingCycleTime: rate,
  billingProductivity: rate,
  /** Claims with a service date in the period. */
  totalClaims: z.number().int(),
  paidClaims: z.number().int(),
  deniedClaims: z.number().int(),
  totalPaidCents: z.number().int(),
  totalBilledCents: z.number().int(),
  /** Charges lost for good: written-off denials (not contractual adjustments). */
  revenueLostCents: z.number().int(),
  /** Outstanding or denied amounts requiring action (the KPIs page's 'Revenue at Risk' card). */
  revenueAtRiskCents: z.number().int(),
  /** Outstanding A/R as of the period's last day (docs/kpis.md); open denials are part of it. */
  outstandingArCents: z.number().int(),
  /** The part of outstanding A/R on claims that stand denied or under appeal. */
  openDenialsCents: z.number().int(),
});
export type KpiResult = z.infer<typeof kpiResultSchema>;

export type KpiKey =
  | 'avgDaysAR'
  | 'cleanClaimRate'
  | 'denialRate'
  | 'netCollectionRate'
  | 'firstPassResolutionRate'
  | 'chargeCaptureAccuracy'
  | 'patientPaymentRate'
  | 'operatingMargin'
  | 'billingCycleTime'
  | 'billingProductivity';

export interface KpiDefinition {
  key: KpiKey;
  label: string;
  target: number;
  unit: 'days' | '%' | 'claims/hour';
  lowerIsBetter: boolean;
}

/** The KPI targets, in card order. */
export const KPI_DEFINITIONS: readonly KpiDefinition[] = [
  { key: 'avgDaysAR', label: 'Days in A/R', target: 30, unit: 'days', lowerIsBetter: true },
  { key: 'cleanClaimRate', label: 'Clean Claim Rate', target: 95, unit: '%', lowerIsBetter: false },
  { key: 'denialRate', label: 'Denial Rate', target: 5, unit: '%', lowerIsBetter: true },
  { key: 'netCollectionRate', label: 'Net Collection Rate', target: 95, unit: '%', lowerIsBetter: false },
  { key: 'firstPassResolutionRate', label: 'First Pass Resolution', target: 90, unit: '%', lowerIsBetter: false },
  { key: 'chargeCaptureAccuracy', label: 'Charge Capture Accuracy', target: 98, unit: '%', lowerIsBetter: false },
  { key: 'patientPaymentRate', label: 'Patient Payment Rate', target: 85, unit: '%', lowerIsBetter: false },
  { key: 'operatingMargin', label: 'Operating Margin', target: 15, unit: '%', lowerIsBetter: false },
  { key: 'billingCycleTime', label: 'Billing Cycle Time', target: 3, unit: 'days', lowerIsBetter: true },
  { key: 'billingProductivity', label: 'Billing Productivity', target: 25, unit: 'claims/hour', lowerIsBetter: false },
];

export type KpiStatus = 'On target' | 'Below target' | 'No data';

/** One rule for the cards, the tiles and the CSV export (the export uses the same targets). */
export function kpiStatus(definition: KpiDefinition, value: number | null): KpiStatus {
  if (value === null) return 'No data';
  const met = definition.lowerIsBetter ? value <= definition.target : value >= definition.target;
  return met ? 'On target' : 'Below target';
}

export const AR_AGING_BUCKETS = ['0-30', '31-60', '61-90', '91-120', '120+'] as const;

export const arAgingSchema = z.object({
  asOf: z.string(),
  totalCents: z.number().int(),
  buckets: z.array(z.object({ bucket: z.enum(AR_AGING_BUCKETS), amountCents: z.number().int(), percent: z.number() })),
});
export type ArAging = z.infer<typeof arAgingSchema>;

export const providerAnalyticsSchema = z.array(
  z.object({
    provider: z.string(),
    claimCount: z.number().int(),
    totalCollectionsCents: z.number().int(),
    collectionRate: rate,
    avgDaysAR: rate,
  }),
);
export type ProviderAnalytics = z.infer<typeof providerAnalyticsSchema>;

export const denialsByReasonSchema = z.array(
  z.object({ reason: z.string(), description: z.string(), count: z.number().int() }),
);
export type DenialsByReason = z.infer<typeof denialsByReasonSchema>;

/** The KPIs CSV is built in the browser; this records that it was exported (an audited export). */
export const kpiExportAuditSchema = z
  .object({
    periodDays: z
      .number()
      .int()
      .refine((n) => (KPI_PERIODS as readonly number[]).includes(n), { message: 'must be 7, 30, 60 or 90' }),
    rows: z.number().int().min(0).max(100),
  })
  .strict();
export type KpiExportAudit = z.infer<typeof kpiExportAuditSchema>;
