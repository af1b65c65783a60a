import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending, type FakeApi } from '@/testing/fake-api';
import { catchDownloads, type Download } from '@/testing/ui-browser';
import { ShowLocation, renderWithApp } from '@/testing/ui-render';
import type { OverdueFollowUp, WorklistSummary } from '../worklist.schema';
import OverdueFollowupsPage from './OverdueFollowupsPage';

function item(overrides: Partial<OverdueFollowUp>): OverdueFollowUp {
  return {
    encounterId: 1,
    patientName: 'Ana Silva',
    phone: '(555) 214-7788',
    providerName: 'Dr. Sarah Mitchell',
    encounterDate: '2025-01-05',
    encounterType: 'Office Visit',
    chiefComplaint: 'Fatigue',
    diagnosis: ['E11.9 Type 2 diabetes without complications', 'I10 Essential hypertension'],
    daysOverdue: 200,
    priority: 'High',
    recommendedAction: 'Call patient today to schedule follow-up',
    ...overrides,
  };
}

const ROWS: OverdueFollowUp[] = [
  item({ encounterId: 1 }),
  item({
    encounterId: 2,
    patientName: 'Ben Okafor',
    providerName: 'Dr. Ana Gutierrez',
    daysOverdue: 45,
    priority: 'Medium',
    recommendedAction: 'Schedule follow-up within 1 week',
  }),
  item({
    encounterId: 3,
    patientName: 'Cara Diaz',
    providerName: 'Dr. Sarah Mitchell',
    diagnosis: ['=cmd|calc'],
    daysOverdue: 10,
    priority: 'Low',
    recommendedAction: 'Send reminder to schedule follow-up',
  }),
];

function renderPage() {
  return renderWithApp(<OverdueFollowupsPage />, { route: '/worklist' });
}

function tile(name: string) {
  return screen.getByTestId(`tile-${name}`).textContent;
}

function bodyRows() {
  return within(screen.getByRole('table')).getAllByRole('row').slice(1);
}

async function choose(user: ReturnType<typeof userEvent.setup>, select: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: select }));
  await user.click(await screen.findByRole('option', { name: option }));
}

const SUMMARY: WorklistSummary = {
  total: 3,
  high: 1,
  medium: 1,
  low: 1,
  avgDaysOverdue: 85,
  providers: ['Dr. Ana Gutierrez', 'Dr. Sarah Mitchell'],
};

/**
 * A fake of the worklist API over `rows`: a page filters by priority and provider and pages by an offset
 * standing in for the server's cursor; the export serves every filtered row.
 */
function fakeServer(rows: OverdueFollowUp[], summary: WorklistSummary = SUMMARY) {
  const filtered = (priority?: string | null, provider?: string | null) =>
    rows.filter((r) => (!priority || r.priority === priority) && (!provider || r.providerName === provider));
  return fakeApi({
    'GET /api/worklist/overdue-followups/summary': summary,
    'POST /api/worklist/overdue-followups/exports': ({ body }) => {
      const filter = body as { priority?: string; provider?: string };
      return filtered(filter.priority, filter.provider);
    },
    'GET /api/worklist/overdue-followups': ({ query }) => {
      const matches = filtered(query.get('priority'), query.get('provider'));
      const cursor = query.get('cursor');
      const start = cursor ? Number(cursor) : 0;
      const limit = Number(query.get('limit'));
      return {
        items: matches.slice(start, start + limit),
        nextCursor: start + limit < matches.length ? String(start + limit) : null,
        total: cursor ? null : matches.length,
      };
    },
  });
}

function pageCalls(api: FakeApi): string[] {
  return api.sent('GET /api/worklist/overdue-followups').map((r) => r.url);
}

describe('OverdueFollowupsPage', () => {
  it('shows a skeleton under the heading while loading', () => {
    fakeApi({
      'GET /api/worklist/overdue-followups/summary': pending,
      'GET /api/worklist/overdue-followups': pending,
    });
    renderPage();
    expect(screen.getByRole('heading', { name: 'Overdue Follow-ups' })).toBeTruthy();
    expect(screen.getByLabelText('Loading Total Overdue')).toBeTruthy();
  });

  it('shows the tiles over the whole list and asks the server for the filtered rows', async () => {
    const api = fakeServer(ROWS);
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('Ana Silva')).toBeTruthy();
    expect(pageCalls(api)[0]).toBe('/api/worklist/overdue-followups?sort=priority&dir=asc&limit=50');
    expect([tile('total-overdue'), tile('high-priority'), tile('medium-priority'), tile('low-priority')]).toEqual([
      '3',
      '1',
      '1',
      '1',
    ]);
    expect(tile('avg-days-overdue')).toBe('85');
    const first = within(bodyRows()[0]!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(first).toEqual([
      'High',
      'Ana Silva',
      '(555) 214-7788',
      'Dr. Sarah Mitchell',
      'Jan 05, 2025',
      'Office Visit',
      'Fatigue',
      'E11.9 Type 2 diabetes without complications, I10 Essential hypertension',
      '200',
      'Call patient today to schedule follow-up',
    ]);

    await choose(user, 'Provider', 'Dr. Sarah Mitchell');
    await waitFor(() => expect(bodyRows()).toHaveLength(2));
    expect(pageCalls(api)).toContain(
      '/api/worklist/overdue-followups?provider=Dr.+Sarah+Mitchell&sort=priority&dir=asc&limit=50',
    );
    await choose(user, 'Priority', 'Medium');
    expect(await screen.findByText('No overdue follow-ups found')).toBeTruthy();
    // The tiles still count the whole list.
    expect(tile('total-overdue')).toBe('3');
    expect(screen.getByText('Showing 0 of 0 overdue follow-ups')).toBeTruthy();
  });

  it('lists the providers once each, alphabetically', async () => {
    fakeServer(ROWS);
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Ana Silva');
    await user.click(screen.getByRole('combobox', { name: 'Provider' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['All providers', 'Dr. Ana Gutierrez', 'Dr. Sarah Mitchell']);
  });

  it('pages by cursor with Next and Previous, keeps the total, and sorts by days overdue on the server', async () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      item({ encounterId: i + 1, patientName: `Patient ${String(i + 1).padStart(2, '0')}`, daysOverdue: 300 - i }),
    );
    const api = fakeServer(many, { ...SUMMARY, total: 60, high: 60, medium: 0, low: 0 });
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('Patient 01')).toBeTruthy();
    expect(bodyRows()).toHaveLength(50);
    expect(screen.getByText('Showing 50 of 60 overdue follow-ups')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /next/i }));
    expect(await screen.findByText('Patient 51')).toBeTruthy();
    expect(pageCalls(api)).toContain('/api/worklist/overdue-followups?sort=priority&dir=asc&limit=50&cursor=50');
    expect(screen.getByText('Showing 10 of 60 overdue follow-ups')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /previous/i }));
    expect(await screen.findByText('Patient 01')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /Days Overdue/ }));
    await waitFor(() =>
      expect(pageCalls(api)).toContain('/api/worklist/overdue-followups?sort=daysOverdue&dir=asc&limit=50'),
    );
    // Columns no index serves are not offered for sorting.
    expect(screen.queryByRole('button', { name: /^Patient/ })).toBeNull();
  });

  it('keeps the filter, sort and page in the address, so Back, Forward and a shared link show the same rows', async () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      item({ encounterId: i + 1, patientName: `Patient ${String(i + 1).padStart(2, '0')}`, daysOverdue: 300 - i }),
    );
    const api = fakeServer(many, { ...SUMMARY, total: 60, high: 60, medium: 0, low: 0 });
    const user = userEvent.setup();
    const location = () => screen.getByTestId('location').textContent;
    renderWithApp(
      <>
        <OverdueFollowupsPage />
        <ShowLocation />
      </>,
      { route: '/worklist?priority=High&sort=daysOverdue&dir=desc' },
    );
    expect(await screen.findByText('Patient 01')).toBeTruthy();
    expect(pageCalls(api)[0]).toBe('/api/worklist/overdue-followups?priority=High&sort=daysOverdue&dir=desc&limit=50');
    expect(screen.getByRole('combobox', { name: 'Priority' }).textContent).toBe('High');

    await user.click(screen.getByRole('button', { name: /next/i }));
    expect(await screen.findByText('Patient 51')).toBeTruthy();
    expect(location()).toBe('/worklist?priority=High&sort=daysOverdue&dir=desc&page=2&cursor=50');
    await user.click(screen.getByRole('button', { name: 'History back' }));
    expect(await screen.findByText('Patient 01')).toBeTruthy();
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'History forward' }));
    expect(await screen.findByText('Patient 51')).toBeTruthy();
    expect(screen.getByText('Showing 10 of 60 overdue follow-ups')).toBeTruthy();
    // Previous reaches the first page through the cursors the history entry keeps.
    await user.click(screen.getByRole('button', { name: /previous/i }));
    expect(await screen.findByText('Patient 01')).toBeTruthy();
    expect(location()).toBe('/worklist?priority=High&sort=daysOverdue&dir=desc');
  });

  it('opens a shared link to a later page with its rows and the whole count', async () => {
    const many = Array.from({ length: 60 }, (_, i) => item({ encounterId: i + 1, patientName: `Patient ${i + 1}` }));
    fakeServer(many);
    renderWithApp(<OverdueFollowupsPage />, { route: '/worklist?page=2&cursor=50' });
    expect(await screen.findByText('Patient 51')).toBeTruthy();
    expect(await screen.findByText('Showing 10 of 60 overdue follow-ups')).toBeTruthy();
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
  });

  it('downloads every filtered row the server serves for the export, with the export columns', async () => {
    const api = fakeServer(ROWS);
    const downloads = catchDownloads();
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Ana Silva');
    await choose(user, 'Provider', 'Dr. Sarah Mitchell');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    // An undefined priority is left out of the JSON: the server gets the provider only.
    expect(api.sent('POST /api/worklist/overdue-followups/exports').map((r) => r.body)).toEqual([
      { provider: 'Dr. Sarah Mitchell' },
    ]);
    const [{ fileName, blob }] = downloads as [Download];
    expect(fileName).toBe('overdue-followups.csv');
    expect(Papa.parse<string[]>((await blob.text()).trim()).data).toEqual([
      [
        'Patient',
        'Phone',
        'Provider',
        'Encounter Date',
        'Type',
        'Chief Complaint',
        'Diagnosis',
        'Days Overdue',
        'Priority',
        'Action',
      ],
      [
        'Ana Silva',
        '(555) 214-7788',
        'Dr. Sarah Mitchell',
        'Jan 05, 2025',
        'Office Visit',
        'Fatigue',
        'E11.9 Type 2 diabetes without complications; I10 Essential hypertension',
        '200',
        'High',
        'Call patient today to schedule follow-up',
      ],
      [
        'Cara Diaz',
        '(555) 214-7788',
        'Dr. Sarah Mitchell',
        'Jan 05, 2025',
        'Office Visit',
        'Fatigue',
        "'=cmd|calc",
        '10',
        'Low',
        'Send reminder to schedule follow-up',
      ],
    ]);
  });

  it('downloads nothing when the export cannot be recorded', async () => {
    fakeServer(ROWS).on(
      'POST /api/worklist/overdue-followups/exports',
      apiError(500, 'INTERNAL', 'The server could not complete the request.'),
    );
    const downloads = catchDownloads();
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Ana Silva');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('Export failed')).toBeTruthy();
    expect(downloads).toEqual([]);
  });
});
