import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import type {
  AcknowledgementResult,
  ClaimBatch,
  ClaimStatusRequest,
  ClaimStatusRequestResult,
  ClaimStatusResponseResult,
  CreatedClaimBatches,
} from '../submission.schema';
import ClaimsRoute from '@/client/pages/ClaimsRoute';

function batch(overrides: Partial<ClaimBatch> = {}): ClaimBatch {
  return {
    id: 12,
    payer: 'Aetna',
    payerId: '60054',
    status: 'Submitted',
    claimCount: 3,
    totalCents: 74_800,
    createdAt: '2026-11-24T16:00:00Z',
    createdBy: 'Sam Ortiz',
    interchangeControlNumber: 45,
    groupControlNumber: 45,
    fileName: '837P-batch-12-000000045.txt',
    acknowledgedAt: null,
    acknowledgementCode: null,
    errors: [],
    acceptedClaims: 0,
    rejectedClaims: 0,
    ...overrides,
  };
}

const READY = { items: [{ payer: 'Cigna', payerId: '62308', claims: 2, totalCents: 29_800 }] };

const NO_FILES = { items: [], nextCursor: null, total: 0 };

describe('the Batches view', () => {
  it('is a view of the Claims screen for those who send claims, with its empty state', async () => {
    fakeApi({
      'GET /api/claim-batches': { items: [] },
      'GET /api/claim-batches/ready': { items: [] },
      'GET /api/claims/status-requests': { items: [] },
      'GET /api/clearinghouse/files': NO_FILES,
    });
    renderWithApp(<ClaimsRoute role="billing_admin" />, { route: '/claims/batches' });
    expect(screen.getByRole('link', { name: 'Batches' }).getAttribute('aria-current')).toBe('page');
    expect(await screen.findByText('No batches yet')).toBeTruthy();
    expect(await screen.findByText('No claims are Ready to send.')).toBeTruthy();
    // Billing staff see what the clearinghouse mailbox moved, under the batches.
    expect(await screen.findByRole('heading', { name: 'Mailbox log', level: 2 })).toBeTruthy();
    expect(await screen.findByText('No files have been sent or received yet.')).toBeTruthy();
  });

  it('lists batches with payer, claims, total, status and the 837 to download', async () => {
    fakeApi({
      'GET /api/claim-batches': {
        items: [batch(), batch({ id: 11, status: 'Rejected', acknowledgementCode: 'R', rejectedClaims: 2 })],
      },
      'GET /api/claim-batches/ready': READY,
      'GET /api/claims/status-requests': { items: [] },
      'GET /api/clearinghouse/files': NO_FILES,
    });
    renderWithApp(<ClaimsRoute role="admin" />, { route: '/claims/batches' });
    const table = await screen.findByRole('table', { name: 'Batches' });
    await within(table).findAllByText('Aetna');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]?.textContent).toMatch(/^12Aetna3\$748\.00.*Submitted.*Awaiting/);
    expect(rows[1]?.textContent).toMatch(/^11.*Rejected999 R, 2 rejected/);
    const download = within(rows[0]!).getByRole('link', { name: 'Download the 837 of batch 12' });
    expect(download.getAttribute('href')).toBe('/api/claim-batches/12/837');
    expect(download.getAttribute('download')).toBe('837P-batch-12-000000045.txt');
  });

  it('creates a batch for a payer and says so', async () => {
    const api = fakeApi({
      'GET /api/claim-batches': { items: [] },
      'GET /api/claim-batches/ready': READY,
      'GET /api/claims/status-requests': { items: [] },
      'GET /api/clearinghouse/files': NO_FILES,
      'POST /api/claim-batches': {
        batches: [batch({ id: 13, payer: 'Cigna', claimCount: 2, totalCents: 29_800 })],
      } satisfies CreatedClaimBatches,
    });
    const user = userEvent.setup();
    renderWithApp(<ClaimsRoute role="billing_admin" />, { route: '/claims/batches' });
    await user.click(await screen.findByRole('button', { name: 'Create batch for Cigna' }));
    // The toast's own description (its live-region announcement may hold the same words for a moment).
    const title = await screen.findByText('Batch created');
    expect(title.nextElementSibling?.textContent).toBe(
      'Batch 13: 2 claims to Cigna, $298.00. Download its 837 to send it.',
    );
    expect(api.sent('POST /api/claim-batches').map((r) => r.body)).toEqual([{ payer: 'Cigna' }]);
  });

  it('uploads an acknowledgement as text, and shows why one is refused', async () => {
    const applied: AcknowledgementResult = {
      id: 4,
      kind: '277CA',
      summary: '2 claims accepted, 1 claim rejected',
      batches: [],
      accepted: 2,
      rejected: 1,
      noted: 0,
    };
    let answer: unknown = apiError(409, 'DUPLICATE_ACKNOWLEDGEMENT', 'body: this 277CA was already applied', {
      fields: [{ field: 'body', message: 'this 277CA was already applied' }],
    });
    const api = fakeApi({
      'GET /api/claim-batches': { items: [] },
      'GET /api/claim-batches/ready': { items: [] },
      'GET /api/claims/status-requests': { items: [] },
      'GET /api/clearinghouse/files': NO_FILES,
      'POST /api/acknowledgements': () => answer,
    });
    const user = userEvent.setup();
    renderWithApp(<ClaimsRoute role="billing_admin" />, { route: '/claims/batches' });
    await user.click(await screen.findByRole('button', { name: 'Upload acknowledgement' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload acknowledgement' });
    const file = new File(['ISA*00*…~'], '277ca.txt', { type: 'text/plain' });
    await user.upload(within(dialog).getByLabelText('999, 277CA or 277 file'), file);
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog).findByText('This 277CA was already applied')).toBeTruthy();
    expect(api.sent('POST /api/acknowledgements').map((r) => r.body)).toEqual(['ISA*00*…~']);

    answer = applied;
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Acknowledgement applied')).toBeTruthy();
    expect(screen.getByText('277CA: 2 claims accepted, 1 claim rejected')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('lists status requests with the 276 to download, and asks the payers now', async () => {
    const request: ClaimStatusRequest = {
      id: 4,
      payer: 'Aetna',
      createdAt: '2026-11-22T15:00:00Z',
      createdBy: 'Sam Ortiz',
      claimCount: 2,
      answeredClaims: 1,
      interchangeControlNumber: 46,
      fileName: '276-request-4-000000046.txt',
      mailedAt: null,
    };
    const api = fakeApi({
      'GET /api/claim-batches': { items: [] },
      'GET /api/claim-batches/ready': { items: [] },
      'GET /api/claims/status-requests': { items: [request] },
      'GET /api/clearinghouse/files': NO_FILES,
      'POST /api/claims/status-requests': {
        requestId: 5,
        requestIds: [5, 6],
        claims: 3,
      } satisfies ClaimStatusRequestResult,
    });
    const user = userEvent.setup();
    renderWithApp(<ClaimsRoute role="billing_admin" />, { route: '/claims/batches' });
    const table = await screen.findByRole('table', { name: 'Status requests' });
    const row = (await within(table).findByText('Aetna')).closest('tr')!;
    expect(row.textContent).toMatch(/^4Aetna21.*Not yet/);
    const download = within(row).getByRole('link', { name: 'Download the 276 of status request 4' });
    expect(download.getAttribute('href')).toBe('/api/claims/status-requests/4/file');
    await user.click(screen.getByRole('button', { name: 'Ask payers now' }));
    expect(await screen.findByText('Status requested')).toBeTruthy();
    expect(screen.getByText('3 claims asked about in 2 requests.')).toBeTruthy();
    expect(api.sent('POST /api/claims/status-requests').map((r) => r.body)).toEqual([{}]);
  });

  it('sends a 277 claim status response to its own route, with its file name', async () => {
    const api = fakeApi({
      'GET /api/claim-batches': { items: [] },
      'GET /api/claim-batches/ready': { items: [] },
      'GET /api/claims/status-requests': { items: [] },
      'GET /api/clearinghouse/files': NO_FILES,
      'POST /api/claims/status-responses': {
        responseId: 1,
        answered: 2,
        needsAction: 1,
        summary: '2 claims answered: 1 Pending, 1 rejected back to Draft; 1 to act on',
      } satisfies ClaimStatusResponseResult,
    });
    const user = userEvent.setup();
    renderWithApp(<ClaimsRoute role="billing_admin" />, { route: '/claims/batches' });
    await user.click(await screen.findByRole('button', { name: 'Upload acknowledgement' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload acknowledgement' });
    const isa =
      'ISA*00*          *00*          *ZZ*PAYERHUB       *ZZ*PRACTICE       *261122*1000*^*00501*000000701*0*T*:';
    const text = `${isa}~GS*HN*PAYERHUB*PRACTICE*20261122*1000*701*X*005010X212~ST*277*0001*005010X212~`;
    await user.upload(within(dialog).getByLabelText('999, 277CA or 277 file'), new File([text], 'status.277'));
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Claim status applied')).toBeTruthy();
    expect(api.sent('POST /api/claims/status-responses').map((r) => [r.url, r.body])).toEqual([
      ['/api/claims/status-responses?fileName=status.277', text],
    ]);
  });

  it('is not offered to those who only read claims', async () => {
    fakeApi({
      'GET /api/claims': { items: [], nextCursor: null, total: 0 },
      'GET /api/claims/overview': {
        summary: { totalDeniedCents: 0, totalBilledCents: 0, claims: 0, deniedClaims: 0 },
        denialsByPayer: [],
        topDenialReasons: [],
        weeklyTrend: [],
      },
      'GET /api/claims/providers': [],
    });
    renderWithApp(<ClaimsRoute role="doctor" />, { route: '/claims/batches' });
    expect(await screen.findByRole('table', { name: 'All Claims' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Batches' })).toBeNull();
  });
});
