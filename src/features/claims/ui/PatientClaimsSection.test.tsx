import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import type { ClaimPage, ClaimRow } from '../claims.schema';
import { PATIENT_CLAIMS_SHOWN, PatientClaimsSection } from './PatientClaimsSection';

const LIST = 'GET /api/claims';

const row = (over: Partial<ClaimRow>): ClaimRow => ({
  id: 31,
  patient: 'Maria Lopez',
  accountNumber: 'ACC-2026-100031',
  procedure: '99213',
  provider: 'Dr. Sarah Mitchell',
  payer: 'Aetna',
  serviceDate: '2026-07-01',
  billedCents: 24_900,
  paidCents: 0,
  daysAR: 30,
  balanceCents: 21_400,
  status: 'Denied',
  frequencyCode: '1',
  reason: 'CO-16',
  denialDescription: 'Claim lacks information',
  ...over,
});

const page = (items: ClaimRow[], total: number): ClaimPage => ({ items, nextCursor: null, total });

describe('PatientClaimsSection', () => {
  it("asks for this patient's most recent claims and lists them, each opening its claim view", async () => {
    const api = fakeApi({
      [LIST]: page([row({}), row({ id: 32, accountNumber: 'ACC-2026-100032', status: 'Paid', balanceCents: 0 })], 2),
      'GET /api/claims/:id': pending,
    });
    renderWithApp(<PatientClaimsSection patientId={7} role="doctor" />);
    const section = screen.getByRole('region', { name: 'Claims' });
    const rows = await within(section).findAllByRole('row');
    expect(rows).toHaveLength(3); // the header and two claims
    const sent = api.requests.find((r) => r.path === '/api/claims')!;
    expect(Object.fromEntries(sent.query)).toEqual({
      patientId: '7',
      sort: 'serviceDate',
      dir: 'desc',
      limit: String(PATIENT_CLAIMS_SHOWN),
    });
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent?.trim()),
    ).toEqual(['ACC-2026-100031', 'Jul 1, 2026', 'Aetna', 'Denied', '$249.00', '$214.00', 'View']);
    expect(within(section).queryByText(/most recent of/)).toBeNull();

    await userEvent.click(within(section).getByRole('button', { name: 'View claim ACC-2026-100032' }));
    // The view is its own chunk, loaded on first opening.
    expect(await screen.findByRole('dialog', { name: 'Claim ACC-2026-100032' }, { timeout: 10_000 })).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'GET' && r.path === '/api/claims/32')).toBe(true);
  });

  it('says how many claims there are when it shows only the most recent', async () => {
    fakeApi({ [LIST]: page([row({})], 57) });
    renderWithApp(<PatientClaimsSection patientId={7} role="admin" />);
    expect(await screen.findByText('The 1 most recent of 57 claims; the Claims screen lists them all.')).toBeTruthy();
  });

  it('says when the patient has no claims, and offers to try again when they could not be loaded', async () => {
    fakeApi({ [LIST]: page([], 0) });
    const { unmount } = renderWithApp(<PatientClaimsSection patientId={7} role="admin" />);
    expect(await screen.findByText('No claims for this patient')).toBeTruthy();
    unmount();

    let calls = 0;
    fakeApi({
      [LIST]: () => (++calls === 1 ? apiError(500, 'INTERNAL', 'Internal Server Error') : page([row({})], 1)),
    });
    renderWithApp(<PatientClaimsSection patientId={8} role="admin" />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The claims could not be loaded');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'View claim ACC-2026-100031' })).toBeTruthy();
  });
});
