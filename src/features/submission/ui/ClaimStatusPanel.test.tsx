import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import type { ClaimStatusView } from '../submission.schema';
import { ClaimStatusPanel } from './ClaimStatusPanel';

const answered: ClaimStatusView = {
  askable: true,
  latest: {
    askedAt: '2026-11-20T15:00:00Z',
    answeredAt: '2026-11-22T15:00:00Z',
    categoryCode: 'A7',
    statusCode: '562',
    message: "A7:562:82 Rejected for invalid information — the entity's NPI (rendering provider)",
    effectiveOn: '2026-11-21',
    needsAction: true,
  },
};

describe('the payer status of a claim', () => {
  it("shows the payer's latest answer in words, and that it needs action", async () => {
    fakeApi({ 'GET /api/claims/7/status': answered });
    renderWithApp(<ClaimStatusPanel claimId={7} />);
    expect(await screen.findByText(/Rejected for invalid information/)).toBeTruthy();
    expect(screen.getByText(/needs action/)).toBeTruthy();
    expect(screen.getByText(/in effect from 2026-11-21/)).toBeTruthy();
  });

  it('says when the payer was never asked, and asks it now for a sent claim', async () => {
    const api = fakeApi({
      'GET /api/claims/7/status': { latest: null, askable: true },
      'POST /api/claims/status-requests': { requestId: 3, requestIds: [3], claims: 1 },
    });
    const user = userEvent.setup();
    renderWithApp(<ClaimStatusPanel claimId={7} />);
    expect(await screen.findByText('The payer has not been asked about this claim.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Ask payer for status' }));
    expect(await screen.findByText('Status requested')).toBeTruthy();
    expect(api.sent('POST /api/claims/status-requests').map((r) => r.body)).toEqual([{ claimIds: [7] }]);
  });

  it('offers no asking for a claim not sent, and shows a failed load with a retry', async () => {
    let calls = 0;
    fakeApi({
      'GET /api/claims/7/status': () =>
        ++calls === 1
          ? apiError(500, 'INTERNAL', 'The server could not complete the request.')
          : { latest: null, askable: false },
    });
    const user = userEvent.setup();
    renderWithApp(<ClaimStatusPanel claimId={7} />);
    expect(await screen.findByRole('alert')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('The payer has not been asked about this claim.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Ask payer for status' })).toBeNull();
  });
});
