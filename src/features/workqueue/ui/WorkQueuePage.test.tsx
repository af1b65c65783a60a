import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import { workItem } from './workqueue.item-fixture';
import WorkQueuePage from './WorkQueuePage';

const ITEM = workItem();

async function choose(user: ReturnType<typeof userEvent.setup>, select: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: select }));
  await user.click(await screen.findByRole('option', { name: option }));
}

function server() {
  return fakeApi({
    'GET /api/work-queue': ({ query }) =>
      query.get('status') === 'open' && query.get('category') !== 'coding'
        ? { items: [ITEM], nextCursor: null, total: 1 }
        : { items: [], nextCursor: null, total: 0 },
    'GET /api/work-queue/assignees': { items: [{ id: 4, name: 'Sam Ortiz', email: 'billing.admin@healthcare.demo' }] },
    'GET /api/payers': [{ name: 'Aetna', claimFilingIndicator: 'CI' }],
    'POST /api/work-items/:id/assign': ({ body }) => ({
      ...ITEM,
      assigneeId: 4,
      assignee: 'Sam Ortiz',
      ...(body as object),
    }),
    'POST /api/work-items/:id/resolve': ({ body }) => ({
      ...ITEM,
      resolvedAt: '2026-11-24T15:05:00Z',
      outcome: (body as { outcome: string }).outcome,
    }),
  });
}

/**
 * The page with a stand-in for the claim's view (a button that closes it, noting each claim it is opened with),
 * the item opened.
 */
async function openItemWithStubClaimView(opened: { id: number; accountNumber: string }[] = []) {
  const user = userEvent.setup();
  renderWithApp(
    <WorkQueuePage
      role="billing_admin"
      claimView={(claim, onClose) => {
        opened.push(claim);
        return (
          <button type="button" onClick={onClose}>
            Close claim {claim.accountNumber}
          </button>
        );
      }}
    />,
    { route: '/work-queue' },
  );
  await user.click(await screen.findByRole('button', { name: 'ACC-2026-5' }));
  return { user, item: await screen.findByRole('dialog', { name: 'ACC-2026-5 · Denial' }) };
}

describe('WorkQueuePage', () => {
  it('lists the open items and asks the server for a category', async () => {
    const api = server();
    const user = userEvent.setup();
    renderWithApp(<WorkQueuePage role="billing_admin" />, { route: '/work-queue' });
    const table = await screen.findByRole('table', { name: 'Work items' });
    expect(await within(table).findByText('ACC-2026-5')).toBeTruthy();
    expect(within(table).getByText('$149.00')).toBeTruthy();
    await choose(user, 'Category', 'Coding');
    expect(await screen.findByText('Nothing needs a person right now')).toBeTruthy();
    expect(api.sent('GET /api/work-queue').at(-1)?.query.get('category')).toBe('coding');
    // The rules are the admin's.
    expect(screen.queryByText('Assignment rules')).toBeNull();
  });

  it('assigns an item and resolves it; a write-off needs its reason', async () => {
    const api = server();
    const user = userEvent.setup();
    renderWithApp(<WorkQueuePage role="billing_admin" />, { route: '/work-queue' });
    await user.click(await screen.findByRole('button', { name: 'ACC-2026-5' }));
    await choose(user, 'Assignee', 'Sam Ortiz');
    expect(await screen.findByText('Item assigned')).toBeTruthy();
    expect(api.sent('POST /api/work-items/:id/assign')[0]?.body).toEqual({ assigneeId: 4 });
    await choose(user, 'Outcome', 'Written off');
    const resolve = screen.getByRole('button', { name: 'Resolve' });
    expect((resolve as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByLabelText('Reason (required)'), 'Below the small-balance threshold');
    await user.click(resolve);
    expect(await screen.findByText('Item resolved')).toBeTruthy();
    expect(api.sent('POST /api/work-items/:id/resolve')[0]?.body).toEqual({
      outcome: 'written_off',
      note: 'Below the small-balance threshold',
    });
  });

  it("opens the item's claim in the view it is given, and shows the item as the claim's action left it", async () => {
    const api = server();
    api.on('GET /api/work-items/:id', {
      ...ITEM,
      resolvedAt: '2026-11-24T15:09:00Z',
      outcome: 'appealed',
      resolutionNote: 'First level appeal filed from the claim: Authorization was on file',
    });
    const opened: { id: number; accountNumber: string }[] = [];
    const { user, item } = await openItemWithStubClaimView(opened);
    // Not read again merely for being opened: each read of an item is audited.
    expect(api.sent('GET /api/work-items/:id')).toEqual([]);
    await user.click(within(item).getByRole('button', { name: 'Open claim' }));
    expect(opened.at(-1)).toEqual({ id: 3, accountNumber: 'ACC-2026-5' });
    await user.click(await within(item).findByRole('button', { name: 'Close claim ACC-2026-5' }));
    expect(
      await within(item).findByText(/Resolved 2026-11-24: Appealed — First level appeal filed from the claim/),
    ).toBeTruthy();
    expect(api.sent('GET /api/work-items/:id').map((r) => r.path)).toEqual(['/api/work-items/5']);
    expect(within(item).queryByRole('button', { name: 'Resolve' })).toBeNull();
  });

  it('says so when the item cannot be read again after its claim’s view closes, and keeps what it showed', async () => {
    const api = server();
    api.on('GET /api/work-items/:id', apiError(503, 'UNAVAILABLE', 'The database is not answering.'));
    const { user, item } = await openItemWithStubClaimView();
    await user.click(within(item).getByRole('button', { name: 'Open claim' }));
    await user.click(await within(item).findByRole('button', { name: 'Close claim ACC-2026-5' }));
    expect(await screen.findByText('The item could not be read again')).toBeTruthy();
    expect(within(item).getByRole('button', { name: 'Resolve' })).toBeTruthy();
  });

  it('offers no claim for an item that has none (a remittance claim matching none of ours)', async () => {
    const api = server();
    api.on('GET /api/work-queue', {
      items: [{ ...ITEM, source: 'unmatched_claim', claimId: null, patientName: '' }],
      nextCursor: null,
      total: 1,
    });
    const user = userEvent.setup();
    renderWithApp(<WorkQueuePage role="billing_admin" claimView={() => null} />, { route: '/work-queue' });
    await user.click(await screen.findByRole('button', { name: 'ACC-2026-5' }));
    const item = await screen.findByRole('dialog', { name: 'ACC-2026-5 · Unmatched claim' });
    expect(within(item).queryByRole('button', { name: 'Open claim' })).toBeNull();
  });

  it('offers no claim when it is given no view for one (a role that may not read claims)', async () => {
    server();
    const user = userEvent.setup();
    renderWithApp(<WorkQueuePage role="billing_admin" />, { route: '/work-queue' });
    await user.click(await screen.findByRole('button', { name: 'ACC-2026-5' }));
    const item = await screen.findByRole('dialog', { name: 'ACC-2026-5 · Denial' });
    expect(within(item).queryByRole('button', { name: 'Open claim' })).toBeNull();
  });
});
