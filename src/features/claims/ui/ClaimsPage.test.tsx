import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { today } from '@/shared/api';
import { Toaster } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { createQueryClient } from '@/client/lib/query-client';
import type { ClaimOverview, ClaimPage, ClaimRow, ImportRejected } from '../claims.schema';
import ClaimsPage from './ClaimsPage';

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
// jsdom has no canvas; the charts' data tables carry the numbers these tests read.
vi.mock('react-chartjs-2', () => ({ Bar: () => null, Doughnut: () => null, Line: () => null }));

beforeAll(() => {
  // Radix Select and Dialog use pointer capture and scrolling, which jsdom does not implement.
  const element = Element.prototype as unknown as Record<string, unknown>;
  element.hasPointerCapture ??= () => false;
  element.releasePointerCapture ??= () => {};
  element.scrollIntoView ??= () => {};
});
afterEach(() => {
  apiFetch.mockReset();
  downloadCsv.mockReset();
});

function claim(overrides: Partial<ClaimRow>): ClaimRow {
  return {
    id: 1,
    patient: 'Ana Silva',
    accountNumber: 'ACC-2026-100001',
    procedure: '99213',
    provider: 'Dr. Sarah Mitchell',
    payer: 'Aetna',
    serviceDate: '2026-07-01',
    billedCents: 14_900,
    paidCents: 0,
    daysAR: 144,
    status: 'Denied',
    reason: 'CO-197',
    denialDescription: 'Precertification or authorization was not obtained',
    ...overrides,
  };
}

const ITEMS = [
  claim({ id: 1 }),
  claim({
    id: 2,
    patient: 'Ben Okafor',
    accountNumber: 'ACC-2026-100002',
    daysAR: 75,
    status: 'Partially Paid',
    paidCents: 6_000,
    reason: 'PR-2',
    denialDescription: null,
  }),
  claim({
    id: 3,
    patient: 'Cara Diaz',
    accountNumber: 'ACC-2026-100003',
    daysAR: 12,
    status: 'Paid',
    paidCents: 10_000,
    reason: 'CO-45',
    denialDescription: null,
  }),
];

const OVERVIEW: ClaimOverview = {
  summary: { totalDeniedCents: 1_234_500, totalBilledCents: 98_765_400, claims: 3000, deniedClaims: 210 },
  denialsByPayer: [
    { payer: 'Medicaid', count: 60 },
    { payer: 'Aetna', count: 20 },
  ],
  topDenialReasons: [{ reason: 'CO-16', description: 'Claim is missing information or has billing errors', count: 40 }],
  weeklyTrend: [
    '2026-09-27',
    '2026-10-04',
    '2026-10-11',
    '2026-10-18',
    '2026-10-25',
    '2026-11-01',
    '2026-11-08',
    '2026-11-15',
  ].map((weekStart, i) => ({ weekStart, claims: 30 + i, paid: 20, denied: i })),
};

function answer(items: ClaimRow[] = ITEMS, overview: ClaimOverview = OVERVIEW) {
  return (path: string, init?: { method?: string; body?: unknown }) => {
    if (init?.method === 'POST') return Promise.reject(new Error(`unexpected POST ${path}`));
    if (path.startsWith('/api/claims/overview')) return Promise.resolve(overview);
    if (path.startsWith('/api/claims/export')) return Promise.resolve({ items });
    return Promise.resolve({ items, total: items.length, nextCursor: null } satisfies ClaimPage);
  };
}

function renderPage() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ClaimsPage role="billing_admin" />
      <Toaster />
    </QueryClientProvider>,
  );
}

const calls = () => apiFetch.mock.calls.map((c) => c[0] as string);

describe('ClaimsPage', () => {
  it('shows the summary line, the charts as data and the claims with their cues', async () => {
    apiFetch.mockImplementation(answer());
    renderPage();
    expect(await screen.findByText('Ana Silva')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('summary-total-denied').textContent).toBe('$12,345.00'));
    expect(screen.getByTestId('summary-total-billed').textContent).toBe('$987,654.00');
    expect(screen.getByTestId('summary-claims').textContent).toBe('3,000');
    // The charts load after the page (their own chunk): wait for them.
    const byPayer = await screen.findByRole('table', { name: 'Denials by Payer' }, { timeout: 10_000 });
    expect(
      within(byPayer)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['PayerDenied claims', 'Medicaid60', 'Aetna20']);
    expect(within(screen.getByRole('table', { name: 'Top Denial Reasons' })).getByText('CO-16')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Weekly Claims Trend' })).getAllByRole('row')).toHaveLength(9);

    const rows = within(screen.getByRole('table', { name: 'All Claims' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows[0]?.textContent).toContain('$149.00');
    // Days AR: a text cue as well as the colour.
    expect(within(rows[0]!).getByText('(over 90 days)')).toBeTruthy();
    expect(within(rows[1]!).getByText('(over 60 days)')).toBeTruthy();
    expect(within(rows[2]!).queryByText(/over \d+ days/)).toBeNull();
    // Only denied and partially paid claims can be appealed.
    const appeal = (account: string) => screen.getByRole('button', { name: `Appeal claim ${account}` });
    expect(appeal('ACC-2026-100001').hasAttribute('disabled')).toBe(false);
    expect(appeal('ACC-2026-100002').hasAttribute('disabled')).toBe(false);
    expect(appeal('ACC-2026-100003').hasAttribute('disabled')).toBe(true);
    expect(screen.getByText('Showing 3 of 3 claims')).toBeTruthy();
    expect(calls()).toContain('/api/claims?sort=serviceDate&dir=desc&limit=50');
    expect(calls()).toContain('/api/claims/overview');
  });

  it('filters by payer and by the reason code typed, on the server, and explains a bad code', async () => {
    apiFetch.mockImplementation(answer());
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Ana Silva');
    await user.click(screen.getByRole('combobox', { name: 'Payer' }));
    await user.click(await screen.findByRole('option', { name: 'Medicaid' }));
    await user.type(screen.getByLabelText('Reason code'), 'co 197');
    await waitFor(() => expect(calls()).toContain('/api/claims/overview?payer=Medicaid&reason=co+197'));
    expect(calls()).toContain('/api/claims?payer=Medicaid&reason=co+197&sort=serviceDate&dir=desc&limit=50');

    const before = apiFetch.mock.calls.length;
    await user.clear(screen.getByLabelText('Reason code'));
    await user.type(screen.getByLabelText('Reason code'), 'xyz!');
    expect(await screen.findByText('Reason code must be a CARC code such as CO 197, CO-197 or 197')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(
      calls()
        .slice(before)
        .some((path) => path.includes('xyz')),
    ).toBe(false);
  });

  it('shows the empty message when nothing matches', async () => {
    apiFetch.mockImplementation(answer([]));
    renderPage();
    expect(await screen.findByText('No claims found matching your search')).toBeTruthy();
  });

  it('exports the filtered claims as claims_{date}.csv', async () => {
    apiFetch.mockImplementation(answer());
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Ana Silva');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalledTimes(1));
    const [fileName, csv] = downloadCsv.mock.calls[0] as [string, string];
    expect(fileName).toBe(`claims_${today()}.csv`);
    const rows = Papa.parse<string[]>(csv.trim()).data;
    expect(rows[0]).toEqual([
      'Service Date',
      'Patient',
      'Account Number',
      'Procedure',
      'Provider',
      'Payer',
      'Billed',
      'Paid',
      'Days AR',
      'Status',
      'Reason',
      'Denial Description',
    ]);
    expect(rows[1]).toEqual([
      '2026-07-01',
      'Ana Silva',
      'ACC-2026-100001',
      '99213',
      'Dr. Sarah Mitchell',
      'Aetna',
      '149.00',
      '0.00',
      '144',
      'Denied',
      'CO-197',
      'Precertification or authorization was not obtained',
    ]);
    expect(rows).toHaveLength(4);
    expect(await screen.findByText('Claims exported')).toBeTruthy();
  });

  it('appeals a denied claim: the reason is required, then it is recorded and announced', async () => {
    const base = answer();
    apiFetch.mockImplementation((path: string, init?: { method?: string; body?: unknown }) =>
      init?.method === 'POST' ? Promise.resolve({ ...ITEMS[0], status: 'Appealed' }) : base(path, init),
    );
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Appeal claim ACC-2026-100001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Appeal claim' });
    await user.click(within(dialog).getByRole('button', { name: 'Submit appeal' }));
    expect(await within(dialog).findByText('Reason is required')).toBeTruthy();
    expect(apiFetch.mock.calls.some((c) => (c[1] as { method?: string } | undefined)?.method === 'POST')).toBe(false);

    await user.type(within(dialog).getByLabelText('Reason'), 'Authorization was on file');
    await user.type(within(dialog).getByLabelText('Note'), 'Auth A-5521');
    await user.click(within(dialog).getByRole('button', { name: 'Submit appeal' }));
    await waitFor(() =>
      expect(apiFetch).toHaveBeenCalledWith('/api/claims/1/appeals', {
        method: 'POST',
        body: { reason: 'Authorization was on file', note: 'Auth A-5521' },
      }),
    );
    expect(await screen.findByText('Appeal recorded')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('uploads a CSV: shows the row-by-row report of a refused file, then imports a good one', async () => {
    const report: ImportRejected = {
      error: { code: 'IMPORT_INVALID', message: '1 problem in 1 row: nothing was imported.' },
      errors: [{ row: 3, field: 'serviceDate', message: 'must be a real calendar date' }],
      errorCount: 1,
    };
    let attempt = 0;
    const base = answer();
    apiFetch.mockImplementation((path: string, init?: { method?: string; body?: unknown }) => {
      if (init?.method !== 'POST') return base(path, init);
      attempt += 1;
      return attempt === 1
        ? Promise.reject(new ApiError(400, '400: …', 'IMPORT_INVALID', report.error.message, [], null, report))
        : Promise.resolve({ imported: 2 });
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Ana Silva');
    await user.click(screen.getByRole('button', { name: 'Upload File' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload claims' });
    const bad = new File(['accountNumber\nx'], 'bad.csv', { type: 'text/csv' });
    await user.upload(within(dialog).getByLabelText('CSV file'), bad);
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    const problems = await within(dialog).findByRole('table', { name: 'Problems in the file' });
    expect(within(problems).getAllByRole('row')[1]?.textContent).toBe('3serviceDatemust be a real calendar date');
    expect(within(dialog).getByText('1 problem in 1 row: nothing was imported.')).toBeTruthy();
    expect(apiFetch).toHaveBeenCalledWith('/api/claims/import', { method: 'POST', body: { csv: 'accountNumber\nx' } });

    const good = new File(['accountNumber\ny'], 'good.csv', { type: 'text/csv' });
    await user.upload(within(dialog).getByLabelText('CSV file'), good);
    expect(within(dialog).queryByRole('table', { name: 'Problems in the file' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Claims imported')).toBeTruthy();
    expect(screen.getByText('2 claims added')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('offers the import template with every column', async () => {
    apiFetch.mockImplementation(answer());
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Upload File' }));
    await user.click(await screen.findByRole('button', { name: 'Download template' }));
    const [fileName, csv] = downloadCsv.mock.calls[0] as [string, string];
    expect(fileName).toBe('claims_template.csv');
    expect(Papa.parse<string[]>(csv.trim()).data[0]).toEqual([
      'accountNumber',
      'patientMrn',
      'procedureCode',
      'provider',
      'payer',
      'serviceDate',
      'billedAmount',
      'status',
      'reasonCode',
    ]);
  });
});
