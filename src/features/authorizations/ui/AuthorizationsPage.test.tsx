import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { createQueryClient } from '@/client/lib/query-client';
import type { Authorization, AuthorizationList } from '../authorizations.schema';
import AuthorizationsPage from './AuthorizationsPage';

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

function authorization(overrides: Partial<Authorization>): Authorization {
  return {
    id: 1,
    patient: 'Ana Silva',
    service: 'MRI knee',
    payer: 'Aetna',
    status: 'Pending',
    ageDays: 8,
    requestedOn: '2026-11-14',
    decidedOn: null,
    atRisk: true,
    ...overrides,
  };
}

const ITEMS = [
  authorization({ id: 1 }),
  authorization({ id: 2, patient: 'Ben Okafor', service: 'Sleep study', ageDays: 2, atRisk: false }),
  authorization({
    id: 3,
    patient: 'Cara Diaz',
    status: 'Approved',
    ageDays: 3,
    atRisk: false,
    decidedOn: '2026-11-20',
  }),
];
const KPIS = { total: 40, pending: 20, approved: 15, denied: 5, atRisk: 9, avgAgeDays: 6.25 };

function listAnswer(items: Authorization[]): AuthorizationList {
  return { items, total: items.length, nextCursor: null, kpis: KPIS };
}

function renderPage() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthorizationsPage />
      <Toaster />
    </QueryClientProvider>,
  );
}

describe('AuthorizationsPage', () => {
  it('shows the six KPIs over all rows, the table and the footer', async () => {
    apiFetch.mockResolvedValue(listAnswer(ITEMS));
    renderPage();
    expect(await screen.findByText('Ana Silva')).toBeTruthy();
    const kpis = ['total', 'pending', 'approved', 'denied', 'at-risk', 'avg-age'].map(
      (k) => screen.getByTestId(`kpi-${k}`).textContent,
    );
    expect(kpis).toEqual(['40', '20', '15', '5', '9', '6.3days']);
    expect(screen.getByText('Showing 3 of 40 authorizations')).toBeTruthy();
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('At risk')).toBeTruthy();
    expect(within(rows[1]!).queryByText('At risk')).toBeNull();
    // Only pending rows can be decided.
    expect(within(rows[2]!).queryByRole('button', { name: /Approve/ })).toBeNull();
    expect(apiFetch.mock.calls[0]?.[0]).toBe('/api/authorizations?sort=ageDays&dir=desc&limit=50');
  });

  it('asks the server for the chosen payer and status', async () => {
    apiFetch.mockResolvedValue(listAnswer(ITEMS));
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Ana Silva');
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Pending' }));
    await user.click(screen.getByRole('combobox', { name: 'Payer' }));
    await user.click(await screen.findByRole('option', { name: 'Aetna' }));
    await waitFor(() =>
      expect(apiFetch).toHaveBeenLastCalledWith(
        '/api/authorizations?payer=Aetna&status=Pending&sort=ageDays&dir=desc&limit=50',
        expect.anything(),
      ),
    );
  });

  it('shows the empty message', async () => {
    apiFetch.mockResolvedValue(listAnswer([]));
    renderPage();
    expect(await screen.findByText('No authorizations found')).toBeTruthy();
  });

  it('approves after confirmation, says so, and reloads the list', async () => {
    apiFetch.mockImplementation((path: string, init?: { method?: string }) =>
      Promise.resolve(
        init?.method === 'PATCH' ? { ...ITEMS[0], status: 'Approved', atRisk: false } : listAnswer(ITEMS),
      ),
    );
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Approve authorization for Ana Silva: MRI knee' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve authorization?' });
    const listCalls = apiFetch.mock.calls.length;
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Authorization approved')).toBeTruthy();
    expect(apiFetch).toHaveBeenCalledWith('/api/authorizations/1', { method: 'PATCH', body: { status: 'Approved' } });
    await waitFor(() => expect(apiFetch.mock.calls.length).toBeGreaterThan(listCalls + 1));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says when someone else already decided it', async () => {
    apiFetch.mockImplementation((_path: string, init?: { method?: string }) =>
      init?.method === 'PATCH'
        ? Promise.reject(new ApiError(409, '409: x', 'ALREADY_DECIDED', 'already Denied', [], null))
        : Promise.resolve(listAnswer(ITEMS)),
    );
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Deny authorization for Ben Okafor: Sleep study' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deny authorization?' });
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    expect(await screen.findByText('Already decided')).toBeTruthy();
  });

  it('exports every filtered row from the server as authorizations.csv', async () => {
    apiFetch.mockImplementation((path: string) =>
      Promise.resolve(path.startsWith('/api/authorizations/export') ? { items: ITEMS } : listAnswer(ITEMS.slice(0, 1))),
    );
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Ana Silva');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalledTimes(1));
    expect(apiFetch).toHaveBeenCalledWith('/api/authorizations/export?sort=ageDays&dir=desc');
    const [fileName, csv] = downloadCsv.mock.calls[0] as [string, string];
    expect(fileName).toBe('authorizations.csv');
    expect(Papa.parse<string[]>(csv.trim()).data).toEqual([
      ['Patient', 'Service', 'Payer', 'Status', 'Age (days)'],
      ['Ana Silva', 'MRI knee', 'Aetna', 'Pending', '8'],
      ['Ben Okafor', 'Sleep study', 'Aetna', 'Pending', '2'],
      ['Cara Diaz', 'MRI knee', 'Aetna', 'Approved', '3'],
    ]);
  });
});
