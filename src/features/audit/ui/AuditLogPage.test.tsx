import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { Role } from '@/shared/access';
import { fakeApi, type FakeApi } from '@/testing/fake-api';
import { catchDownloads, type Download } from '@/testing/ui-browser';
import { renderWithApp } from '@/testing/ui-render';
import type { AuditEntry, AuditExport, AuditPage, AuditStats, ChainVerificationResult } from '../audit.schema';
import AuditLogPage from './AuditLogPage';

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

/** The audit endpoints the page calls; a list request with a cursor gets the older page. */
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
  return fakeApi({
    'GET /api/audit/stats': STATS,
    'GET /api/audit/actions': { actions: ['auth.login.success', 'patient.view'] },
    'GET /api/audit/verify': verify,
    'GET /api/audit/export': exported,
    'GET /api/audit': ({ query }): AuditPage =>
      query.has('cursor')
        ? { entries: [{ ...ENTRIES[1]!, id: 0, resource: 'older' }], nextCursor: null }
        : { entries, nextCursor },
  });
}

function listUrls(api: FakeApi): string[] {
  return api.sent('GET /api/audit').map((r) => r.url);
}

function renderPage(role: Role = 'billing_admin') {
  return renderWithApp(<AuditLogPage role={role} />, { route: '/audit-log' });
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
    const api = serve();
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('opened patient snapshot');

    await user.type(screen.getByLabelText('Actor'), 'Billing');
    await waitFor(() => expect(listUrls(api)).toContain('/api/audit?actor=Billing'));
    // One request for the whole word, not one per key.
    expect(listUrls(api).filter((u) => u.includes('actor=')).length).toBe(1);

    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: 'patient.view' }));
    await waitFor(() => expect(listUrls(api)).toContain('/api/audit?actor=Billing&action=patient.view'));

    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await user.type(screen.getByLabelText('To'), '2026-11-20');
    await waitFor(() =>
      expect(listUrls(api)).toContain('/api/audit?actor=Billing&action=patient.view&from=2026-11-01&to=2026-11-20'),
    );

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(screen.getByLabelText<HTMLInputElement>('Actor').value).toBe('');
    expect(screen.getByLabelText<HTMLInputElement>('From').value).toBe('');
    expect(screen.getByRole('combobox', { name: 'Action' }).textContent).toBe('All actions');
    expect(screen.getByRole('button', { name: 'Clear filters' })).toHaveProperty('disabled', true);
  });

  it('refuses a From date after the To date without asking the server', async () => {
    const api = serve();
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('opened patient snapshot');
    await user.type(screen.getByLabelText('From'), '2026-11-20');
    await user.type(screen.getByLabelText('To'), '2026-11-01');
    expect((await screen.findByRole('alert')).textContent).toBe('To must be on or after the From date');
    expect(listUrls(api).some((u) => u.includes('to=2026-11-01'))).toBe(false);
    expect(screen.getByRole('button', { name: /Export CSV/ })).toHaveProperty('disabled', true);
  });

  it('loads the next page from the cursor with Load more', async () => {
    const api = serve({ nextCursor: 'abc' });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Load 200 more' }));
    expect(await screen.findByText('older')).toBeTruthy();
    expect(listUrls(api)).toContain('/api/audit?cursor=abc');
    expect(screen.queryByRole('button', { name: 'Load 200 more' })).toBeNull();
  });

  it('exports the filtered entries as CSV, neutralising formulas, and says when the export is capped', async () => {
    serve({ exported: { entries: ENTRIES, capped: true, maxRows: 10_000 } });
    const downloads = catchDownloads();
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('opened patient snapshot');
    await user.click(screen.getByRole('button', { name: /Export CSV/ }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    const [{ fileName, blob }] = downloads as [Download];
    expect(fileName).toBe('audit-log.csv');
    const parsed = Papa.parse<string[]>((await blob.text()).trim()).data;
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
