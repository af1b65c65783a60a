import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '@/shared/access';
import { Toaster } from '@/client/components/ui/toast';
import { createQueryClient } from '@/client/lib/query-client';
import type { AuditEntry, AuditExport, AuditPage, AuditStats, ChainVerificationResult } from '../audit.schema';
import AuditLogPage from './AuditLogPage';

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

const STATS: AuditStats = {
  totalEntries: 512,
  entriesLast24h: 14,
  failedSignInsLast24h: 2,
  deniedAccessLast7d: 3,
  phiReadsLast7d: 40,
  exportsLast7d: 5,
};

const ENTRIES: AuditEntry[] = [
  {
    id: 2,
    time: '2026-11-22T15:00:00.000Z',
    actor: 'admin@healthcare.demo',
    action: 'patient.view',
    resource: 'patient/7',
    detail: 'opened patient snapshot',
  },
  {
    id: 1,
    time: '2026-11-22T14:00:00.000Z',
    actor: 'billing.admin@healthcare.demo',
    action: '=export.csv',
    resource: 'claims',
    detail: null,
  },
];

/** Answers each endpoint the page calls, recording the list URLs asked for. */
function serve({
  entries = ENTRIES,
  nextCursor = null,
  verify,
  exported,
}: {
  entries?: AuditEntry[];
  nextCursor?: string | null;
  verify?: ChainVerificationResult;
  exported?: AuditExport;
} = {}) {
  apiFetch.mockImplementation((url: string) => {
    if (url === '/api/audit/stats') return Promise.resolve(STATS);
    if (url === '/api/audit/actions') return Promise.resolve({ actions: ['auth.login.success', 'patient.view'] });
    if (url === '/api/audit/verify') return Promise.resolve(verify);
    if (url.startsWith('/api/audit/export')) return Promise.resolve(exported);
    if (url.startsWith('/api/audit')) {
      const page: AuditPage = url.includes('cursor=')
        ? { entries: [{ ...ENTRIES[1]!, id: 0, resource: 'older' }], nextCursor: null }
        : { entries, nextCursor };
      return Promise.resolve(page);
    }
    return Promise.reject(new Error(`unexpected ${url}`));
  });
}

function listUrls(): string[] {
  return apiFetch.mock.calls
    .map((c) => c[0] as string)
    .filter((u) => u === '/api/audit' || u.startsWith('/api/audit?'));
}

function renderPage(role: Role = 'billing_admin') {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AuditLogPage role={role} />
      <Toaster />
    </QueryClientProvider>,
  );
}

describe('AuditLogPage', () => {
  it('shows the six figures and the entries, newest first', async () => {
    serve();
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeTruthy();
    expect(await screen.findByText('opened patient snapshot')).toBeTruthy();
    expect(screen.getByTestId('audit-stat-totalEntries').textContent).toBe('512');
    expect(screen.getByTestId('audit-stat-exportsLast7d').textContent).toBe('5');
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[2]?.textContent)).toEqual(['patient.view', '=export.csv']);
    expect(screen.getByText('Showing 2 entries, newest first')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Verify chain' })).toBeNull();
  });

  it('says "No audit logs available" when nothing matches', async () => {
    serve({ entries: [] });
    renderPage();
    expect(await screen.findByText('No audit logs available')).toBeTruthy();
  });

  it('sends the filters to the server: actor after a pause, action, dates; Clear filters resets them', async () => {
    serve();
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('opened patient snapshot');

    await user.type(screen.getByLabelText('Actor'), 'Billing');
    await waitFor(() => expect(listUrls()).toContain('/api/audit?actor=Billing'));
    // One request for the whole word, not one per key.
    expect(listUrls().filter((u) => u.includes('actor=')).length).toBe(1);

    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: 'patient.view' }));
    await waitFor(() => expect(listUrls()).toContain('/api/audit?actor=Billing&action=patient.view'));

    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await user.type(screen.getByLabelText('To'), '2026-11-20');
    await waitFor(() =>
      expect(listUrls()).toContain('/api/audit?actor=Billing&action=patient.view&from=2026-11-01&to=2026-11-20'),
    );

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(screen.getByLabelText<HTMLInputElement>('Actor').value).toBe('');
    expect(screen.getByLabelText<HTMLInputElement>('From').value).toBe('');
    expect(screen.getByRole('combobox', { name: 'Action' }).textContent).toBe('All actions');
    expect(screen.getByRole('button', { name: 'Clear filters' })).toHaveProperty('disabled', true);
  });

  it('refuses a From date after the To date without asking the server', async () => {
    serve();
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('opened patient snapshot');
    await user.type(screen.getByLabelText('From'), '2026-11-20');
    await user.type(screen.getByLabelText('To'), '2026-11-01');
    expect((await screen.findByRole('alert')).textContent).toBe('To must be on or after the From date');
    expect(listUrls().some((u) => u.includes('to=2026-11-01'))).toBe(false);
    expect(screen.getByRole('button', { name: /Export CSV/ })).toHaveProperty('disabled', true);
  });

  it('loads the next page from the cursor with Load more', async () => {
    serve({ nextCursor: 'abc' });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Load 200 more' }));
    expect(await screen.findByText('older')).toBeTruthy();
    expect(listUrls()).toContain('/api/audit?cursor=abc');
    expect(screen.queryByRole('button', { name: 'Load 200 more' })).toBeNull();
  });

  it('exports the filtered entries as CSV, neutralising formulas, and says when the export is capped', async () => {
    serve({ exported: { entries: ENTRIES, capped: true, maxRows: 10_000 } });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('opened patient snapshot');
    await user.click(screen.getByRole('button', { name: /Export CSV/ }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalledTimes(1));
    const [fileName, csv] = downloadCsv.mock.calls[0] as [string, string];
    expect(fileName).toBe('audit-log.csv');
    const parsed = Papa.parse<string[]>(csv.trim()).data;
    expect(parsed[0]).toEqual(['Time', 'Actor', 'Action', 'Resource', 'Detail']);
    expect(parsed[1]).toEqual([
      '2026-11-22T15:00:00.000Z',
      'admin@healthcare.demo',
      'patient.view',
      'patient/7',
      'opened patient snapshot',
    ]);
    expect(parsed[2]?.[2]).toBe("'=export.csv");
    expect(await screen.findByText(/holds the 10,000 newest matching entries/)).toBeTruthy();
  });

  it('lets the admin verify the chain and shows where it broke', async () => {
    serve({ verify: { ok: false, checked: 42, firstBreak: { position: 42, id: 97, problem: 'modified' } } });
    const user = userEvent.setup();
    renderPage('admin');
    await user.click(await screen.findByRole('button', { name: 'Verify chain' }));
    expect(
      await screen.findByText(
        'Audit chain broken at position 42 (entry 97): this entry was changed after it was written',
      ),
    ).toBeTruthy();
  });

  it('reports an intact chain with the number of entries', async () => {
    serve({ verify: { ok: true, checked: 1234, firstBreak: null } });
    const user = userEvent.setup();
    renderPage('admin');
    await user.click(await screen.findByRole('button', { name: 'Verify chain' }));
    expect(await screen.findByText('Audit chain verified: 1,234 entries intact')).toBeTruthy();
  });
});
