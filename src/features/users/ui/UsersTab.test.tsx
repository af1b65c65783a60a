import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import type { ManagedUser } from '../users.schema';
import { UsersTab } from './UsersTab';

const createdAt = '2026-01-05T10:00:00.000Z';
const nurse: ManagedUser = {
  id: 2,
  name: 'Nora Kim',
  email: 'nora@x.test',
  role: 'nurse_manager',
  status: 'Active',
  createdAt,
};
const rosa: ManagedUser = {
  id: 9,
  name: 'Rosa Delgado',
  email: 'rosa@x.test',
  role: 'patient',
  status: 'Deactivated',
  createdAt,
};

async function openLinkDialog() {
  renderWithApp(<UsersTab />, { route: '/settings' });
  // jsdom lays out no inline text, so the hidden " of …" joins the label without its space.
  await screen.findByText('rosa@x.test');
  fireEvent.click(await screen.findByRole('button', { name: /^Link record\s*of Rosa Delgado$/ }));
  return screen.findByRole('dialog', { name: 'Link Rosa Delgado to a patient record' });
}

describe('UsersTab: linking a patient account to a record', () => {
  it('offers the link on patient accounts only and sends the MRN; the list is read again', async () => {
    const api = fakeApi({
      'GET /api/users': { items: [nurse, rosa] },
      'PUT /api/users/:id/patient-link': { ...rosa, status: 'Active' },
    });
    const dialog = await openLinkDialog();
    expect(screen.queryByRole('button', { name: /^Link record\s*of Nora Kim$/ })).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('MRN'), { target: { value: 'MRN-100008' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Link record' }));
    expect(await screen.findByText('Rosa Delgado is linked to MRN-100008.')).toBeTruthy();
    expect(api.sent('PUT /api/users/:id/patient-link').map((r) => [r.path, r.body])).toEqual([
      ['/api/users/9/patient-link', { mrn: 'MRN-100008' }],
    ]);
    await waitFor(() => expect(api.sent('GET /api/users').length).toBe(2));
  });

  it("shows the server's refusal under the MRN field and keeps the dialog open", async () => {
    fakeApi({
      'GET /api/users': { items: [nurse, rosa] },
      'PUT /api/users/:id/patient-link': apiError(404, 'NOT_FOUND', 'mrn: no patient record can be linked', {
        fields: [{ field: 'mrn', message: 'must name a patient record that has no account' }],
      }),
    });
    const dialog = await openLinkDialog();
    fireEvent.change(within(dialog).getByLabelText('MRN'), { target: { value: 'MRN-100001' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Link record' }));
    expect(await within(dialog).findByText('MRN must name a patient record that has no account')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('MRN'), { target: { value: 'bad mrn!' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Link record' }));
    expect(await within(dialog).findByText('MRN may contain only letters, digits and -')).toBeTruthy();
  });
});
