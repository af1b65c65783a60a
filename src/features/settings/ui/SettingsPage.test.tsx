import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Role } from '@/shared/access';
import { apiError, fakeApi, type FakeRequest } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import { DEFAULT_PRACTICE_HOURS } from '../practice.schema';
import { DEFAULT_INTEGRATIONS, DEFAULT_NOTIFICATIONS, DEFAULT_USER_SETTINGS } from '../settings.schema';
import SettingsPage, { visibleTabs } from './SettingsPage';

/** The settings endpoints the tabs read and write; a PUT answers what it was sent, as the server stores it. */
function serve() {
  return fakeApi({
    'GET /api/settings': { id: 1, ...DEFAULT_USER_SETTINGS },
    'GET /api/settings/practice': DEFAULT_PRACTICE_HOURS,
    'PUT /api/settings/practice': (request: FakeRequest) => request.body,
    'GET /api/settings/practice/time-zone': { timeZone: 'America/Chicago', chosen: false, today: '2026-11-22' },
    'GET /api/settings/practice/billing-identity': {
      billingName: 'Riverside Family Practice LLC',
      billingNpi: '1667788990',
      taxId: '371234567',
      taxonomyCode: '193200000X',
      billingAddressLine1: '1200 Main Street, Suite 200',
      billingCity: 'Springfield',
      billingState: 'IL',
      billingZip: '627011234',
    },
    'GET /api/settings/practice/clearinghouse': {
      ediReceiverName: 'Prairie Clearinghouse',
      ediReceiverId: 'PRAIRIECH',
      ediSubmitterId: 'RFP0042',
      ediUsage: 'T',
    },
    'PUT /api/settings/practice/clearinghouse': (request: FakeRequest) => request.body,
    'GET /api/settings/notifications': { scope: 'practice', settings: DEFAULT_NOTIFICATIONS },
    'GET /api/settings/integrations': DEFAULT_INTEGRATIONS,
    'PUT /api/settings/integrations/:key': ({ params, body }: FakeRequest) => ({
      ...DEFAULT_INTEGRATIONS,
      [params.key ?? '']: (body as { connected: boolean }).connected,
    }),
  });
}

function renderPage(role: Role) {
  return renderWithApp(<SettingsPage role={role} usersTab={<p>users tab</p>} />, { route: '/settings' });
}

describe('SettingsPage', () => {
  it('shows patient Display, Notifications and Security, guest only Display and Notifications, and disables Users for other staff', () => {
    expect(visibleTabs('patient').map((t) => t.tab)).toEqual(['display', 'notifications', 'security']);
    expect(visibleTabs('guest').map((t) => t.tab)).toEqual(['display', 'notifications']);
    expect(visibleTabs('doctor').find((t) => t.tab === 'users')?.disabled).toBe(true);
    expect(visibleTabs('admin').every((t) => !t.disabled)).toBe(true);
    // The reference data a reset keeps is the admin's to maintain: the tabs show to no one else.
    expect(visibleTabs('admin').map((t) => t.tab)).toEqual(expect.arrayContaining(['providers', 'payers', 'charges']));
    // The clearinghouse mailbox's settings hold its sign-in: the admin's alone.
    expect(visibleTabs('admin').map((t) => t.tab)).toContain('clearinghouse');
    expect(visibleTabs('billing_admin').map((t) => t.tab)).not.toContain('clearinghouse');
    for (const role of ['doctor', 'nurse_manager', 'billing_admin', 'patient', 'guest'] as const) {
      expect(visibleTabs(role).map((t) => t.tab)).not.toEqual(expect.arrayContaining(['providers']));
      expect(visibleTabs(role).map((t) => t.tab)).not.toEqual(expect.arrayContaining(['payers']));
    }
  });

  it('saves the practice settings with a toast', async () => {
    const api = serve();
    renderPage('admin');
    await userEvent.click(screen.getByRole('tab', { name: 'Practice' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Saturday' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save practice settings' }));
    expect(await screen.findByText('Settings saved')).toBeTruthy();
    expect(api.sent('PUT /api/settings/practice').map((r) => r.body)).toEqual([
      { ...DEFAULT_PRACTICE_HOURS, workingDays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] },
    ]);
    // The practice's time zone and the day it makes today, until one is chosen the server's.
    expect((await screen.findByTestId('practice-today')).textContent).toBe(
      "Today in the practice: Sunday, November 22, 2026 (the server's time zone, until one is chosen)",
    );
  });

  it('shows the billing identity on the Practice tab to a role holding system:admin only', async () => {
    const api = serve();
    const admin = renderPage('admin');
    await userEvent.click(screen.getByRole('tab', { name: 'Practice' }));
    expect(await screen.findByLabelText('Billing NPI')).toHaveProperty('value', '1667788990');
    admin.unmount();
    // A billing admin edits the practice's hours but not the identity its claims carry.
    renderPage('billing_admin');
    await userEvent.click(screen.getByRole('tab', { name: 'Practice' }));
    expect(await screen.findByTestId('practice-today')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Billing identity' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Clearinghouse' })).toBeNull();
    expect(api.sent('GET /api/settings/practice/billing-identity')).toHaveLength(1);
    expect(api.sent('GET /api/settings/practice/clearinghouse')).toHaveLength(1);
  });

  it("lets the admin set the practice's clearinghouse: its id checked, files switched to production", async () => {
    const api = serve();
    const user = userEvent.setup();
    renderPage('admin');
    await user.click(screen.getByRole('tab', { name: 'Practice' }));
    const id = await screen.findByLabelText('Clearinghouse ID');
    expect(id).toHaveProperty('value', 'PRAIRIECH');
    await user.clear(id);
    await user.type(id, 'PRAIRIE-CH');
    await user.click(screen.getByRole('button', { name: 'Save clearinghouse' }));
    expect(
      await screen.findByText('Clearinghouse ID must be 2 to 15 letters or digits, as the clearinghouse gives it'),
    ).toBeTruthy();
    await user.clear(id);
    await user.type(id, 'PRAIRIECH2');
    await user.clear(screen.getByLabelText('Submitter ID'));
    await user.click(screen.getByRole('combobox', { name: 'Files sent as' }));
    await user.click(await screen.findByRole('option', { name: 'Production (ISA15 P)' }));
    await user.click(screen.getByRole('button', { name: 'Save clearinghouse' }));
    expect(await screen.findByText('Clearinghouse saved')).toBeTruthy();
    expect(api.sent('PUT /api/settings/practice/clearinghouse').map((r) => r.body)).toEqual([
      { ediReceiverName: 'Prairie Clearinghouse', ediReceiverId: 'PRAIRIECH2', ediSubmitterId: null, ediUsage: 'P' },
    ]);
  });

  it('refuses to send practice settings without a working day', async () => {
    const api = serve();
    renderPage('admin');
    await userEvent.click(screen.getByRole('tab', { name: 'Practice' }));
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
      await userEvent.click(await screen.findByRole('checkbox', { name: day }));
    }
    await userEvent.click(screen.getByRole('button', { name: 'Save practice settings' }));
    expect(await screen.findByText('Working days must include at least one day')).toBeTruthy();
    expect(api.sent('PUT /api/settings/practice')).toEqual([]);
  });

  it('toggles an integration and names its new state in a toast', async () => {
    serve();
    renderPage('billing_admin');
    await userEvent.click(screen.getByRole('tab', { name: 'Integrations' }));
    await userEvent.click(await screen.findByRole('switch', { name: 'Calendar' }));
    expect(await screen.findByText('Calendar connected')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Calendar' }).getAttribute('aria-checked')).toBe('true'),
    );
  });

  it('shows the server’s answer under the current password', async () => {
    serve().on(
      'POST /api/account/password',
      apiError(400, 'WRONG_PASSWORD', 'wrong', {
        fields: [{ field: 'currentPassword', message: 'is not your current password' }],
      }),
    );
    renderPage('doctor');
    await userEvent.click(screen.getByRole('tab', { name: 'Security' }));
    await userEvent.type(screen.getByLabelText('Current password'), 'not-mine');
    await userEvent.type(screen.getByLabelText('New password'), 'short');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('New password must be at least 12 characters')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('New password'));
    await userEvent.type(screen.getByLabelText('New password'), 'a much longer passphrase');
    await userEvent.clear(screen.getByLabelText('Confirm new password'));
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'a much longer passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Current password is not your current password')).toBeTruthy();
  });
});
