import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import Papa from 'papaparse';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/client/components/ui/toast';
import { createQueryClient } from '@/client/lib/query-client';
import type { Statement } from '../billing.schema';
import { mockApi, STATEMENT } from './billing.ui-testing';
import MyBillingPage from './MyBillingPage';
import { statementCsv, statementFileName } from './statement.csv';

function renderPage() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/patient-portal/billing']}>
        <MyBillingPage />
        <Toaster />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('MyBillingPage', () => {
  it('shows a skeleton while the statement loads', () => {
    mockApi({ 'GET /api/portal/statement': () => 'never' });
    renderPage();
    expect(screen.getByRole('heading', { name: 'My Billing', level: 1 })).toBeTruthy();
    expect(screen.getByText('View statements and pay')).toBeTruthy();
    expect(screen.getByLabelText('Loading statement').getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('button', { name: 'Pay Balance' })).toHaveProperty('disabled', true);
  });

  it("shows the patient's statement: totals and every claim with what is still due", async () => {
    mockApi({ 'GET /api/portal/statement': () => ({ body: STATEMENT }) });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Statement for Maria Lopez' })).toBeTruthy();
    expect(screen.getByText(/Statement date November 22, 2026/)).toBeTruthy();
    expect(screen.getByTestId('statement-total-billed').textContent).toBe('$514.00');
    expect(screen.getByTestId('statement-total-paid').textContent).toBe('$260.00');
    expect(screen.getByText('Insurance $240.00 · Patient $20.00')).toBeTruthy();
    expect(screen.getByTestId('statement-amount-due').textContent).toBe('$45.80');
    const rows = within(screen.getByRole('table', { name: 'All claims' }))
      .getAllByRole('row')
      .slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['November 20, 2026', '99213', '$149.00', '$119.20', '$29.80'],
      ['October 5, 2026', '80053', '$116.00', '$100.00', '$16.00'],
      ['September 7, 2026', '99396', '$249.00', '$40.80', '$0.00'],
    ]);
    expect(screen.getByRole('button', { name: 'Pay Balance' })).toHaveProperty('disabled', false);
  });

  it('says so when there are no claims, and Pay Balance is disabled with nothing due', async () => {
    const empty: Statement = {
      ...STATEMENT,
      claimCount: 0,
      totalBilledCents: 0,
      payerPaidCents: 0,
      patientPaidCents: 0,
      totalPaidCents: 0,
      amountDueCents: 0,
      claims: [],
    };
    mockApi({ 'GET /api/portal/statement': () => ({ body: empty }) });
    renderPage();
    expect(await screen.findByText('No claims found')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Pay Balance' })).toHaveProperty('disabled', true);
  });

  it('pays part of the balance: the amount is checked first, and the balance on screen drops by it', async () => {
    const user = userEvent.setup();
    const after: Statement = { ...STATEMENT, amountDueCents: 3_580, patientPaidCents: 3_000, totalPaidCents: 27_000 };
    const calls = mockApi({
      'GET /api/portal/statement': () => ({ body: STATEMENT }),
      'POST /api/portal/payments': () => ({ status: 201, body: after }),
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Pay Balance' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay Balance' });
    const amount = within(dialog).getByLabelText('Payment amount ($)');
    expect((amount as HTMLInputElement).value).toBe('45.80');

    for (const [typed, message] of [
      ['45.81', 'Payment amount ($) must be at most your balance, $45.80'],
      ['0', 'Payment amount ($) must be more than $0.00'],
      ['ten', 'Payment amount ($) must be an amount in dollars, like 25.00'],
    ] as const) {
      await user.clear(amount);
      await user.type(amount, typed);
      await user.click(within(dialog).getByRole('button', { name: 'Pay now' }));
      expect(await within(dialog).findByText(message)).toBeTruthy();
    }
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    await user.clear(amount);
    await user.type(amount, '10');
    await user.click(within(dialog).getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', url: '/api/portal/payments', body: { amountCents: 1000 } },
    ]);
    expect(await screen.findByText('Payment received')).toBeTruthy();
    expect(screen.getByTestId('statement-amount-due').textContent).toBe('$35.80');
  });

  it("shows the server's rule when it refuses the amount", async () => {
    const user = userEvent.setup();
    mockApi({
      'GET /api/portal/statement': () => ({ body: STATEMENT }),
      'POST /api/portal/payments': () => ({
        status: 400,
        body: {
          error: {
            code: 'AMOUNT_TOO_HIGH',
            message: 'amountCents: must be at most your balance, $5.00',
            fields: [{ field: 'amountCents', message: 'must be at most your balance, $5.00' }],
          },
        },
      }),
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Pay Balance' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay Balance' });
    await user.click(within(dialog).getByRole('button', { name: 'Pay now' }));
    expect(await within(dialog).findByText('Payment amount ($) must be at most your balance, $5.00')).toBeTruthy();
  });

  it('prints with the browser, and downloads the statement the server returns for the export', async () => {
    const user = userEvent.setup();
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    const created: Blob[] = [];
    vi.stubGlobal('URL', {
      ...URL,
      createObjectURL: (blob: Blob) => {
        created.push(blob);
        return 'blob:statement';
      },
      revokeObjectURL: () => {},
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const calls = mockApi({
      'GET /api/portal/statement': () => ({ body: STATEMENT }),
      'POST /api/portal/statement/export': () => ({ body: STATEMENT }),
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Download Statement' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/portal/statement/export')).toBe(true);
    expect(await created[0]?.text()).toBe(statementCsv(STATEMENT));
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('statement_patient-1_2026-11-22.csv');
  });
});

describe('statement CSV', () => {
  it('has one line per claim and a Total line with the statement totals; money has 2 decimals', () => {
    const rows = Papa.parse<string[]>(statementCsv(STATEMENT).trim()).data;
    expect(rows).toEqual([
      [
        'Patient',
        'Statement Date',
        'Line',
        'Service Date',
        'Account Number',
        'Procedure',
        'Status',
        'Billed',
        'Paid',
        'Amount Due',
      ],
      [
        'Maria Lopez',
        '2026-11-22',
        'Claim',
        '2026-11-20',
        'ACC-2026-100030',
        '99213',
        'Paid',
        '149.00',
        '119.20',
        '29.80',
      ],
      [
        'Maria Lopez',
        '2026-11-22',
        'Claim',
        '2026-10-05',
        'ACC-2026-100020',
        '80053',
        'Paid',
        '116.00',
        '100.00',
        '16.00',
      ],
      [
        'Maria Lopez',
        '2026-11-22',
        'Claim',
        '2026-09-07',
        'ACC-2026-100010',
        '99396',
        'Denied',
        '249.00',
        '40.80',
        '0.00',
      ],
      ['Maria Lopez', '2026-11-22', 'Total', '', '', '', '', '514.00', '260.00', '45.80'],
    ]);
    expect(statementFileName(STATEMENT)).toBe('statement_patient-1_2026-11-22.csv');
  });

  it('neutralises a name that would run as a spreadsheet formula', () => {
    const rows = Papa.parse<string[]>(statementCsv({ ...STATEMENT, patientName: '=HYPERLINK("x")' }).trim()).data;
    expect(rows[1]?.[0]).not.toMatch(/^=/);
  });
});
