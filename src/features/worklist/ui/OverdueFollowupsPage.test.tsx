import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/client/components/ui/toast';
import { createQueryClient } from '@/client/lib/query-client';
import type { OverdueFollowUp } from '../worklist.schema';
import OverdueFollowupsPage from './OverdueFollowupsPage';
import { summarise } from './worklist.view';

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

afterEach(() => {
  apiFetch.mockReset();
  downloadCsv.mockReset();
});

function item(overrides: Partial<OverdueFollowUp>): OverdueFollowUp {
  return {
    encounterId: 1,
    patientName: 'Ana Silva',
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
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <OverdueFollowupsPage />
      <Toaster />
    </QueryClientProvider>,
  );
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

describe('summarise', () => {
  it('counts by priority and rounds the average days overdue; an empty list gives zeros', () => {
    expect(summarise(ROWS)).toEqual({ total: 3, high: 1, medium: 1, low: 1, avgDaysOverdue: 85 });
    expect(summarise([])).toEqual({ total: 0, high: 0, medium: 0, low: 0, avgDaysOverdue: 0 });
  });
});

describe('OverdueFollowupsPage', () => {
  it('shows a skeleton under the heading while loading', () => {
    apiFetch.mockReturnValue(new Promise(() => {}));
    renderPage();
    expect(screen.getByRole('heading', { name: 'Overdue Follow-ups' })).toBeTruthy();
    expect(screen.getByLabelText('Loading Total Overdue')).toBeTruthy();
  });

  it('shows the tiles over the whole list and the table with the filtered rows', async () => {
    apiFetch.mockResolvedValue(ROWS);
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('Ana Silva')).toBeTruthy();
    expect(apiFetch).toHaveBeenCalledWith('/api/worklist/overdue-followups', expect.anything());
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
      'Dr. Sarah Mitchell',
      'Jan 05, 2025',
      'Office Visit',
      'Fatigue',
      'E11.9 Type 2 diabetes without complications, I10 Essential hypertension',
      '200',
      'Call patient today to schedule follow-up',
    ]);

    await choose(user, 'Provider', 'Dr. Sarah Mitchell');
    expect(bodyRows()).toHaveLength(2);
    await choose(user, 'Priority', 'Medium');
    expect(await screen.findByText('No overdue follow-ups found')).toBeTruthy();
    // The tiles still count the whole list.
    expect(tile('total-overdue')).toBe('3');
    expect(screen.getByText('Showing 0 of 3 overdue follow-ups')).toBeTruthy();
  });

  it('lists the providers once each, alphabetically', async () => {
    apiFetch.mockResolvedValue(ROWS);
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Ana Silva');
    await user.click(screen.getByRole('combobox', { name: 'Provider' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['All providers', 'Dr. Ana Gutierrez', 'Dr. Sarah Mitchell']);
  });

  it('records the export, then downloads the filtered rows with the SPEC columns', async () => {
    apiFetch.mockImplementation((path: string) => Promise.resolve(path.endsWith('/exports') ? undefined : ROWS));
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Ana Silva');
    await choose(user, 'Provider', 'Dr. Sarah Mitchell');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalledTimes(1));
    expect(apiFetch).toHaveBeenCalledWith('/api/worklist/overdue-followups/exports', {
      method: 'POST',
      body: { rows: 2, priority: undefined, provider: 'Dr. Sarah Mitchell' },
    });
    const [fileName, csv] = downloadCsv.mock.calls[0] as [string, string];
    expect(fileName).toBe('overdue-followups.csv');
    expect(Papa.parse<string[]>(csv.trim()).data).toEqual([
      [
        'Patient',
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
    apiFetch.mockImplementation((path: string) =>
      path.endsWith('/exports') ? Promise.reject(new Error('500: down')) : Promise.resolve(ROWS),
    );
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Ana Silva');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('Export failed')).toBeTruthy();
    expect(downloadCsv).not.toHaveBeenCalled();
  });
});
