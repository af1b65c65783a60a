import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/client/components/ui/toast';
import { createQueryClient } from '@/client/lib/query-client';
import { KPI_DEFINITIONS, type KpiResult } from '../analytics.schema';
import KpisPage, { MIN_REFRESH_SPINNER_MS } from './KpisPage';

const apiFetch = vi.fn();
const downloadCsv = vi.fn();
vi.mock('@/client/lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  apiFetch: (...args: unknown[]) => apiFetch(...args) as unknown,
}));
vi.mock('@/client/lib/csv', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  downloadCsv: (...args: unknown[]) => downloadCsv(...args) as unknown,
}));

beforeAll(() => {
  // Radix Select measures and captures the pointer, which jsdom does not implement.
  const element = Element.prototype as unknown as Record<string, unknown>;
  element.hasPointerCapture ??= () => false;
  element.releasePointerCapture ??= () => {};
  element.scrollIntoView ??= () => {};
});
afterEach(() => {
  apiFetch.mockReset();
  downloadCsv.mockReset();
});

function kpis(overrides: Partial<KpiResult> = {}): KpiResult {
  return {
    periodDays: 30,
    periodStart: '2026-10-24',
    periodEnd: '2026-11-22',
    avgDaysAR: 33.4,
    cleanClaimRate: 96.2,
    denialRate: 4.1,
    netCollectionRate: 91.8,
    firstPassResolutionRate: 90,
    chargeCaptureAccuracy: null,
    patientPaymentRate: 86,
    operatingMargin: 14.9,
    billingCycleTime: 1.9,
    billingProductivity: 25,
    totalClaims: 1234,
    paidClaims: 600,
    deniedClaims: 12,
    totalPaidCents: 1_872_007,
    totalBilledCents: 2_801_900,
    revenueLostCents: 71_500,
    revenueAtRiskCents: 2_532_472,
    outstandingArCents: 2_532_472,
    openDenialsCents: 161_100,
    ...overrides,
  };
}

function answer(byPeriod: Record<number, KpiResult>) {
  apiFetch.mockImplementation((path: string) => {
    if (path.endsWith('/exports')) return Promise.resolve(undefined);
    const period = Number(/periodDays=(\d+)/.exec(path)?.[1]);
    return Promise.resolve(byPeriod[period]);
  });
}

function renderPage() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <KpisPage />
      <Toaster />
    </QueryClientProvider>,
  );
}

const text = (testId: string) => screen.getByTestId(testId).textContent;

describe('KpisPage', () => {
  it('shows skeletons under the title while loading', () => {
    apiFetch.mockReturnValue(new Promise(() => {}));
    renderPage();
    expect(screen.getByRole('heading', { name: 'Key Performance Indicators', level: 1 })).toBeTruthy();
    expect(screen.getByLabelText('Loading Total Claims Volume')).toBeTruthy();
    expect(screen.getByLabelText('Loading Days in A/R')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export' })).toHaveProperty('disabled', true);
  });

  it('shows the three summaries and the ten KPIs with target, progress and status', async () => {
    answer({ 30: kpis() });
    renderPage();
    expect(await screen.findByTestId('summary-total-claims')).toBeTruthy();
    expect(apiFetch).toHaveBeenCalledWith('/api/claims/analytics/kpis?periodDays=30', expect.anything());
    expect(text('summary-total-claims')).toBe('1,234');
    expect(text('summary-paid-claims')).toBe('600');
    expect(text('summary-denied-claims')).toBe('12');
    expect(text('summary-revenue-collected')).toBe('$18,720.07');
    expect(text('summary-billed')).toBe('$28,019.00');
    expect(text('summary-net-collection-rate')).toBe('91.8%');
    expect(text('summary-revenue-at-risk')).toBe('$25,324.72');
    expect(screen.getByText('Outstanding or denied amounts requiring action')).toBeTruthy();

    const cards = within(screen.getByRole('list', { name: 'Key performance indicators' })).getAllByRole('listitem');
    expect(cards).toHaveLength(10);
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(KPI_DEFINITIONS.map((d) => d.label));

    // Lower is better: 33.4 days misses the 30-day target; 91.8% of 95% is 97% of the way.
    expect(text('kpi-value-avgDaysAR')).toBe('33.4 days');
    expect(text('kpi-status-avgDaysAR')).toBe('Below target');
    expect(screen.getByText('Target ≤ 30 days')).toBeTruthy();
    const progress = screen.getByRole('progressbar', { name: 'Net Collection Rate: progress toward target' });
    expect(progress.getAttribute('aria-valuenow')).toBe('97');
    // Exactly on the target counts as met.
    expect(text('kpi-value-firstPassResolutionRate')).toBe('90%');
    expect(text('kpi-status-firstPassResolutionRate')).toBe('On target');
    expect(text('kpi-value-billingProductivity')).toBe('25 claims/hour');
    expect(text('kpi-status-billingProductivity')).toBe('On target');
    // Null: no made-up number.
    expect(text('kpi-value-chargeCaptureAccuracy')).toBe('No data');
    expect(text('kpi-status-chargeCaptureAccuracy')).toBe('No data');
    expect(
      screen
        .getByRole('progressbar', { name: 'Charge Capture Accuracy: progress toward target' })
        .getAttribute('aria-valuetext'),
    ).toBe('No data');
    expect(text('kpi-last-updated')).toMatch(/^Last updated \d{1,2}:\d{2}:\d{2} [AP]M$/);
  });

  it('asks for the chosen period', async () => {
    answer({ 30: kpis(), 90: kpis({ periodDays: 90, periodStart: '2026-08-25', totalClaims: 4321 }) });
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('summary-total-claims');
    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    await user.click(await screen.findByRole('option', { name: 'Last 90 days' }));
    await waitFor(() => expect(text('summary-total-claims')).toBe('4,321'));
    expect(apiFetch).toHaveBeenCalledWith('/api/claims/analytics/kpis?periodDays=90', expect.anything());
    expect(screen.getByText(/2026-08-25 to 2026-11-22/)).toBeTruthy();
  });

  it('refetches on Refresh and shows the spinner for at least half a second', async () => {
    answer({ 30: kpis() });
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('summary-total-claims');
    const calls = apiFetch.mock.calls.length;
    const started = Date.now();
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(screen.getByText('Refreshing key performance indicators')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Refresh/ })).toHaveProperty('disabled', true);
    await waitFor(() => expect(screen.queryByText('Refreshing key performance indicators')).toBeNull(), {
      timeout: 2000,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(MIN_REFRESH_SPINNER_MS - 20);
    expect(apiFetch.mock.calls.length).toBe(calls + 1);
  });

  it('refetches the KPIs every 30 seconds, which moves the Last updated time', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setInterval', 'clearInterval', 'setTimeout', 'Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-22T09:00:00'));
      answer({ 30: kpis() });
      renderPage();
      await screen.findByTestId('summary-total-claims');
      expect(text('kpi-last-updated')).toBe('Last updated 9:00:00 AM');
      const calls = apiFetch.mock.calls.length;
      await vi.advanceTimersByTimeAsync(30_000);
      await waitFor(() => expect(apiFetch.mock.calls.length).toBe(calls + 1));
      await waitFor(() => expect(text('kpi-last-updated')).toBe('Last updated 9:00:30 AM'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('records the export, then downloads the ten KPIs with the statuses the cards show', async () => {
    answer({ 30: kpis() });
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('summary-total-claims');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalledTimes(1));
    expect(apiFetch).toHaveBeenCalledWith('/api/claims/analytics/kpis/exports', {
      method: 'POST',
      body: { periodDays: 30, rows: 10 },
    });
    const [fileName, csv] = downloadCsv.mock.calls[0] as [string, string];
    expect(fileName).toBe('kpis_30d_2026-11-22.csv');
    const rows = Papa.parse<string[]>(csv.trim()).data;
    expect(rows[0]).toEqual(['KPI', 'Value', 'Unit', 'Target', 'Direction', 'Status']);
    expect(rows.slice(1)).toHaveLength(10);
    expect(rows[1]).toEqual(['Days in A/R', '33.4', 'days', '30', 'lower is better', 'Below target']);
    expect(rows[6]).toEqual(['Charge Capture Accuracy', '', '%', '98', 'higher is better', 'No data']);
    for (const [i, definition] of KPI_DEFINITIONS.entries())
      expect(rows[i + 1]![5]).toBe(text(`kpi-status-${definition.key}`));
  });

  it('downloads nothing when the export cannot be recorded', async () => {
    apiFetch.mockImplementation((path: string) =>
      path.endsWith('/exports') ? Promise.reject(new Error('500: down')) : Promise.resolve(kpis()),
    );
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('summary-total-claims');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('Export failed')).toBeTruthy();
    expect(downloadCsv).not.toHaveBeenCalled();
  });

  it('offers to try again when the KPIs cannot be loaded', async () => {
    apiFetch.mockRejectedValueOnce(new Error('500: down')).mockResolvedValue(kpis());
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('The key performance indicators could not be loaded.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('summary-total-claims')).toBeTruthy();
  });
});
