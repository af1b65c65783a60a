import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { roleLabel } from '@/shared/access';
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
  mfaEnrolled: true,
};
const rosa: ManagedUser = {
  id: 9,
  name: 'Rosa Delgado',
  email: 'rosa@x.test',
  role: 'patient',
  status: 'Deactivated',
  createdAt,
  mfaEnrolled: false,
};

const self: ManagedUser = {
  id: 1,
  name: 'Ada Admin',
  email: 'ada@x.test',
  role: 'admin',
  status: 'Active',
  createdAt,
  mfaEnrolled: true,
};
const session = {
  user: { id: 1, email: 'ada@x.test', name: 'Ada Admin', role: 'admin', patientId: null },
  mfa: true,
  csrfToken: 't',
  expiresAt: '2026-11-23T03:00:00Z',
};

async function openLinkDialog() {
  renderWithApp(<UsersTab />, { route: '/settings' });
  // The test DOM lays out no inline text, so the hidden " of …" joins the label without its space.
  await screen.findByText('rosa@x.test');
  fireEvent.click(await screen.findByRole('button', { name: /^Link record\s*of Rosa Delgado$/ }));
  return screen.findByRole('dialog', { name: 'Link Rosa Delgado to a patient record' });
}

describe('UsersTab: linking a patient account to a record', () => {
  it('offers the link on patient accounts only and sends the MRN; the list is read again', async () => {
    const api = fakeApi({
      'GET /api/auth/session': session,
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
      'GET /api/auth/session': session,
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

describe('UsersTab: resetting a lost authenticator', () => {
  it('offers Reset MFA only where an authenticator is set up, asks first, and sends the reset', async () => {
    const api = fakeApi({
      'GET /api/auth/session': session,
      'GET /api/users': { items: [self, nurse, rosa] },
      'POST /api/users/:id/mfa-reset': { ...nurse, mfaEnrolled: false },
    });
    renderWithApp(<UsersTab />, { route: '/settings' });
    await screen.findByText('rosa@x.test');
    expect(screen.getByRole('cell', { name: 'Not set up' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Reset MFA\s*of Rosa Delgado$/ })).toBeNull();
    // Not on the admin's own row: another admin resets theirs.
    expect(screen.queryByRole('button', { name: /^Reset MFA\s*of Ada Admin$/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /^Reset MFA\s*of Nora Kim$/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset the authenticator of Nora Kim?' });
    // Nothing is sent before the admin confirms.
    expect(api.sent('POST /api/users/:id/mfa-reset')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset MFA' }));
    expect(await screen.findByText('Nora Kim sets up a new authenticator at next sign-in.')).toBeTruthy();
    expect(api.sent('POST /api/users/:id/mfa-reset').map((r) => r.path)).toEqual(['/api/users/2/mfa-reset']);
    await waitFor(() => expect(api.sent('GET /api/users').length).toBe(2));
  });

  it("shows the server's refusal", async () => {
    fakeApi({
      'GET /api/auth/session': session,
      'GET /api/users': { items: [nurse] },
      'POST /api/users/:id/mfa-reset': apiError(404, 'NOT_FOUND', 'user not found'),
    });
    renderWithApp(<UsersTab />, { route: '/settings' });
    fireEvent.click(await screen.findByRole('button', { name: /^Reset MFA\s*of Nora Kim$/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset the authenticator of Nora Kim?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset MFA' }));
    expect(await screen.findByText('user not found')).toBeTruthy();
  });
});

describe('UsersTab: role changes and deactivation ask first; the last active admin stays', () => {
  const otherAdmin: ManagedUser = { ...nurse, id: 3, name: 'Bo Admin', email: 'bo@x.test', role: 'admin' };

  it('changes a role only after the confirmation', async () => {
    const api = fakeApi({
      'GET /api/auth/session': session,
      'GET /api/users': { items: [self, nurse] },
      'PATCH /api/users/:id': { ...nurse, role: 'doctor' },
    });
    const user = userEvent.setup();
    renderWithApp(<UsersTab />, { route: '/settings' });
    await user.click(await screen.findByRole('combobox', { name: 'Role of Nora Kim' }));
    await user.click(await screen.findByRole('option', { name: roleLabel('doctor') }));
    const dialog = await screen.findByRole('dialog', {
      name: `Change the role of Nora Kim to ${roleLabel('doctor')}?`,
    });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.sent('PATCH /api/users/:id')).toEqual([]);

    await user.click(screen.getByRole('combobox', { name: 'Role of Nora Kim' }));
    await user.click(await screen.findByRole('option', { name: roleLabel('doctor') }));
    const again = await screen.findByRole('dialog', { name: `Change the role of Nora Kim to ${roleLabel('doctor')}?` });
    await user.click(within(again).getByRole('button', { name: 'Change role' }));
    await waitFor(() =>
      expect(api.sent('PATCH /api/users/:id').map((r) => [r.path, r.body])).toEqual([
        ['/api/users/2', { role: 'doctor' }],
      ]),
    );
  });

  it('deactivates only after the confirmation', async () => {
    const api = fakeApi({
      'GET /api/auth/session': session,
      'GET /api/users': { items: [self, nurse] },
      'PATCH /api/users/:id': { ...nurse, status: 'Deactivated' },
    });
    renderWithApp(<UsersTab />, { route: '/settings' });
    fireEvent.click(await screen.findByRole('button', { name: /^Deactivate\s*Nora Kim$/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Nora Kim?' });
    expect(api.sent('PATCH /api/users/:id')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(api.sent('PATCH /api/users/:id').map((r) => r.body)).toEqual([{ active: false }]));
  });

  it('offers neither Deactivate nor a role change for the last active admin, and both once another admin is active', async () => {
    fakeApi({ 'GET /api/auth/session': session, 'GET /api/users': { items: [self, nurse] } });
    const { unmount } = renderWithApp(<UsersTab />, { route: '/settings' });
    await screen.findByText('nora@x.test');
    expect(screen.queryByRole('button', { name: /^Deactivate\s*Ada Admin$/ })).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Role of Ada Admin' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: /^Deactivate\s*Nora Kim$/ })).toBeTruthy();
    unmount();

    fakeApi({ 'GET /api/auth/session': session, 'GET /api/users': { items: [self, otherAdmin, nurse] } });
    renderWithApp(<UsersTab />, { route: '/settings' });
    await screen.findByText('bo@x.test');
    expect(screen.getByRole('button', { name: /^Deactivate\s*Ada Admin$/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Deactivate\s*Bo Admin$/ })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Role of Ada Admin' }).hasAttribute('disabled')).toBe(false);
  });
});
