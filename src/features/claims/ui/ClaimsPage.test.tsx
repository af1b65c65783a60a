import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, reply, type FakeApi, type Route } from '@/testing/fake-api';
import { TEST_TODAY } from '@/testing/test-clock';
import { catchDownloads, type Download } from '@/testing/ui-browser';
import { renderWithApp } from '@/testing/ui-render';
import type { ClaimAppeal, ClaimDetail, ClaimOverview, ClaimPage, ClaimRow, ImportRejected } from '../claims.schema';
import ClaimsPage from './ClaimsPage';

// The test DOM has no canvas; the charts' data tables carry the numbers these tests read.
vi.mock('react-chartjs-2', () => ({ Bar: () => null, Doughnut: () => null, Line: () => null }));

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
    balanceCents: 14_900,
    status: 'Denied',
    frequencyCode: '1',
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

/** The list, the overview and the export; a POST is answered only where a test adds it. */
function serve(items: ClaimRow[] = ITEMS, overview: ClaimOverview = OVERVIEW, more: Record<string, Route> = {}) {
  return fakeApi({
    'GET /api/claims': { items, total: items.length, nextCursor: null } satisfies ClaimPage,
    'GET /api/claims/overview': overview,
    'GET /api/claims/export': { items: items.map((c) => ({ ...c, patientMrn: '*******01' })) },
    'GET /api/claims/providers': [
      { id: 4, name: 'Dr. James Chen' },
      { id: 2, name: 'Dr. Sarah Mitchell' },
    ],
    ...more,
  });
}

function renderPage(route = '/claims', role: 'billing_admin' | 'doctor' = 'billing_admin') {
  return renderWithApp(<ClaimsPage role={role} batchesView={null} />, { route });
}

const calls = (api: FakeApi) => api.requests.map((r) => r.url);

describe('ClaimsPage', () => {
  it('shows the summary line, the charts as data and the claims with their cues', async () => {
    const api = serve();
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
    expect(calls(api)).toContain('/api/claims?sort=serviceDate&dir=desc&limit=50');
    expect(calls(api)).toContain('/api/claims/overview');
  });

  it('filters by payer and by the reason code typed, on the server, and explains a bad code', async () => {
    // The reason filter follows the text after a pause in typing: a fake clock runs past it, not a sleep.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = serve();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderPage();
    await screen.findByText('Ana Silva');
    await user.click(screen.getByRole('combobox', { name: 'Payer' }));
    await user.click(await screen.findByRole('option', { name: 'Medicaid' }));
    await user.type(screen.getByLabelText('Reason code'), 'co 197');
    await waitFor(() => expect(calls(api)).toContain('/api/claims/overview?payer=Medicaid&reason=co+197'));
    expect(calls(api)).toContain('/api/claims?payer=Medicaid&reason=co+197&sort=serviceDate&dir=desc&limit=50');

    const before = api.requests.length;
    await user.clear(screen.getByLabelText('Reason code'));
    await user.type(screen.getByLabelText('Reason code'), 'xyz!');
    expect(await screen.findByText('Reason code must be a CARC code such as CO 197, CO-197 or 197')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    // The results are cleared, not left showing as if they matched the bad code.
    expect(screen.queryByText('Ana Silva')).toBeNull();
    expect(screen.getByText('No claims shown: the reason code is not valid')).toBeTruthy();
    expect(screen.getByText('Showing 0 of 0 claims')).toBeTruthy();
    expect(screen.getByText('No claims are shown until the reason code is a CARC code.')).toBeTruthy();
    expect(screen.queryByLabelText('Summary for the current filters')).toBeNull();
    expect(screen.getByRole('button', { name: /Export CSV/ }).hasAttribute('disabled')).toBe(true);
    expect(
      calls(api)
        .slice(before)
        .some((path) => path.includes('xyz')),
    ).toBe(false);
  });

  it('opens the view the address gives: filters, search, sort and page', async () => {
    const api = serve();
    renderPage(
      '/claims?search=Maria&payer=Aetna&status=Denied&provider=4&from=2026-09-01&to=2026-10-31&sort=billedCents&dir=asc&page=3',
    );
    await screen.findByText('Ana Silva');
    const query = 'payer=Aetna&search=Maria&status=Denied&providerId=4&from=2026-09-01&to=2026-10-31';
    // Page 3 opened from a link (no cursor) is fetched by offset.
    expect(calls(api)).toContain(`/api/claims?${query}&sort=billedCents&dir=asc&limit=50&offset=100`);
    expect(calls(api)).toContain(`/api/claims/overview?${query}`);
    expect(screen.getByRole<HTMLInputElement>('searchbox').value).toBe('Maria');
    expect(screen.getByRole('combobox', { name: 'Status' }).textContent).toBe('Denied');
    expect(await screen.findByText('Dr. James Chen')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Service from').value).toBe('2026-09-01');
    expect(screen.getByRole('columnheader', { name: /Billed/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(screen.getByText(/^Page 3 of /)).toBeTruthy();
  });

  it('filters by status, provider and service dates, and refuses a range that ends before it starts', async () => {
    const api = serve();
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Ana Silva');
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Partially Paid' }));
    await waitFor(() => expect(calls(api)).toContain('/api/claims/overview?status=Partially+Paid'));
    await user.click(screen.getByRole('combobox', { name: 'Provider' }));
    await user.click(await screen.findByRole('option', { name: 'Dr. James Chen' }));
    await waitFor(() => expect(calls(api)).toContain('/api/claims/overview?status=Partially+Paid&providerId=4'));
    await user.type(screen.getByLabelText('Service from'), '2026-10-01');
    await user.type(screen.getByLabelText('Service to'), '2026-09-01');
    expect(await screen.findByText('Service to must be on or after the From date')).toBeTruthy();
    expect(calls(api).some((path) => path.includes('to=2026-09-01'))).toBe(false);
    expect(calls(api)).toContain('/api/claims/overview?status=Partially+Paid&providerId=4&from=2026-10-01');
  });

  it("says what Total Denied counts and shows each claim's balance", async () => {
    serve();
    renderPage();
    await screen.findByText('Ana Silva');
    expect(screen.getByText('Total Denied (first pass)')).toBeTruthy();
    expect(screen.getByText(/it is not the amount still open on denied claims/)).toBeTruthy();
    const table = screen.getByRole('table', { name: 'All Claims' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toContain('Balance');
    const balanceAt = headers.indexOf('Balance');
    expect(within(table).getAllByRole('row')[1]?.querySelectorAll('td')[balanceAt]?.textContent).toBe('$149.00');
    // Dates read as people write them, not as ISO.
    const dateAt = headers.findIndex((h) => h?.startsWith('Service Date'));
    expect(within(table).getAllByRole('row')[1]?.querySelectorAll('td')[dateAt]?.textContent).toBe('Jul 1, 2026');
  });

  it('shows the empty message when nothing matches', async () => {
    serve([]);
    renderPage();
    expect(await screen.findByText('No claims found matching your search')).toBeTruthy();
  });

  it('exports the filtered claims as claims_{date}.csv', async () => {
    // The file is named for today: the clock is fixed so the name is known.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(`${TEST_TODAY}T10:00:00`));
    serve();
    const downloads = catchDownloads();
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Ana Silva');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    const [{ fileName, blob }] = downloads as [Download];
    expect(fileName).toBe(`claims_${TEST_TODAY}.csv`);
    const rows = Papa.parse<string[]>((await blob.text()).trim()).data;
    expect(rows[0]).toEqual([
      'accountNumber',
      'patientMrn',
      'procedureCode',
      'provider',
      'payer',
      'serviceDate',
      'billedAmount',
      'status',
      'reasonCode',
      'patient',
      'paidAmount',
      'balanceAmount',
      'daysAR',
      'denialDescription',
    ]);
    expect(rows[1]).toEqual([
      'ACC-2026-100001',
      '*******01',
      '99213',
      'Dr. Sarah Mitchell',
      'Aetna',
      '2026-07-01',
      '149.00',
      'Denied',
      'CO-197',
      'Ana Silva',
      '0.00',
      '149.00',
      '144',
      'Precertification or authorization was not obtained',
    ]);
    expect(rows).toHaveLength(4);
    expect(await screen.findByText('Claims exported')).toBeTruthy();
  });

  it('appeals a denied claim: the reason is required, then it is recorded and announced', async () => {
    const api = serve(ITEMS, OVERVIEW, { 'POST /api/claims/1/appeals': { ...ITEMS[0], status: 'Appealed' } });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Appeal claim ACC-2026-100001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Appeal claim' });
    await user.click(within(dialog).getByRole('button', { name: 'Submit appeal' }));
    expect(await within(dialog).findByText('Reason is required')).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);

    await user.type(within(dialog).getByLabelText('Reason'), 'Authorization was on file');
    await user.type(within(dialog).getByLabelText('Note'), 'Auth A-5521');
    await user.selectOptions(within(dialog).getByLabelText('Level'), 'Second level');
    await user.type(within(dialog).getByLabelText('Deadline'), '2027-01-18');
    await user.click(within(dialog).getByRole('button', { name: 'Submit appeal' }));
    await waitFor(() =>
      expect(api.sent('POST /api/claims/1/appeals').map((r) => r.body)).toEqual([
        { reason: 'Authorization was on file', note: 'Auth A-5521', level: 'second', deadline: '2027-01-18' },
      ]),
    );
    expect(await screen.findByText('Appeal recorded')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("shows a claim's history: each appeal's level, deadline and outcome, and records an outcome", async () => {
    const appealed = claim({ status: 'Appealed' });
    const history: ClaimAppeal[] = [
      {
        id: 7,
        level: 'first',
        reason: 'Coding corrected',
        note: '',
        deadline: '2026-10-02',
        filedAt: '2026-09-01T15:30:00Z',
        filedBy: 'Billing Admin',
        outcome: 'lost',
        outcomeAmountCents: 0,
        decidedOn: '2026-09-20',
      },
      {
        id: 9,
        level: 'external',
        reason: 'Independent review',
        note: 'Records sent',
        deadline: '2027-01-18',
        filedAt: '2026-10-01T15:30:00Z',
        filedBy: 'Billing Admin',
        outcome: null,
        outcomeAmountCents: null,
        decidedOn: null,
      },
    ];
    const api = serve([appealed], OVERVIEW, {
      'GET /api/claims/1/appeals': history,
      'POST /api/claims/1/appeals/9/outcome': { ...appealed, status: 'Partially Paid', paidCents: 5_000 },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'History of claim ACC-2026-100001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Claim history' });
    const items = within(await within(dialog).findByRole('list', { name: 'Appeals' })).getAllByRole('listitem');
    expect(items[0]?.textContent).toContain('First level appeal');
    expect(items[0]?.textContent).toContain('Deadline: Oct 2, 2026');
    expect(items[0]?.textContent).toContain('Outcome: Lost, $0.00 on Sep 20, 2026');
    expect(items[1]?.textContent).toContain('External review appeal');
    expect(items[1]?.textContent).toContain('Deadline: Jan 18, 2027');
    expect(items[1]?.textContent).toContain('Outcome: awaiting the payer');
    await user.selectOptions(within(items[1]!).getByLabelText('Outcome'), 'Partly won');
    await user.type(within(items[1]!).getByLabelText('Amount paid'), '50.00');
    await user.click(within(items[1]!).getByRole('button', { name: 'Record outcome' }));
    await waitFor(() =>
      expect(api.sent('POST /api/claims/1/appeals/9/outcome').map((r) => r.body)).toEqual([
        { outcome: 'partial', amountCents: 5_000 },
      ]),
    );
    expect(await screen.findByText('Appeal outcome recorded')).toBeTruthy();
  });

  it('uploads a CSV: shows the row-by-row report of a refused file, then imports a good one', async () => {
    const report: ImportRejected = {
      error: { code: 'IMPORT_INVALID', message: '1 problem in 1 row: nothing was imported.' },
      errors: [{ row: 3, field: 'serviceDate', message: 'must be a real calendar date' }],
      errorCount: 1,
      warnings: [],
    };
    let attempt = 0;
    const api = serve(ITEMS, OVERVIEW, {
      'POST /api/claims/import': () => (++attempt === 1 ? reply(400, report) : { imported: 2, warnings: [] }),
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
    expect(api.sent('POST /api/claims/import').map((r) => r.body)).toEqual([{ csv: 'accountNumber\nx' }]);

    const good = new File(['accountNumber\ny'], 'good.csv', { type: 'text/csv' });
    await user.upload(within(dialog).getByLabelText('CSV file'), good);
    expect(within(dialog).queryByRole('table', { name: 'Problems in the file' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Claims imported')).toBeTruthy();
    expect(screen.getByText('2 claims added')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('lists the charges to check: with the problems of a refused file, and after an import, which stays open on them', async () => {
    const warning = {
      row: 2,
      field: 'billedAmount',
      message: '$999,999.00 is above the usual ceiling of $170.00 for 36415: check the amount',
    };
    const report: ImportRejected = {
      error: { code: 'IMPORT_INVALID', message: '1 problem in 1 row: nothing was imported.' },
      errors: [{ row: 3, field: 'serviceDate', message: 'cannot be in the future' }],
      errorCount: 1,
      warnings: [warning],
    };
    let attempt = 0;
    serve(ITEMS, OVERVIEW, {
      'POST /api/claims/import': () => (++attempt === 1 ? reply(400, report) : { imported: 2, warnings: [warning] }),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Ana Silva');
    await user.click(screen.getByRole('button', { name: 'Upload File' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload claims' });
    await user.upload(within(dialog).getByLabelText('CSV file'), new File(['a\nb'], 'a.csv', { type: 'text/csv' }));
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    const toCheck = await within(dialog).findByRole('table', { name: 'Charges to check' });
    expect(within(toCheck).getAllByRole('row')[1]?.textContent).toBe(`2billedAmount${warning.message}`);

    await user.upload(within(dialog).getByLabelText('CSV file'), new File(['a\nc'], 'b.csv', { type: 'text/csv' }));
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('2 claims added')).toBeTruthy();
    expect(
      await within(dialog).findByText(
        '1 charge to check: imported. Void a claim on the Claims list if its amount was a mistake.',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByRole('table', { name: 'Charges to check' })).toBeTruthy();
    expect(within(dialog).queryByRole('table', { name: 'Problems in the file' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('voids a claim after a reason is given; a voided claim shows Voided and offers neither Void nor Appeal', async () => {
    const voided = claim({ id: 4, patient: 'Dan Wu', accountNumber: 'ACC-2026-100004', status: 'Voided' });
    const api = serve([...ITEMS, voided], OVERVIEW, {
      'POST /api/claims/:id/void': (r) => ({ ...ITEMS[0], status: 'Voided', ...(r.body as object) }),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Dan Wu');
    expect(screen.getByRole('button', { name: 'Void claim ACC-2026-100004' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Appeal claim ACC-2026-100004' }).hasAttribute('disabled')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Void claim ACC-2026-100001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Void claim ACC-2026-100001?' });
    // Denied: Aetna has the claim, and voiding it here does not tell Aetna.
    expect(within(dialog).getByText(/Aetna is not told: to cancel the claim Aetna has, open it and use Void at payer/));
    await user.click(within(dialog).getByRole('button', { name: 'Void claim' }));
    expect(await within(dialog).findByText('Reason is required')).toBeTruthy();
    expect(api.sent('POST /api/claims/:id/void')).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason'), 'Wrong amount in the imported file');
    await user.click(within(dialog).getByRole('button', { name: 'Void claim' }));
    expect(await screen.findByText('Claim ACC-2026-100001 no longer counts in the KPIs and totals.')).toBeTruthy();
    expect(api.sent('POST /api/claims/:id/void').map((r) => [r.path, r.body])).toEqual([
      ['/api/claims/1/void', { reason: 'Wrong amount in the imported file' }],
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says when voiding here leaves the claim the payer has: a Draft replacement or void of it, not an original', async () => {
    const drafts = [
      claim({ id: 7, accountNumber: 'ACC-2026-100007', status: 'Draft', frequencyCode: '7' }),
      claim({ id: 8, accountNumber: 'ACC-2026-100008', status: 'Draft', frequencyCode: '8' }),
      claim({ id: 9, accountNumber: 'ACC-2026-100009', status: 'Draft', frequencyCode: '1' }),
      // Sent: the payer has the replacement itself now.
      claim({ id: 10, accountNumber: 'ACC-2026-100010', status: 'Submitted', frequencyCode: '7' }),
    ];
    serve(drafts);
    const user = userEvent.setup();
    renderPage();
    const described = async (account: string) => {
      await user.click(await screen.findByRole('button', { name: `Void claim ${account}` }));
      const dialog = await screen.findByRole('dialog', { name: `Void claim ${account}?` });
      const text = dialog.textContent ?? '';
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      return text;
    };
    expect(await described('ACC-2026-100007')).toContain(
      'Aetna is not told: the claim Aetna has, which this replacement was to correct, stays as it is.',
    );
    expect(await described('ACC-2026-100008')).toContain(
      'Aetna is not told: the claim Aetna has, which this void was to cancel, stays as it is.',
    );
    expect(await described('ACC-2026-100009')).not.toContain('not told');
    expect(await described('ACC-2026-100010')).not.toContain('not told');
  });

  it('offers the import template with every column', async () => {
    serve();
    const downloads = catchDownloads();
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Upload File' }));
    await user.click(await screen.findByRole('button', { name: 'Download template' }));
    expect(downloads).toHaveLength(1);
    const [{ fileName, blob }] = downloads as [Download];
    expect(fileName).toBe('claims_template.csv');
    expect(Papa.parse<string[]>((await blob.text()).trim()).data[0]).toEqual([
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
  it('opens a claim from its View button, and offers New claim to those who may write claims', async () => {
    const detail: ClaimDetail = {
      id: 1,
      accountNumber: 'ACC-2026-100001',
      status: 'Denied',
      patient: { id: 3, name: 'Ana Silva', mrn: '*******01', dob: '1984-03-04' },
      provider: { id: 2, name: 'Dr. Sarah Mitchell', npi: null },
      payer: 'Aetna',
      coverage: null,
      placeOfService: '11',
      frequencyCode: '1',
      originalClaimNumber: null,
      referringProvider: null,
      serviceDate: '2026-07-01',
      submittedOn: '2026-07-02',
      adjudicatedOn: null,
      resolvedOn: null,
      billedCents: 14_900,
      paidCents: 0,
      contractualAdjustmentCents: 0,
      patientResponsibilityCents: 0,
      balanceCents: 14_900,
      handedOnCents: 0,
      priorPayersCents: 0,
      reason: 'CO-197',
      denialDescription: 'Precertification or authorization was not obtained',
      diagnoses: ['E11.9'],
      lines: [],
      lastScrub: null,
      submissions: [],
      history: [],
      primaryClaim: null,
      laterClaims: [],
      nextPolicy: null,
    };
    serve(ITEMS, OVERVIEW, { 'GET /api/claims/1': detail, 'GET /api/claims/patients': [] });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'View claim ACC-2026-100001' }));
    // The view is its own chunk, loaded on first opening.
    const view = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100001' }, { timeout: 10_000 });
    expect(await within(view).findByRole('heading', { name: 'Diagnoses' })).toBeTruthy();
    // A denied claim is neither edited nor scrubbed.
    expect(within(view).queryByRole('button', { name: /Edit/ })).toBeNull();
    await user.click(within(view).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'View claim ACC-2026-100001' }));

    await user.click(screen.getByRole('button', { name: 'New claim' }));
    expect(await screen.findByRole('dialog', { name: 'New claim' }, { timeout: 10_000 })).toBeTruthy();
  });

  it('shows View but neither New claim, Appeal nor Void to a role without claims:write', async () => {
    serve();
    renderPage('/claims', 'doctor');
    expect(await screen.findByRole('button', { name: 'View claim ACC-2026-100001' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New claim' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Appeal claim / })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Void claim / })).toBeNull();
  });
});
