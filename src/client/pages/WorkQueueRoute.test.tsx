import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import { claimDetail } from '@/features/claims/ui/claims.detail-fixture';
import { workItem } from '@/features/workqueue/ui/workqueue.item-fixture';
import WorkQueueRoute from './WorkQueueRoute';

const ITEM = workItem({ claimId: 7, accountNumber: 'ACC-2026-100007', dollarsAtRiskCents: 24_900 });

describe('WorkQueueRoute', () => {
  it("appeals an item's claim from its view and shows the item resolved by the appeal", async () => {
    const api = fakeApi({
      'GET /api/work-queue': { items: [ITEM], nextCursor: null, total: 1 },
      'GET /api/work-queue/assignees': { items: [] },
      'GET /api/payers': [{ name: 'Aetna', claimFilingIndicator: 'CI' }],
      'GET /api/claims/7': claimDetail({ status: 'Denied', reason: 'CO-197' }),
      'GET /api/claims/7/status': { latest: null, askable: false },
      'POST /api/claims/7/appeals': { id: 7, accountNumber: 'ACC-2026-100007', status: 'Appealed' },
      'GET /api/work-items/5': {
        ...ITEM,
        resolvedAt: '2026-11-24T15:09:00Z',
        outcome: 'appealed',
        resolutionNote: 'First level appeal filed from the claim: Authorization was on file',
      },
    });
    const user = userEvent.setup();
    renderWithApp(<WorkQueueRoute role="billing_admin" />, { route: '/work-queue' });
    await user.click(await screen.findByRole('button', { name: 'ACC-2026-100007' }));
    const item = await screen.findByRole('dialog', { name: 'ACC-2026-100007 · Denial' });
    await user.click(within(item).getByRole('button', { name: 'Open claim' }));
    const claim = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    await user.click(await within(claim).findByRole('button', { name: 'Appeal' }));
    const appeal = await screen.findByRole('dialog', { name: 'Appeal claim' });
    await user.type(within(appeal).getByLabelText('Reason'), 'Authorization was on file');
    await user.click(within(appeal).getByRole('button', { name: 'Submit appeal' }));
    expect(await screen.findByText('Appeal recorded')).toBeTruthy();
    expect(api.sent('POST /api/claims/7/appeals').map((r) => r.body)).toEqual([
      { reason: 'Authorization was on file', note: '', level: 'first', deadline: null },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Appeal claim' })).toBeNull());
    await user.click(within(claim).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Claim ACC-2026-100007' })).toBeNull());
    expect(await within(item).findByText(/Resolved 2026-11-24: Appealed/)).toBeTruthy();
  });
});
