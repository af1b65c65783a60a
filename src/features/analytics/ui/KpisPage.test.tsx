import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi, pending, type FakeApi } from '@/testing/fake-api';
import { catchDownloads, type Download } from '@/testing/ui-browser';
import { renderWithApp } from '@/testing/ui-render';
import { KPI_DEFINITIONS, type KpiResult } from '../analytics.schema';
import KpisPage, { MIN_REFRESH_SPINNER_MS } from './KpisPage';

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

const KPIS_PATH = '/api/claims/analytics/kpis';
const EXPORTS = 'POST /api/claims/analytics/kpis/exports';

/** The KPIs for each period asked for; the export is recorded with a 204, as the server does. */
function answer(byPeriod: Record<number, KpiResult>): FakeApi {
  return fakeApi({
    [`GET ${KPIS_PATH}`]: ({ query }) => byPeriod[Number(query.get('periodDays'))],
    [EXPORTS]: undefined,
  });
}

function kpiUrls(api: FakeApi): string[] {
  return api.sent(`GET ${KPIS_PATH}`).map((r) => r.url);
}

const SERVER_DOWN = apiError(500, 'INTERNAL', 'The server could not complete the request.');

function renderPage() {
  return renderWithApp(<KpisPage />, { route: '/kpis' });
}

const text = (testId: string) => screen.getByTestId(testId).textContent;

describe('KpisPage', () => {
  it('shows skeletons under the title while loading', () => {
    fakeApi({ [`GET ${KPIS_PATH}`]: pending });
    renderPage();
    expect(screen.getByRole('heading', { name: 'Key Performance Indicators', level: 1 })).toBeTruthy();
    expect(screen.getByLabelText('Loading Total Claims Volume')).toBeTruthy();
    expect(screen.getByLabelText('Loading Days in A/R')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export' })).toHaveProperty('disabled', true);
  });

  it('shows the three summaries and the ten KPIs with target, progress and status', async () => {
    const api = answer({ 30: kpis() });
    renderPage();
    expect(await screen.findByTestId('summary-total-claims')).toBeTruthy();
    expect(kpiUrls(api)).toContain('/api/claims/analytics/kpis?periodDays=30');
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
    const api = answer({ 30: kpis(), 90: kpis({ periodDays: 90, periodStart: '2026-08-25', totalClaims: 4321 }) });
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('summary-total-claims');
    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    await user.click(await screen.findByRole('option', { name: 'Last 90 days' }));
    await waitFor(() => expect(text('summary-total-claims')).toBe('4,321'));
    expect(kpiUrls(api)).toContain('/api/claims/analytics/kpis?periodDays=90');
    expect(screen.getByText(/Aug 25, 2026 to Nov 22, 2026/)).toBeTruthy();
  });

  it('refetches on Refresh and shows the spinner for at least half a second', async () => {
    const api = answer({ 30: kpis() });
    renderPage();
    await screen.findByTestId('summary-total-claims');
    // The spinner's minimum time is a timeout: a fake clock moves past it instead of waiting for it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const calls = kpiUrls(api).length;
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(screen.getByText('Refreshing key performance indicators')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Refresh/ })).toHaveProperty('disabled', true);
    await act(() => vi.advanceTimersByTimeAsync(MIN_REFRESH_SPINNER_MS - 1));
    // The server has answered by now; the spinner stays for its minimum time all the same.
    expect(kpiUrls(api).length).toBe(calls + 1);
    expect(screen.getByText('Refreshing key performance indicators')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(1));
    await vi.waitFor(() => expect(screen.queryByText('Refreshing key performance indicators')).toBeNull());
    expect(kpiUrls(api).length).toBe(calls + 1);
  });

  it('refetches the KPIs every 30 seconds, which moves the Last updated time', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setInterval', 'clearInterval', 'setTimeout', 'Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-22T09:00:00'));
      const api = answer({ 30: kpis() });
      renderPage();
      await screen.findByTestId('summary-total-claims');
      expect(text('kpi-last-updated')).toBe('Last updated 9:00:00 AM');
      const calls = kpiUrls(api).length;
      await vi.advanceTimersByTimeAsync(30_000);
      await waitFor(() => expect(kpiUrls(api).length).toBe(calls + 1));
      await waitFor(() => expect(text('kpi-last-updated')).toBe('Last updated 9:00:30 AM'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('records the export, then downloads the ten KPIs with the statuses the cards show', async () => {
    const api = answer({ 30: kpis() });
    const downloads = catchDownloads();
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('summary-total-claims');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(api.sent(EXPORTS).map((r) => r.body)).toEqual([{ periodDays: 30, rows: 10 }]);
    const [{ fileName, blob }] = downloads as [Download];
    expect(fileName).toBe('kpis_30d_2026-11-22.csv');
    const rows = Papa.parse<string[]>((await blob.text()).trim()).data;
    expect(rows[0]).toEqual(['KPI', 'Value', 'Unit', 'Target', 'Direction', 'Status']);
    expect(rows.slice(1)).toHaveLength(10);
    expect(rows[1]).toEqual(['Days in A/R', '33.4', 'days', '30', 'lower is better', 'Below target']);
    expect(rows[6]).toEqual(['Charge Capture Accuracy', '', '%', '98', 'higher is better', 'No data']);
    for (const [i, definition] of KPI_DEFINITIONS.entries())
      expect(rows[i + 1]![5]).toBe(text(`kpi-status-${definition.key}`));
  });

  it('downloads nothing when the export cannot be recorded', async () => {
    answer({ 30: kpis() }).on(EXPORTS, SERVER_DOWN);
    const downloads = catchDownloads();
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('summary-total-claims');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('Export failed')).toBeTruthy();
    expect(downloads).toEqual([]);
  });

  it('offers to try again when the KPIs cannot be loaded', async () => {
    let asked = 0;
    fakeApi({ [`GET ${KPIS_PATH}`]: () => (++asked === 1 ? SERVER_DOWN : kpis()) });
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('The key performance indicators could not be loaded.')).toBeTruthy();
    // Nothing is on its way any more: the header says so instead of 'Loading…'.
    expect(screen.getByTestId('kpi-last-updated').textContent).toBe('Not loaded');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('summary-total-claims')).toBeTruthy();
  });
});

describe('Charge Capture drill-down', () => {
  it('lists the completed visits without a claim for the period shown, in words and 12-hour times', async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      [`GET ${KPIS_PATH}`]: kpis({ chargeCaptureAccuracy: 97.5 }),
      [`GET ${KPIS_PATH}/charge-capture/missed`]: {
        periodDays: 30,
        periodStart: '2026-10-24',
        periodEnd: '2026-11-22',
        visits: [
          {
            appointmentId: 9,
            date: '2026-11-20',
            time: '14:30',
            patientId: 4,
            patientName: 'James Wilson',
            provider: 'Dr. Emily Carter',
            reason: 'Follow-up',
          },
          {
            appointmentId: 8,
            date: '2026-11-03',
            time: '09:00',
            patientId: 4,
            patientName: 'James Wilson',
            provider: 'Dr. Emily Carter',
            reason: 'Lab results review',
          },
        ],
      },
    });
    renderPage();
    const card = await screen.findByTestId('kpi-card-chargeCaptureAccuracy');
    // Nothing names a patient until the drill-down is opened.
    expect(api.sent(`GET ${KPIS_PATH}/charge-capture/missed`)).toHaveLength(0);
    await user.click(within(card).getByRole('button', { name: 'Show missed visits' }));
    const dialog = await screen.findByRole('dialog', { name: 'Completed visits without a claim' });
    const table = await within(dialog).findByRole('table', { name: 'Completed visits without a claim' });
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) =>
          within(r)
            .getAllByRole('cell')
            .map((c) => c.textContent),
        ),
    ).toEqual([
      ['Nov 20, 2026', '2:30 PM', 'James Wilson', 'Dr. Emily Carter', 'Follow-up'],
      ['Nov 3, 2026', '9:00 AM', 'James Wilson', 'Dr. Emily Carter', 'Lab results review'],
    ]);
    expect(api.sent(`GET ${KPIS_PATH}/charge-capture/missed`).map((r) => r.url)).toEqual([
      `${KPIS_PATH}/charge-capture/missed?periodDays=30`,
    ]);
    // The other KPIs have no drill-down.
    expect(within(screen.getByTestId('kpi-card-denialRate')).queryByRole('button')).toBeNull();
  });
});
