import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import { CLAIM_FILING_INDICATORS, claimFilingIndicatorLabel, type PayerRecord } from '../payers.schema';
import { PayersTab } from './PayersTab';

const medicare: PayerRecord = {
  id: 1,
  name: 'Medicare',
  payerId: null,
  timelyFilingDays: 365,
  appealDays: 180,
  claimStatusAfterDays: 30,
  claimFilingIndicator: 'MB',
  active: true,
};
const aetna: PayerRecord = {
  id: 2,
  name: 'Aetna',
  payerId: '60054',
  timelyFilingDays: 120,
  appealDays: 180,
  claimStatusAfterDays: null,
  claimFilingIndicator: 'CI',
  active: true,
};

describe('PayersTab', () => {
  it("shows each payer's claim filing indicator in words", async () => {
    fakeApi({ 'GET /api/admin/payers': { items: [aetna, medicare] } });
    renderWithApp(<PayersTab />, { route: '/settings' });
    const row = (await screen.findByRole('cell', { name: 'Medicare' })).closest('tr')!;
    expect(within(row).getByRole('cell', { name: 'MB Medicare Part B' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /Claim filing indicator/ })).toBeTruthy();
  });

  it('labels every X12 indicator', () => {
    const labels = CLAIM_FILING_INDICATORS.map(claimFilingIndicatorLabel);
    expect(labels).toContain('16 Medicare Advantage (HMO risk)');
    expect(labels).toContain("WC Workers' compensation");
    expect(new Set(labels).size).toBe(CLAIM_FILING_INDICATORS.length);
  });

  it('adds a payer with the indicator chosen, commercial unless changed', async () => {
    const api = fakeApi({
      'GET /api/admin/payers': { items: [aetna, medicare] },
      'POST /api/admin/payers': (r) => ({ id: 3, active: true, ...(r.body as object) }),
    });
    const user = userEvent.setup();
    renderWithApp(<PayersTab />, { route: '/settings' });
    await screen.findByRole('cell', { name: 'Aetna' });
    await user.click(screen.getByRole('button', { name: 'Add payer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add payer' });
    expect(within(dialog).getByRole('combobox', { name: 'Claim filing indicator' }).textContent).toBe('CI Commercial');
    await user.type(within(dialog).getByLabelText('Name'), 'Texas Medicaid');
    await user.click(within(dialog).getByRole('combobox', { name: 'Claim filing indicator' }));
    await user.click(await screen.findByRole('option', { name: 'MC Medicaid' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add payer' }));
    expect(await screen.findByText('Payer added')).toBeTruthy();
    expect(api.sent('POST /api/admin/payers').map((r) => r.body)).toEqual([
      {
        name: 'Texas Medicaid',
        payerId: null,
        timelyFilingDays: 365,
        appealDays: 180,
        claimStatusAfterDays: 30,
        claimFilingIndicator: 'MC',
      },
    ]);
  });

  it("edits a payer's indicator, starting from the stored one, and shows the server's refusal on the field", async () => {
    let attempt = 0;
    const api = fakeApi({
      'GET /api/admin/payers': { items: [aetna, medicare] },
      'PATCH /api/admin/payers/:id': (r) =>
        ++attempt === 1
          ? apiError(400, 'VALIDATION_FAILED', 'claimFilingIndicator: is not accepted', {
              fields: [{ field: 'claimFilingIndicator', message: 'is not one the clearinghouse accepts' }],
            })
          : { ...aetna, ...(r.body as object) },
    });
    const user = userEvent.setup();
    renderWithApp(<PayersTab />, { route: '/settings' });
    await screen.findByRole('cell', { name: 'Aetna' });
    await user.click(screen.getByRole('button', { name: /^Edit\s*Aetna$/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Aetna' });
    const indicator = within(dialog).getByRole('combobox', { name: 'Claim filing indicator' });
    expect(indicator.textContent).toBe('CI Commercial');
    await user.click(indicator);
    await user.click(await screen.findByRole('option', { name: '12 PPO' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save payer' }));
    expect(await within(dialog).findByText('Claim filing indicator is not one the clearinghouse accepts')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Save payer' }));
    expect(await screen.findByText('Payer updated')).toBeTruthy();
    await waitFor(() =>
      expect(api.sent('PATCH /api/admin/payers/:id').map((r) => [r.path, r.body])).toEqual([
        [
          '/api/admin/payers/2',
          { payerId: '60054', timelyFilingDays: 120, claimStatusAfterDays: null, claimFilingIndicator: '12' },
        ],
        [
          '/api/admin/payers/2',
          { payerId: '60054', timelyFilingDays: 120, claimStatusAfterDays: null, claimFilingIndicator: '12' },
        ],
      ]),
    );
  });

  it('shows when each payer is asked for claim status, and sets it or turns it off', async () => {
    const api = fakeApi({
      'GET /api/admin/payers': { items: [aetna, medicare] },
      'PATCH /api/admin/payers/:id': (r) => ({ ...medicare, ...(r.body as object) }),
    });
    const user = userEvent.setup();
    renderWithApp(<PayersTab />, { route: '/settings' });
    const aetnaRow = (await screen.findByRole('cell', { name: 'Aetna' })).closest('tr')!;
    expect(within(aetnaRow).getByRole('cell', { name: 'Never' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^Edit\s*Medicare$/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Medicare' });
    const field = within(dialog).getByLabelText('Ask for claim status after (days)');
    expect((field as HTMLInputElement).value).toBe('30');
    await user.clear(field);
    await user.type(field, '400');
    await user.click(within(dialog).getByRole('button', { name: 'Save payer' }));
    expect(await within(dialog).findByText(/must be at most 365 days/)).toBeTruthy();
    await user.clear(field);
    await user.click(within(dialog).getByRole('button', { name: 'Save payer' }));
    expect(await screen.findByText('Payer updated')).toBeTruthy();
    expect(api.sent('PATCH /api/admin/payers/:id').map((r) => r.body)).toEqual([
      { payerId: null, timelyFilingDays: 365, claimStatusAfterDays: null, claimFilingIndicator: 'MB' },
    ]);
  });
});
