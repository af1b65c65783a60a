import { screen, within } from '@testing-library/react';
import type { ChartOptions } from 'chart.js';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, pending } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import {
  KPI_DEFINITIONS,
  type ArAging,
  type DenialsByReason,
  type KpiResult,
  type ProviderAnalytics,
} from '../analytics.schema';
import AnalyticsPage from './AnalyticsPage';
import { formatThousands, progressTowardTarget } from './analytics.view';

// The test DOM has no canvas: the charts are stood in for by their props, which the test reads.
interface ChartProps {
  data: { labels: string[]; datasets: { data: number[] }[] };
  options: ChartOptions<'bar'> & ChartOptions<'doughnut'>;
}
const charts: Record<string, ChartProps> = {};
vi.mock('react-chartjs-2', () => ({
  Bar: (props: ChartProps) => {
    charts.bar = props;
    return <canvas data-testid="bar-chart" />;
  },
  Doughnut: (props: ChartProps) => {
    charts.doughnut = props;
    return <canvas data-testid="doughnut-chart" />;
  },
}));

const KPIS: KpiResult = {
  periodDays: 30,
  periodStart: '2026-10-24',
  periodEnd: '2026-11-22',
  avgDaysAR: 27.1,
  cleanClaimRate: 97,
  denialRate: 3.7,
  netCollectionRate: 91.8,
  firstPassResolutionRate: 91.4,
  chargeCaptureAccuracy: 100,
  patientPaymentRate: 77.9,
  operatingMargin: 23.6,
  billingCycleTime: 1.9,
  billingProductivity: 26.1,
  totalClaims: 181,
  paidClaims: 61,
  deniedClaims: 0,
  totalPaidCents: 1_872_007,
  totalBilledCents: 2_801_900,
  revenueLostCents: 71_500,
  revenueAtRiskCents: 2_532_472,
  outstandingArCents: 2_532_472,
  openDenialsCents: 161_100,
};

const AGING: ArAging = {
  asOf: '2026-11-22',
  totalCents: 2_000_000,
  buckets: [
    { bucket: '0-30', amountCents: 1_200_000, percent: 60 },
    { bucket: '31-60', amountCents: 400_000, percent: 20 },
    { bucket: '61-90', amountCents: 200_000, percent: 10 },
    { bucket: '91-120', amountCents: 0, percent: 0 },
    { bucket: '120+', amountCents: 200_000, percent: 10 },
  ],
};

const DENIALS: DenialsByReason = [
  { reason: 'CO-197', description: 'Precertification or authorization was not obtained', count: 8 },
  { reason: 'CO-16', description: 'Missing information or billing errors', count: 6 },
  { reason: 'CO-50', description: 'Not medically necessary per payer', count: 2 },
  { reason: 'CO-97', description: 'Bundled into another service already paid', count: 1 },
  { reason: 'OA-18', description: 'Exact duplicate claim or service', count: 1 },
  { reason: 'CO-4', description: 'Modifier missing or inconsistent with the procedure', count: 1 },
  { reason: 'CO-11', description: 'Diagnosis inconsistent with the procedure', count: 1 },
];

const PROVIDERS: ProviderAnalytics = [
  ['Dr. A', 3_000_000],
  ['Dr. B', 2_500_000],
  ['Dr. C', 2_000_000],
  ['Dr. D', 1_500_000],
  ['Dr. E', 1_000_000],
  ['Dr. F', 500_000],
].map(([provider, cents], i) => ({
  provider: provider as string,
  claimCount: 30 - i,
  totalCollectionsCents: cents as number,
  collectionRate: i === 5 ? null : 95 - i,
  avgDaysAR: 25 + i,
}));

function answer(overrides: { denials?: DenialsByReason; aging?: ArAging } = {}) {
  fakeApi({
    'GET /api/claims/analytics/kpis': KPIS,
    'GET /api/claims/analytics/ar-aging': overrides.aging ?? AGING,
    'GET /api/claims/analytics/denials-by-reason': overrides.denials ?? DENIALS,
    'GET /api/claims/analytics/provider': PROVIDERS,
  });
}

function renderPage() {
  return renderWithApp(<AnalyticsPage />, { route: '/analytics' });
}

describe('analytics view helpers', () => {
  it('writes axis amounts in thousands', () => {
    expect(formatThousands(12_000)).toBe('$12k');
    expect(formatThousands(2_500)).toBe('$2.5k');
    expect(formatThousands(0)).toBe('$0k');
  });

  it('measures progress toward a target either way, capped at 100', () => {
    const daysInAr = KPI_DEFINITIONS.find((d) => d.key === 'avgDaysAR')!;
    const cleanRate = KPI_DEFINITIONS.find((d) => d.key === 'cleanClaimRate')!;
    expect(progressTowardTarget(daysInAr, 60)).toBe(50); // 30 ÷ 60
    expect(progressTowardTarget(daysInAr, 20)).toBe(100);
    expect(progressTowardTarget(daysInAr, 0)).toBe(100);
    expect(progressTowardTarget(cleanRate, 76)).toBe(80); // 76 ÷ 95
    expect(progressTowardTarget(cleanRate, 99)).toBe(100);
    expect(progressTowardTarget(cleanRate, null)).toBeNull();
  });
});

describe('AnalyticsPage', () => {
  it('shows skeletons while loading', () => {
    fakeApi({
      'GET /api/claims/analytics/kpis': pending,
      'GET /api/claims/analytics/ar-aging': pending,
      'GET /api/claims/analytics/denials-by-reason': pending,
      'GET /api/claims/analytics/provider': pending,
    });
    renderPage();
    expect(screen.getByRole('heading', { name: 'RCM Analytics', level: 1 })).toBeTruthy();
    expect(screen.getByLabelText('Loading Days in A/R')).toBeTruthy();
    expect(screen.getByLabelText('Loading AR Aging')).toBeTruthy();
    expect(screen.getByLabelText('Loading Denial Reasons')).toBeTruthy();
  });

  it('shows ten KPI tiles, the AR aging chart in thousands with percentages, the top 6 denial reasons and the top 5 providers', async () => {
    answer();
    renderPage();
    expect(await screen.findByTestId('bar-chart')).toBeTruthy();
    expect(await screen.findByTestId('doughnut-chart')).toBeTruthy();
    const tiles = within(screen.getByRole('list', { name: 'Key performance indicators' })).getAllByRole('listitem');
    expect(tiles).toHaveLength(10);
    expect(screen.getByTestId('kpi-value-avgDaysAR').textContent).toBe('27.1 days');
    expect(screen.getByText(/^Outstanding A\/R as of Nov 22, 2026: /)).toBeTruthy();

    // AR aging: buckets labelled as days, the axis in thousands, the percentage in the tooltip.
    expect(charts.bar!.data.labels).toEqual(['0-30 days', '31-60 days', '61-90 days', '91-120 days', '120+ days']);
    expect(charts.bar!.data.datasets[0]!.data).toEqual([12_000, 4_000, 2_000, 0, 2_000]);
    const tick = charts.bar!.options.scales!.y!.ticks!.callback as (value: number) => string;
    expect(tick(12_000)).toBe('$12k');
    const barLabel = charts.bar!.options.plugins!.tooltip!.callbacks!.label as (ctx: { dataIndex: number }) => string;
    expect(barLabel({ dataIndex: 1 })).toBe('$4,000.00 (20% of outstanding A/R)');
    const agingTable = screen.getByRole('table', { name: 'AR Aging' });
    expect(within(agingTable).getAllByRole('row')).toHaveLength(6);
    expect(within(agingTable).getByRole('cell', { name: '0-30 days' })).toBeTruthy();

    // Denial reasons: the top 6 of 7; the tooltip gives the count and its share of all 20 denials.
    expect(charts.doughnut!.data.labels).toEqual(['CO-197', 'CO-16', 'CO-50', 'CO-97', 'OA-18', 'CO-4']);
    const doughnutLabel = charts.doughnut!.options.plugins!.tooltip!.callbacks!.label as (ctx: {
      dataIndex: number;
    }) => string;
    expect(doughnutLabel({ dataIndex: 0 })).toBe('CO-197 Precertification or authorization was not obtained: 8 (40%)');
    expect(screen.getByText('Top 6 CARC reasons, last 30 days (20 denials)')).toBeTruthy();

    // Providers: the top 5 by collections.
    const providerTable = screen.getByRole('table', { name: 'Top Provider Performance' });
    const rows = within(providerTable).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual([
      'Dr. A',
      'Dr. B',
      'Dr. C',
      'Dr. D',
      'Dr. E',
    ]);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Dr. A', '30', '$30,000.00', '95%', '25.0']);
    expect(screen.getByText('Top 5 of 6 providers by collections')).toBeTruthy();
  });

  it('shows empty states instead of charts when there is nothing to draw', async () => {
    answer({
      denials: [],
      aging: {
        asOf: '2026-11-22',
        totalCents: 0,
        buckets: AGING.buckets.map((b) => ({ ...b, amountCents: 0, percent: 0 })),
      },
    });
    renderPage();
    expect(await screen.findByText('No denials in this period')).toBeTruthy();
    expect(await screen.findByText('Nothing is outstanding')).toBeTruthy();
    expect(screen.queryByTestId('bar-chart')).toBeNull();
    expect(screen.queryByTestId('doughnut-chart')).toBeNull();
  });
});
