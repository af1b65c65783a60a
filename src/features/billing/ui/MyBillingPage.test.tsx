import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending, reply } from '@/testing/fake-api';
import { catchDownloads, catchPrint, type Download } from '@/testing/ui-browser';
import { renderWithApp } from '@/testing/ui-render';
import type { Statement } from '../billing.schema';
import { STATEMENT } from './billing.ui-testing';
import MyBillingPage from './MyBillingPage';
import { statementCsv, statementFileName } from './statement.csv';

function renderPage() {
  return renderWithApp(<MyBillingPage />, { route: '/patient-portal/billing' });
}

describe('MyBillingPage', () => {
  it('shows a skeleton while the statement loads', () => {
    fakeApi({ 'GET /api/portal/statement': pending });
    renderPage();
    expect(screen.getByRole('heading', { name: 'My Billing', level: 1 })).toBeTruthy();
    expect(screen.getByText('View statements and pay')).toBeTruthy();
    expect(screen.getByLabelText('Loading statement').getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('button', { name: 'Pay Balance' })).toHaveProperty('disabled', true);
  });

  it("shows the patient's statement: totals and every claim with what is still due", async () => {
    fakeApi({ 'GET /api/portal/statement': STATEMENT });
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
    fakeApi({ 'GET /api/portal/statement': empty });
    renderPage();
    expect(await screen.findByText('No claims found')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Pay Balance' })).toHaveProperty('disabled', true);
  });

  it('pays part of the balance: the amount is checked first, and the balance on screen drops by it', async () => {
    const user = userEvent.setup();
    const after: Statement = { ...STATEMENT, amountDueCents: 3_580, patientPaidCents: 3_000, totalPaidCents: 27_000 };
    const api = fakeApi({
      'GET /api/portal/statement': STATEMENT,
      'POST /api/portal/payments': reply(201, after),
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
    const posts = () => api.requests.filter((r) => r.method === 'POST').map((r) => [r.url, r.body]);
    expect(posts()).toEqual([]);

    await user.clear(amount);
    await user.type(amount, '10');
    await user.click(within(dialog).getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts()).toEqual([['/api/portal/payments', { amountCents: 1000 }]]);
    expect(await screen.findByText('Payment received')).toBeTruthy();
    expect(screen.getByTestId('statement-amount-due').textContent).toBe('$35.80');
  });

  it("shows the server's rule when it refuses the amount", async () => {
    const user = userEvent.setup();
    fakeApi({
      'GET /api/portal/statement': STATEMENT,
      'POST /api/portal/payments': apiError(
        400,
        'AMOUNT_TOO_HIGH',
        'amountCents: must be at most your balance, $5.00',
        {
          fields: [{ field: 'amountCents', message: 'must be at most your balance, $5.00' }],
        },
      ),
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Pay Balance' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay Balance' });
    await user.click(within(dialog).getByRole('button', { name: 'Pay now' }));
    expect(await within(dialog).findByText('Payment amount ($) must be at most your balance, $5.00')).toBeTruthy();
  });

  it('prints with the browser, and downloads the statement the server returns for the export', async () => {
    const user = userEvent.setup();
    const print = catchPrint();
    const downloads = catchDownloads();
    const api = fakeApi({
      'GET /api/portal/statement': STATEMENT,
      'POST /api/portal/statement/export': STATEMENT,
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Download Statement' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(api.sent('POST /api/portal/statement/export')).toHaveLength(1);
    const [{ fileName, blob }] = downloads as [Download];
    expect(await blob.text()).toBe(statementCsv(STATEMENT));
    expect(fileName).toBe('statement_patient-1_2026-11-22.csv');
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
