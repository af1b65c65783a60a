import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import type { ManagedProvider } from '../providers.schema';
import { ProvidersTab } from './ProvidersTab';

const mitchell: ManagedProvider = { id: 1, name: 'Dr. Sarah Mitchell', specialty: 'Family Medicine', active: true };
const iyer: ManagedProvider = { id: 2, name: 'Dr. Rajesh Iyer', specialty: 'Internal Medicine', active: false };

describe('ProvidersTab', () => {
  it('adds a provider, showing the server refusal under its field first', async () => {
    let attempt = 0;
    const api = fakeApi({
      'GET /api/admin/providers': { items: [mitchell, iyer] },
      'POST /api/admin/providers': (r) =>
        ++attempt === 1
          ? apiError(409, 'PROVIDER_EXISTS', 'name: a provider of that name already exists', {
              fields: [{ field: 'name', message: 'is already the name of another provider' }],
            })
          : { id: 3, ...(r.body as object), active: true },
    });
    renderWithApp(<ProvidersTab />, { route: '/settings' });
    await screen.findByRole('cell', { name: 'Dr. Sarah Mitchell' });
    fireEvent.click(screen.getByRole('button', { name: 'Add provider' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add provider' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add provider' }));
    expect(await within(dialog).findByText('Name is required')).toBeTruthy();
    expect(api.sent('POST /api/admin/providers')).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Dr. Sarah Mitchell' } });
    fireEvent.change(within(dialog).getByLabelText('Specialty'), { target: { value: 'Dermatology' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add provider' }));
    expect(await within(dialog).findByText('Name is already the name of another provider')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Dr. Lena Hart' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add provider' }));
    expect(await screen.findByText('Dr. Lena Hart can now be booked.')).toBeTruthy();
    expect(api.sent('POST /api/admin/providers').map((r) => r.body)).toEqual([
      { name: 'Dr. Sarah Mitchell', specialty: 'Dermatology' },
      { name: 'Dr. Lena Hart', specialty: 'Dermatology' },
    ]);
    await waitFor(() => expect(api.sent('GET /api/admin/providers').length).toBe(2));
  });

  it('deactivates only after the confirmation, and reactivates a deactivated provider', async () => {
    const api = fakeApi({
      'GET /api/admin/providers': { items: [mitchell, iyer] },
      'PATCH /api/admin/providers/:id': (r) => ({ ...mitchell, ...(r.body as object) }),
    });
    renderWithApp(<ProvidersTab />, { route: '/settings' });
    await screen.findByRole('cell', { name: 'Dr. Sarah Mitchell' });
    fireEvent.click(screen.getByRole('button', { name: /^Deactivate\s*Dr\. Sarah Mitchell$/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Dr. Sarah Mitchell?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.sent('PATCH /api/admin/providers/:id')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: /^Deactivate\s*Dr\. Sarah Mitchell$/ }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Deactivate Dr. Sarah Mitchell?' })).getByRole('button', {
        name: 'Deactivate',
      }),
    );
    expect(await screen.findByText('Dr. Sarah Mitchell is no longer offered for new bookings.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^Reactivate\s*Dr\. Rajesh Iyer$/ }));
    await waitFor(() =>
      expect(api.sent('PATCH /api/admin/providers/:id').map((r) => [r.path, r.body])).toEqual([
        ['/api/admin/providers/1', { active: false }],
        ['/api/admin/providers/2', { active: true }],
      ]),
    );
  });
});
