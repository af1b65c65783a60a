import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { ShowLocation, renderWithApp } from '@/testing/ui-render';
import type { SearchResult } from '../search.schema';
import { GlobalSearch } from './GlobalSearch';

const RESULT: SearchResult = {
  patients: [{ id: 1, name: 'Maria Lopez', mrn: 'MRN-100001' }],
  appointments: [{ id: 7, patient: 'Maria Lopez', provider: 'Dr. Ana Gutierrez', date: '2027-01-18', time: '11:30' }],
  claims: [{ id: 9, patient: 'Maria Lopez', accountNumber: 'ACC-000123', status: 'Denied' }],
};

function renderSearch() {
  fakeApi({ 'GET /api/search': RESULT });
  renderWithApp(
    <>
      <GlobalSearch />
      <ShowLocation />
    </>,
    { route: '/home' },
  );
  return screen.getByRole('combobox', { name: 'Global search' });
}

describe('GlobalSearch', () => {
  it('moves through the hits of every group with the arrow keys and opens the active one with Enter', async () => {
    const user = userEvent.setup();
    const box = renderSearch();
    await user.type(box, 'maria');
    const list = await screen.findByRole('listbox', { name: 'Search results' });
    expect(box.getAttribute('aria-expanded')).toBe('true');
    expect(
      within(list)
        .getAllByRole('group')
        .map((g) => g.textContent),
    ).toEqual([
      'PatientsMaria LopezMRN-100001',
      'AppointmentsMaria LopezJan 18, 2027, 11:30 AM · Dr. Ana Gutierrez',
      'ClaimsMaria LopezACC-000123 · Denied',
    ]);

    await user.keyboard('{ArrowDown}');
    const options = within(list).getAllByRole('option');
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowDown}');
    expect(box.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('location').textContent).toBe('/appointments?date=2027-01-18');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('wraps round from the top with ArrowUp and opens a patient or claim hit at its filtered list', async () => {
    const user = userEvent.setup();
    const box = renderSearch();
    await user.type(box, 'maria');
    await screen.findByRole('listbox');
    await user.keyboard('{ArrowUp}{Enter}');
    expect(screen.getByTestId('location').textContent).toBe('/claims?search=ACC-000123');

    await user.type(box, 'maria');
    await user.click(await screen.findByRole('option', { name: /MRN-100001/ }));
    expect(screen.getByTestId('location').textContent).toBe('/patients?search=Maria%20Lopez');
  });

  it('closes the list with Escape and keeps the text; a second Escape clears it', async () => {
    const user = userEvent.setup();
    const box = renderSearch();
    await user.type(box, 'maria');
    await screen.findByRole('listbox');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect((box as HTMLInputElement).value).toBe('maria');
    await user.keyboard('{ArrowDown}');
    expect(await screen.findByRole('listbox')).toBeTruthy();
    await user.keyboard('{Escape}{Escape}');
    expect((box as HTMLInputElement).value).toBe('');
  });
});
