import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, type Route } from '@/testing/fake-api';
import { catchDownloads, catchPrint, type Download } from '@/testing/ui-browser';
import { ShowLocation, renderWithApp } from '@/testing/ui-render';
import type { KpiResult, ProviderAnalytics } from '@/features/analytics/analytics.schema';
import type { PayerPerformance } from '../billing.schema';
import BillingPage, { DenialTrend, PayerDenialBadge } from './BillingPage';
import { STATEMENT } from './billing.ui-testing';

const KPIS: KpiResult = {
  periodDays: 30,
  periodStart: '2026-10-24',
  periodEnd: '2026-11-22',
  avgDaysAR: 41.3,
  cleanClaimRate: 94.1,
  denialRate: 7,
  netCollectionRate: 96.25,
  firstPassResolutionRate: 88,
  chargeCaptureAccuracy: 99,
  patientPaymentRate: 80,
  operatingMargin: 12,
  billingCycleTime: 1.8,
  billingProductivity: 20,
  totalClaims: 170,
  paidClaims: 120,
  deniedClaims: 12,
  totalPaidCents: 1_424_193,
  totalBilledCents: 3_000_000,
  revenueLostCents: 10_000,
  revenueAtRiskCents: 500_000,
  outstandingArCents: 500_000,
  openDenialsCents: 80_000,
};

const PROVIDERS: ProviderAnalytics = [
  'Dr. Olivia Grant',
  'Dr. Emily Carter',
  'Dr. Ana Gutierrez',
  'Dr. Kenji Watanabe',
  'Dr. Sarah Mitchell',
  'Dr. Rajesh Iyer',
].map((provider, i) => ({
  provider,
  claimCount: 20 - i,
  totalCollectionsCents: 250_000 - i * 10_000,
  collectionRate: i === 5 ? null : 90 - i,
  avgDaysAR: 30 + i,
}));

const PERFORMANCE: PayerPerformance = {
  periodDays: 30,
  periodStart: '2026-10-24',
  periodEnd: '2026-11-22',
  payers: [
    { payer: 'Medicare', collectionsCents: 326_344, adjudicatedClaims: 38, deniedClaims: 2, denialRate: 5.3 },
    { payer: 'Humana', collectionsCents: 127_309, adjudicatedClaims: 13, deniedClaims: 2, denialRate: 15.4 },
    { payer: 'Cigna', collectionsCents: 100_000, adjudicatedClaims: 20, deniedClaims: 3, denialRate: 15 },
  ],
  denialTrend: { currentRate: 7, previousRate: 11, previousPeriodStart: '2026-09-24', previousPeriodEnd: '2026-10-23' },
};

const routes: Record<string, Route> = {
  'GET /api/claims/analytics/kpis': KPIS,
  'GET /api/claims/analytics/provider': PROVIDERS,
  'GET /api/billing/payer-performance': PERFORMANCE,
  // Two patients of one name, told apart by date of birth and MRN (masked for the billing admin).
  'GET /api/billing/patients': [
    { id: 1, name: 'Maria Lopez', dob: '1984-03-04', mrn: '********01' },
    { id: 2, name: 'Maria Lopez', dob: '1990-07-21', mrn: '********77' },
  ],
  'GET /api/billing/statements/1': STATEMENT,
  'POST /api/billing/statements/1/export': STATEMENT,
};

function renderPage() {
  return renderWithApp(<BillingPage />, { route: '/billing' });
}

function cellTexts(table: HTMLElement) {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );
}

describe('BillingPage', () => {
  it('shows the four cards for the last 30 days, the top 5 providers and the payers with their denial rates', async () => {
    const api = fakeApi(routes);
    renderPage();
    expect(screen.getByRole('heading', { name: 'Financial Summary & Billing', level: 1 })).toBeTruthy();
    expect(await screen.findByTestId('card-total-revenue')).toHaveProperty('textContent', '$14,241.93');
    expect(screen.getByTestId('card-collection-rate').textContent).toBe('96.3%');
    expect(screen.getByTestId('card-denial-rate').textContent).toBe('7.0%');
    expect(screen.getByTestId('card-avg-days-ar').textContent).toBe('41.3 days');
    expect(screen.getAllByText(/^Last 30 days: /)).toHaveLength(4);
    expect(api.sent('GET /api/claims/analytics/kpis')[0]?.url).toBe('/api/claims/analytics/kpis?periodDays=30');

    const providers = await screen.findByRole('table', { name: 'Top providers by revenue' });
    await waitFor(() => expect(cellTexts(providers)).toHaveLength(5));
    expect(cellTexts(providers)[0]).toEqual(['Dr. Olivia Grant', '20', '$2,500.00', '90.0%', '30.0']);
    expect(cellTexts(providers).map((r) => r[0])).not.toContain('Dr. Rajesh Iyer');

    const payers = screen.getByRole('table', { name: 'Payer performance' });
    expect(cellTexts(payers)).toEqual([
      ['Medicare', '$3,263.44', '38', '2', '5.3%'],
      ['Humana', '$1,273.09', '13', '2', '15.4% high'],
      ['Cigna', '$1,000.00', '20', '3', '15.0%'],
    ]);
    expect(within(payers).getByText('15.4% high').className).toContain('bg-destructive');
    expect(within(payers).getByText('15.0%').className).not.toContain('bg-destructive');
    expect(screen.getByTestId('denial-trend').textContent).toContain('Down 4.0 pts from 11.0% in the previous 30 days');
  });

  it('asks again for the chosen period', async () => {
    const user = userEvent.setup();
    const api = fakeApi(routes);
    renderPage();
    await screen.findByTestId('card-total-revenue');
    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    await user.click(await screen.findByRole('option', { name: '90 days' }));
    await waitFor(() =>
      expect(api.requests.map((r) => r.url)).toEqual(
        expect.arrayContaining([
          '/api/claims/analytics/kpis?periodDays=90',
          '/api/claims/analytics/provider?periodDays=90',
          '/api/billing/payer-performance?periodDays=90',
        ]),
      ),
    );
  });

  it('opens on the period the address names and writes a chosen period back to it', async () => {
    const user = userEvent.setup();
    const api = fakeApi(routes);
    renderWithApp(
      <>
        <BillingPage />
        <ShowLocation />
      </>,
      { route: '/billing?period=7' },
    );
    await screen.findByTestId('card-total-revenue');
    expect(api.sent('GET /api/claims/analytics/kpis').map((r) => r.url)).toEqual([
      '/api/claims/analytics/kpis?periodDays=7',
    ]);
    expect(screen.getByRole('combobox', { name: 'Period' }).textContent).toBe('7 days');
    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    await user.click(await screen.findByRole('option', { name: '60 days' }));
    expect(screen.getByTestId('location').textContent).toBe('/billing?period=60');
  });

  it('generates a statement for a chosen patient, exports it and prints it', async () => {
    const user = userEvent.setup();
    const print = catchPrint();
    const downloads = catchDownloads();
    const api = fakeApi(routes);
    renderPage();
    expect(screen.getByText('No patient selected')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export Statement' })).toHaveProperty('disabled', true);
    await user.type(screen.getByRole('combobox', { name: 'Patient' }), 'Mar');
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Maria Lopez DOB Mar 4, 1984 · MRN ********01',
      'Maria Lopez DOB Jul 21, 1990 · MRN ********77',
    ]);
    await user.click(options[0]!);
    expect(await screen.findByRole('heading', { name: 'Statement for Maria Lopez' })).toBeTruthy();
    expect(screen.getByTestId('statement-amount-due').textContent).toBe('$45.80');
    expect(screen.getByRole('table', { name: '3 most recent claims and every claim with an amount due' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Export Statement' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(api.sent('POST /api/billing/statements/1/export')).toHaveLength(1);
    expect((downloads[0] as Download).fileName).toBe('statement_patient-1_2026-11-22.csv');

    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
  });
});

describe('DenialTrend', () => {
  const trend = (currentRate: number | null, previousRate: number | null) => ({
    currentRate,
    previousRate,
    previousPeriodStart: '2026-09-24',
    previousPeriodEnd: '2026-10-23',
  });

  it('is red, with a written warning, when the denial rate is above 10 %, and points the way it moved', () => {
    render(<DenialTrend trend={trend(12.5, 10.5)} periodDays={30} />);
    const shown = screen.getByTestId('denial-trend');
    expect(shown.textContent).toBe('Up 2.0 pts from 10.5% in the previous 30 daysAbove the 10% alert level');
    expect(shown.className).toContain('text-destructive');
    expect(shown.querySelector('svg')?.getAttribute('class')).toContain('arrow-up');
  });

  it('is not red at exactly 10 %, even when rising', () => {
    render(<DenialTrend trend={trend(10, 8)} periodDays={7} />);
    const shown = screen.getByTestId('denial-trend');
    expect(shown.textContent).toBe('Up 2.0 pts from 8.0% in the previous 7 days');
    expect(shown.className).not.toContain('text-destructive');
  });

  it('says when there is nothing to compare', () => {
    render(<DenialTrend trend={trend(5, null)} periodDays={30} />);
    expect(screen.getByText('No earlier period to compare with')).toBeTruthy();
  });
});

describe('PayerDenialBadge', () => {
  it('is destructive only above 15 %', () => {
    render(
      <>
        <PayerDenialBadge rate={15.1} />
        <PayerDenialBadge rate={15} />
        <PayerDenialBadge rate={null} />
      </>,
    );
    expect(screen.getByText('15.1% high').className).toContain('bg-destructive');
    expect(screen.getByText('15.0%').className).toContain('bg-secondary');
    expect(screen.getByText('No data')).toBeTruthy();
  });
});
