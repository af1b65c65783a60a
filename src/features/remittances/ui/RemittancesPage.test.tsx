import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import type { RemittanceDetail, RemittancePage, RemittanceRow, RemittanceSummary } from '../remittances.schema';
import RemittancesPage, { importToast } from './RemittancesPage';

const ROW: RemittanceRow = {
  remittanceId: 7,
  payer: 'Aetna',
  traceNumber: 'EFT-1001',
  paymentCents: 24_120,
  paymentDate: '2026-11-18',
  method: 'ACH',
  claimsPosted: 2,
  claimsExceptions: 1,
  claimsBilledNext: 0,
  postedCents: 24_120,
  exceptionCents: 4_000,
  providerAdjustmentCents: 0,
  importedAt: '2026-11-24T15:00:00Z',
  importedBy: 'Sam Ortiz',
};

const SUMMARY: RemittanceSummary = {
  remittanceId: 8,
  payer: 'Cigna',
  traceNumber: 'CHK-77',
  paymentCents: 10_000,
  paymentDate: '2026-11-20',
  claimsPosted: 1,
  claimsExceptions: 0,
  claimsBilledNext: 0,
  postedCents: 10_000,
  exceptionCents: 0,
  providerAdjustmentCents: 0,
  duplicate: false,
};

const DETAIL: RemittanceDetail = {
  remittance: ROW,
  claims: [
    {
      seq: 1,
      claimId: 3,
      patientControlNumber: 'ACC-2026-1',
      patientName: 'Ana Silva',
      statusCode: '1',
      chargeCents: 15_000,
      paidCents: 9_000,
      patientResponsibilityCents: 5_500,
      payerClaimNumber: 'ICN1',
      outcome: 'posted',
      exceptionReason: null,
      reversal: false,
      entries: [
        {
          lineControlNumber: 'ACC-2026-1-1',
          procedureCode: '99213',
          kind: 'payment',
          groupCode: null,
          reasonCode: null,
          bucket: 'paid',
          amountCents: 9_000,
        },
        {
          lineControlNumber: 'ACC-2026-1-1',
          procedureCode: '99213',
          kind: 'adjustment',
          groupCode: 'PR',
          reasonCode: '1',
          bucket: 'patient',
          amountCents: 3_000,
        },
      ],
    },
    {
      seq: 2,
      claimId: null,
      patientControlNumber: 'NO-SUCH',
      patientName: null,
      statusCode: '1',
      chargeCents: 5_000,
      paidCents: 4_000,
      patientResponsibilityCents: 0,
      payerClaimNumber: 'ICN2',
      outcome: 'exception',
      exceptionReason: 'CLP01 NO-SUCH (segment 30) matches no claim',
      reversal: false,
      entries: [],
    },
  ],
  providerAdjustments: [
    {
      providerIdentifier: '1234567893',
      fiscalPeriod: '2026-12-31',
      reason: 'L6',
      reference: 'INT1',
      amountCents: -320,
    },
  ],
};

const list = (items: RemittanceRow[]): RemittancePage => ({ items, nextCursor: null, total: items.length });

describe('RemittancesPage', () => {
  it('says when nothing was imported yet', async () => {
    fakeApi({ 'GET /api/remittances': list([]) });
    renderWithApp(<RemittancesPage />, { route: '/remittances' });
    expect(await screen.findByText('No remittances imported yet')).toBeTruthy();
  });

  it('uploads the ERA as it is and reports what it posted', async () => {
    const api = fakeApi({ 'GET /api/remittances': list([ROW]), 'POST /api/remittances': { remittances: [SUMMARY] } });
    const user = userEvent.setup();
    renderWithApp(<RemittancesPage />, { route: '/remittances' });
    expect(await screen.findByText('EFT-1001')).toBeTruthy();
    const text = 'ISA*00*...~';
    await user.upload(screen.getByTestId('era-file'), new File([text], 'era.835', { type: 'text/plain' }));
    expect(await screen.findByText('Remittance imported')).toBeTruthy();
    expect(screen.getByText('1 claim posted ($100.00), 0 sent to the work queue.')).toBeTruthy();
    expect(api.sent('POST /api/remittances')[0]?.body).toBe(text);
  });

  it('reports a file of several remittances in one toast, saying which were imported before', () => {
    const second = {
      ...SUMMARY,
      remittanceId: 9,
      traceNumber: 'CHK-78',
      claimsPosted: 2,
      postedCents: 5_050,
      claimsExceptions: 1,
    };
    const earlier = { ...SUMMARY, remittanceId: 4, payer: 'Aetna', traceNumber: 'EFT-9', duplicate: true };
    expect(importToast([SUMMARY, second])).toEqual({
      title: '2 remittances imported',
      description: '3 claims posted ($150.50), 1 sent to the work queue.',
    });
    expect(importToast([SUMMARY, earlier, second])).toEqual({
      title: '2 remittances imported',
      description:
        '3 claims posted ($150.50), 1 sent to the work queue. 1 other imported before: Aetna trace EFT-9; not posted again.',
    });
    expect(importToast([earlier])).toEqual({
      title: 'Already imported',
      description: 'Aetna trace EFT-9 was imported before; nothing was posted again.',
    });
    expect(importToast([earlier, { ...earlier, traceNumber: 'EFT-10' }]).description).toBe(
      'All 2 remittances in the file were imported before; nothing was posted again.',
    );
    // Claims billed on to the patients' next policies are said, with what is left to do with them.
    expect(
      importToast([
        { ...SUMMARY, claimsBilledNext: 1 },
        { ...second, claimsBilledNext: 2 },
      ]).description,
    ).toBe(
      "3 claims posted ($150.50), 1 sent to the work queue. 3 claims billed on to the patients' next policies, as " +
        'Drafts to send.',
    );
  });

  it("shows the server's reason when a file is refused", async () => {
    fakeApi({
      'GET /api/remittances': list([]),
      'POST /api/remittances': apiError(
        422,
        'UNBALANCED_FILE',
        'file: the remittance does not balance: BPR02 payment 1.00 ≠ …',
      ),
    });
    const user = userEvent.setup();
    renderWithApp(<RemittancesPage />, { route: '/remittances' });
    await user.upload(screen.getByTestId('era-file'), new File(['x'], 'era.835', { type: 'text/plain' }));
    expect(await screen.findByText('Import failed')).toBeTruthy();
    expect(screen.getByText('the remittance does not balance: BPR02 payment 1.00 ≠ …')).toBeTruthy();
  });

  it("opens a remittance: each claim's posting, its exception and the provider adjustments", async () => {
    fakeApi({ 'GET /api/remittances': list([ROW]), 'GET /api/remittances/:id': DETAIL });
    const user = userEvent.setup();
    renderWithApp(<RemittancesPage />, { route: '/remittances' });
    await user.click(await screen.findByRole('button', { name: 'EFT-1001' }));
    const dialog = await screen.findByRole('dialog');
    const claims = within(await within(dialog).findByRole('list', { name: 'Claims in this remittance' }));
    expect(claims.getByText('PR-1 (deductible)')).toBeTruthy();
    expect(claims.getByText('In work queue')).toBeTruthy();
    expect(claims.getByText('CLP01 NO-SUCH (segment 30) matches no claim')).toBeTruthy();
    expect(within(dialog).getByText('L6 INT1: -$3.20 added')).toBeTruthy();
  });
});
