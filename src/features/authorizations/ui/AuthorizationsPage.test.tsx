import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '@/testing/fake-api';
import { catchDownloads, type Download } from '@/testing/ui-browser';
import { ShowLocation, renderWithApp } from '@/testing/ui-render';
import type { Authorization, AuthorizationList } from '../authorizations.schema';
import AuthorizationsPage from './AuthorizationsPage';

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
    authNumber: null,
    approvedUnits: null,
    validFrom: null,
    validTo: null,
    denialReason: null,
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
  return { items, total: items.length, nextCursor: null, kpis: KPIS, overallTotal: 150 };
}

function renderPage() {
  return renderWithApp(<AuthorizationsPage />, { route: '/authorizations' });
}

describe('AuthorizationsPage', () => {
  it('shows the six KPIs over all rows, the table and the footer', async () => {
    const api = fakeApi({ 'GET /api/authorizations': listAnswer(ITEMS) });
    renderPage();
    expect(await screen.findByText('Ana Silva')).toBeTruthy();
    const kpis = ['total', 'pending', 'approved', 'denied', 'at-risk', 'avg-age'].map(
      (k) => screen.getByTestId(`kpi-${k}`).textContent,
    );
    expect(kpis).toEqual(['40', '20', '15', '5', '9', '6.3days']);
    expect(screen.getByText('Showing 3 of 150 authorizations')).toBeTruthy();
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('At risk')).toBeTruthy();
    expect(within(rows[1]!).queryByText('At risk')).toBeNull();
    // Only pending rows can be decided.
    expect(within(rows[2]!).queryByRole('button', { name: /Approve/ })).toBeNull();
    expect(within(rows[2]!).getByText('Decided Nov 20, 2026')).toBeTruthy();
    expect(api.requests[0]?.url).toBe('/api/authorizations?sort=ageDays&dir=desc&limit=50');
  });

  it('asks the server for the chosen payer and status', async () => {
    const api = fakeApi({ 'GET /api/authorizations': listAnswer(ITEMS) });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Ana Silva');
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Pending' }));
    await user.click(screen.getByRole('combobox', { name: 'Payer' }));
    await user.click(await screen.findByRole('option', { name: 'Aetna' }));
    await waitFor(() =>
      expect(api.requests.at(-1)?.url).toBe(
        '/api/authorizations?payer=Aetna&status=Pending&sort=ageDays&dir=desc&limit=50',
      ),
    );
  });

  it('opens with the filters, search and sort the address gives, and writes a new filter back to it', async () => {
    const api = fakeApi({ 'GET /api/authorizations': listAnswer(ITEMS.slice(0, 1)) });
    const user = userEvent.setup();
    renderWithApp(
      <>
        <AuthorizationsPage />
        <ShowLocation />
      </>,
      { route: '/authorizations?payer=Aetna&status=Pending&search=ana&sort=patient&dir=asc' },
    );
    expect(await screen.findByText('Ana Silva')).toBeTruthy();
    expect(api.requests[0]?.url).toBe(
      '/api/authorizations?payer=Aetna&status=Pending&search=ana&sort=patient&dir=asc&limit=50',
    );
    expect(screen.getByRole('combobox', { name: 'Status' }).textContent).toBe('Pending');
    expect(screen.getByRole('combobox', { name: 'Payer' }).textContent).toBe('Aetna');
    expect(screen.getByPlaceholderText<HTMLInputElement>('Search patient or service').value).toBe('ana');
    expect(screen.getByRole('columnheader', { name: /Patient/ }).getAttribute('aria-sort')).toBe('ascending');

    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'All statuses' }));
    expect(screen.getByTestId('location').textContent).toBe(
      '/authorizations?payer=Aetna&search=ana&sort=patient&dir=asc',
    );
  });

  it('shows the empty message', async () => {
    fakeApi({ 'GET /api/authorizations': listAnswer([]) });
    renderPage();
    expect(await screen.findByText('No authorizations found')).toBeTruthy();
  });

  it('approves after confirmation, says so, and reloads the list', async () => {
    const api = fakeApi({
      'GET /api/authorizations': listAnswer(ITEMS),
      'PATCH /api/authorizations/1': { ...ITEMS[0], status: 'Approved', atRisk: false },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Approve authorization for Ana Silva: MRI knee' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve authorization?' });
    const listCalls = api.sent('GET /api/authorizations').length;
    // What the payer granted is required: nothing is sent without it.
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByText('Authorization number is required')).toBeTruthy();
    expect(api.sent('PATCH /api/authorizations/1')).toEqual([]);
    await user.type(within(dialog).getByLabelText('Authorization number'), 'AET-77821');
    await user.type(within(dialog).getByLabelText('Units approved'), '12');
    await user.type(within(dialog).getByLabelText('Valid from'), '2026-11-20');
    await user.type(within(dialog).getByLabelText('Valid to'), '2027-02-20');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Authorization approved')).toBeTruthy();
    expect(api.sent('PATCH /api/authorizations/1').map((r) => r.body)).toEqual([
      { status: 'Approved', authNumber: 'AET-77821', units: 12, validFrom: '2026-11-20', validTo: '2027-02-20' },
    ]);
    await waitFor(() => expect(api.sent('GET /api/authorizations').length).toBeGreaterThan(listCalls));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says when someone else already decided it', async () => {
    fakeApi({
      'GET /api/authorizations': listAnswer(ITEMS),
      'PATCH /api/authorizations/2': apiError(409, 'ALREADY_DECIDED', 'already Denied'),
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Deny authorization for Ben Okafor: Sleep study' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deny authorization?' });
    await user.type(within(dialog).getByLabelText('Reason'), 'Not medically necessary');
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    expect(await screen.findByText('Already decided')).toBeTruthy();
  });

  it('exports every filtered row from the server as authorizations.csv', async () => {
    const api = fakeApi({
      'GET /api/authorizations': listAnswer(ITEMS.slice(0, 1)),
      'GET /api/authorizations/export': { items: ITEMS },
    });
    const downloads = catchDownloads();
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Ana Silva');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(api.sent('GET /api/authorizations/export').map((r) => r.url)).toEqual([
      '/api/authorizations/export?sort=ageDays&dir=desc',
    ]);
    const [{ fileName, blob }] = downloads as [Download];
    expect(fileName).toBe('authorizations.csv');
    expect(Papa.parse<string[]>((await blob.text()).trim()).data).toEqual([
      ['Patient', 'Service', 'Payer', 'Status', 'Age (days)'],
      ['Ana Silva', 'MRI knee', 'Aetna', 'Pending', '8'],
      ['Ben Okafor', 'Sleep study', 'Aetna', 'Pending', '2'],
      ['Cara Diaz', 'MRI knee', 'Aetna', 'Approved', '3'],
    ]);
  });

  it('gives focus back to the Approve or Deny button when the decision is cancelled', async () => {
    fakeApi({ 'GET /api/authorizations': listAnswer(ITEMS) });
    const user = userEvent.setup();
    renderPage();
    for (const verb of ['Approve', 'Deny']) {
      const opener = await screen.findByRole('button', { name: `${verb} authorization for Ana Silva: MRI knee` });
      await user.click(opener);
      const dialog = await screen.findByRole('dialog', { name: `${verb} authorization?` });
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await waitFor(() => expect(document.activeElement).toBe(opener));
    }
  });
});
