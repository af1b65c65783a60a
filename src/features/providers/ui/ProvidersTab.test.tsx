import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import type { ManagedProvider } from '../providers.schema';
import { ProvidersTab } from './ProvidersTab';

const mitchell: ManagedProvider = {
  id: 1,
  name: 'Dr. Sarah Mitchell',
  specialty: 'Family Medicine',
  active: true,
  npi: '1234567893',
  taxonomyCode: '207Q00000X',
};
const iyer: ManagedProvider = {
  id: 2,
  name: 'Dr. Rajesh Iyer',
  specialty: 'Internal Medicine',
  active: false,
  npi: null,
  taxonomyCode: null,
};

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
      { name: 'Dr. Sarah Mitchell', specialty: 'Dermatology', npi: null, taxonomyCode: null },
      { name: 'Dr. Lena Hart', specialty: 'Dermatology', npi: null, taxonomyCode: null },
    ]);
    await waitFor(() => expect(api.sent('GET /api/admin/providers').length).toBe(2));
  });

  it("shows each provider's NPI and taxonomy, and checks an NPI's check digit before the server does", async () => {
    let attempt = 0;
    const api = fakeApi({
      'GET /api/admin/providers': { items: [mitchell, iyer] },
      'PATCH /api/admin/providers/:id': (r) =>
        ++attempt === 1
          ? apiError(409, 'PROVIDER_EXISTS', 'npi: another provider has that NPI', {
              fields: [{ field: 'npi', message: 'is already the NPI of another provider' }],
            })
          : { ...iyer, ...(r.body as object) },
    });
    renderWithApp(<ProvidersTab />, { route: '/settings' });
    const row = (await screen.findByRole('cell', { name: 'Dr. Sarah Mitchell' })).closest('tr')!;
    expect(within(row).getByRole('cell', { name: '1234567893' })).toBeTruthy();
    expect(within(row).getByRole('cell', { name: '207Q00000X' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /^Edit\s*Dr\. Rajesh Iyer$/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Dr. Rajesh Iyer' });
    fireEvent.change(within(dialog).getByLabelText('NPI'), { target: { value: '1234567890' } });
    fireEvent.change(within(dialog).getByLabelText('Taxonomy code'), { target: { value: '207r00000x' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save provider' }));
    const message = await within(dialog).findByText('NPI must be a valid NPI: 10 digits with a correct check digit');
    expect(within(dialog).getByLabelText('NPI').getAttribute('aria-describedby')).toContain(message.id);
    expect(api.sent('PATCH /api/admin/providers/:id')).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('NPI'), { target: { value: '1234567893' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save provider' }));
    expect(await within(dialog).findByText('NPI is already the NPI of another provider')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('NPI'), { target: { value: '1245319599' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save provider' }));
    expect(await screen.findByText('Dr. Rajesh Iyer was saved.')).toBeTruthy();
    expect(api.sent('PATCH /api/admin/providers/:id').map((r) => r.body)).toEqual([
      { name: 'Dr. Rajesh Iyer', specialty: 'Internal Medicine', npi: '1234567893', taxonomyCode: '207R00000X' },
      { name: 'Dr. Rajesh Iyer', specialty: 'Internal Medicine', npi: '1245319599', taxonomyCode: '207R00000X' },
    ]);
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
