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

  it("shows the patient's statement: where every billed dollar is, per claim and in total, so the columns add up", async () => {
    fakeApi({ 'GET /api/portal/statement': STATEMENT });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Statement for Maria Lopez' })).toBeTruthy();
    expect(screen.getByText(/Statement date November 22, 2026 · Account PA-000001 · 3 claims/)).toBeTruthy();
    // The letterhead prints with the statement: the practice's name, address and phone.
    const practice = screen.getByRole('group', { name: 'Practice' });
    expect(practice.textContent).toContain('Riverside Family Practice');
    expect(practice.textContent).toContain('1200 Main Street, Suite 200, Springfield, IL 62701');
    expect(practice.textContent).toContain('Phone (217) 555-0142');
    expect(screen.queryByText(/Patient record/)).toBeNull();
    const totals = Object.fromEntries(
      ['total-billed', 'insurance-paid', 'adjustments', 'insurance-pending', 'patient-paid', 'amount-due'].map((id) => [
        id,
        screen.getByTestId(`statement-${id}`).textContent,
      ]),
    );
    expect(totals).toEqual({
      'total-billed': '$514.00',
      'insurance-paid': '$146.20',
      adjustments: '$57.00',
      'insurance-pending': '$249.00',
      'patient-paid': '$16.00',
      'amount-due': '$45.80',
    });
    expect(screen.getByText('Contractual $52.00 · Other $5.00')).toBeTruthy();

    const table = screen.getByRole('table', { name: 'All claims' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual([
      'Service date',
      'Account',
      'Procedure',
      'Status',
      'Billed',
      'Insurance paid',
      'Contractual adjustment',
      'Other adjustment',
      'Insurance pending',
      'Patient paid',
      'Amount due',
    ]);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .queryAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows).toEqual([
      [
        'November 20, 2026',
        'ACC-2026-100030',
        // The payer's split of the patient's share (X12 835 PR-1 deductible, PR-3 copay) under the procedure.
        '99213 Established visit, low complexityDeductible $20.00 · Copay $9.80',
        'Paid',
        '$149.00',
        '$91.20',
        '$28.00',
        '$0.00',
        '$0.00',
        '$0.00',
        '$29.80',
      ],
      [
        'October 5, 2026',
        'ACC-2026-100020',
        '80053 Comprehensive metabolic panel',
        'Paid',
        '$116.00',
        '$55.00',
        '$24.00',
        '$5.00',
        '$0.00',
        '$16.00',
        '$16.00',
      ],
      [
        'September 7, 2026',
        'ACC-2026-100010',
        '99396 Preventive visit, age 40-64',
        'Appealed',
        '$249.00',
        '$0.00',
        '$0.00',
        '$0.00',
        '$249.00',
        '$0.00',
        '$0.00',
      ],
      ['$514.00', '$146.20', '$52.00', '$5.00', '$249.00', '$16.00', '$45.80'],
    ]);
    expect(within(table).getByRole('rowheader', { name: 'Total' })).toBeTruthy();
    // A printed statement is a document, not a control: no sort buttons.
    expect(within(table).queryAllByRole('button')).toEqual([]);

    const history = screen.getByRole('table', { name: 'Payment history' });
    expect(
      within(history)
        .getAllByRole('row')
        .slice(1)
        .map((r) =>
          within(r)
            .getAllByRole('cell')
            .map((c) => c.textContent),
        ),
    ).toEqual([['October 20, 2026', 'PP-0A1B2C3D4E', 'ACC-2026-100020', 'Patient', '$16.00']]);
    expect(screen.getByRole('button', { name: 'Pay Balance' })).toHaveProperty('disabled', false);
  });

  it('lists the claims a staff statement leaves out as one line, so the columns still add up', async () => {
    const [recent, ...older] = STATEMENT.claims;
    const others = {
      claimCount: older.length,
      ...Object.fromEntries(
        (
          [
            'billedCents',
            'insurancePaidCents',
            'contractualAdjustmentCents',
            'otherAdjustmentCents',
            'insurancePendingCents',
            'patientPaidCents',
            'amountDueCents',
          ] as const
        ).map((key) => [key, older.reduce((sum, claim) => sum + claim[key], 0)]),
      ),
    } as Statement['otherClaims'];
    fakeApi({ 'GET /api/portal/statement': { ...STATEMENT, claims: [recent!], otherClaims: others } });
    renderPage();
    const otherRow = await screen.findByRole('rowheader', { name: '2 other claims with nothing due' });
    expect(
      within(otherRow.closest('tr')!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['$365.00', '$55.00', '$24.00', '$5.00', '$249.00', '$16.00', '$16.00']);
  });

  it('says so when there are no claims, and Pay Balance is disabled with nothing due', async () => {
    const empty: Statement = {
      ...STATEMENT,
      claimCount: 0,
      totalBilledCents: 0,
      billedCents: 0,
      insurancePaidCents: 0,
      contractualAdjustmentCents: 0,
      otherAdjustmentCents: 0,
      insurancePendingCents: 0,
      payerPaidCents: 0,
      patientPaidCents: 0,
      totalPaidCents: 0,
      amountDueCents: 0,
      claims: [],
      payments: [],
    };
    fakeApi({ 'GET /api/portal/statement': empty });
    renderPage();
    expect(await screen.findByText('No claims found')).toBeTruthy();
    expect(screen.getByText('No payments yet')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Pay Balance' })).toHaveProperty('disabled', true);
  });

  it('pays part of the balance: the amount is checked first, and the balance on screen drops by it', async () => {
    const user = userEvent.setup();
    const after = {
      ...STATEMENT,
      amountDueCents: 3_580,
      patientPaidCents: 2_600,
      totalPaidCents: 17_220,
      receiptReference: 'PP-00FF00FF00',
    };
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
    // The toast and its live-region announcement may both hold the text.
    expect(
      screen.getAllByText(/\$10\.00 has been applied \(receipt PP-00FF00FF00\)\. Your balance is now \$35\.80\./),
    ).not.toHaveLength(0);
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
  it('has one line per claim and a Total line; every money column adds up to its total; money has 2 decimals', () => {
    const rows = Papa.parse<string[]>(statementCsv(STATEMENT).trim()).data;
    const lead = ['Maria Lopez', 'PA-000001', '2026-11-22'];
    expect(rows).toEqual([
      [
        'Patient',
        'Patient Account',
        'Statement Date',
        'Line',
        'Service Date',
        'Account Number',
        'Procedure',
        'Description',
        'Status',
        'Billed',
        'Insurance Paid',
        'Contractual Adjustment',
        'Other Adjustment',
        'Insurance Pending',
        'Patient Paid',
        'Amount Due',
      ],
      [
        ...lead,
        'Claim',
        '2026-11-20',
        'ACC-2026-100030',
        '99213',
        'Established visit, low complexity',
        'Paid',
        '149.00',
        '91.20',
        '28.00',
        '0.00',
        '0.00',
        '0.00',
        '29.80',
      ],
      [
        ...lead,
        'Claim',
        '2026-10-05',
        'ACC-2026-100020',
        '80053',
        'Comprehensive metabolic panel',
        'Paid',
        '116.00',
        '55.00',
        '24.00',
        '5.00',
        '0.00',
        '16.00',
        '16.00',
      ],
      [
        ...lead,
        'Claim',
        '2026-09-07',
        'ACC-2026-100010',
        '99396',
        'Preventive visit, age 40-64',
        'Appealed',
        '249.00',
        '0.00',
        '0.00',
        '0.00',
        '249.00',
        '0.00',
        '0.00',
      ],
      [...lead, 'Total', '', '', '', '', '', '514.00', '146.20', '52.00', '5.00', '249.00', '16.00', '45.80'],
    ]);
    // Each line balances: Billed = the other money columns added up.
    for (const row of rows.slice(1)) {
      const [billed, ...parts] = row.slice(9).map((cell) => Math.round(Number(cell) * 100));
      expect(parts.reduce((a, b) => a + b, 0)).toBe(billed);
    }
    expect(statementFileName(STATEMENT)).toBe('statement_patient-1_2026-11-22.csv');
  });

  it('neutralises a name that would run as a spreadsheet formula', () => {
    const rows = Papa.parse<string[]>(statementCsv({ ...STATEMENT, patientName: '=HYPERLINK("x")' }).trim()).data;
    expect(rows[1]?.[0]).not.toMatch(/^=/);
  });
});
