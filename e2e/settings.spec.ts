import type { Page } from '@playwright/test';
import { seriousViolations, seriousViolationsWithin } from './axe';
import { expect, test } from './fixtures';
import { choose, signIn, signInWithForm } from './helpers';

const DEFAULT_PRACTICE = {
  appointmentMinutes: 30,
  bufferMinutes: 10,
  workdayStart: '08:00',
  workdayEnd: '17:00',
  workingDays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
};

/** Other specs book appointments: the practice goes back to the defaults whatever happened. */
async function restorePractice(page: Page) {
  const session = (await (await page.request.get('/api/auth/session')).json()) as { csrfToken: string | null };
  const res = await page.request.put('/api/settings/practice', {
    data: DEFAULT_PRACTICE,
    headers: { 'x-csrf-token': session.csrfToken ?? '', 'x-user-role': 'admin' },
  });
  expect(res.status()).toBe(200);
}

test.describe('settings', () => {
  test('an admin saves practice settings that are still there after a reload', async ({ page }) => {
    await signIn(page, 'admin', '/settings');
    await page.getByRole('tab', { name: 'Practice' }).click();
    try {
      await choose(page, 'Appointment duration', '45 minutes');
      await choose(page, 'Buffer between appointments', '15 minutes');
      await page.getByRole('checkbox', { name: 'Saturday' }).check();
      await page.getByRole('button', { name: 'Save practice settings' }).click();
      await expect(page.getByText('Settings saved', { exact: true })).toBeVisible();

      await page.reload();
      await page.getByRole('tab', { name: 'Practice' }).click();
      await expect(page.getByRole('combobox', { name: 'Appointment duration' })).toHaveText('45 minutes');
      await expect(page.getByRole('combobox', { name: 'Buffer between appointments' })).toHaveText('15 minutes');
      await expect(page.getByRole('checkbox', { name: 'Saturday' })).toBeChecked();
      await expect(page.getByRole('checkbox', { name: 'Sunday' })).not.toBeChecked();

      // A closing time before the opening time is refused with the field named.
      await page.getByLabel('Closing time').fill('07:00');
      await page.getByRole('button', { name: 'Save practice settings' }).click();
      await expect(page.getByText('Closing time must be later than the opening time')).toBeVisible();
    } finally {
      await restorePractice(page);
    }
  });

  test("an admin sets the practice's time zone and sees the practice's day", async ({ page }) => {
    await signIn(page, 'admin', '/settings');
    await page.getByRole('tab', { name: 'Practice' }).click();
    await expect(page.getByTestId('practice-today')).toContainText('Today in the practice:');
    // The zone the browser tests' servers run in anyway, so that no other test's "today" moves.
    const serverZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    await page.getByLabel('Practice time zone').selectOption(serverZone);
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await expect(page.getByText('Time zone saved', { exact: true })).toBeVisible();
    await page.reload();
    await page.getByRole('tab', { name: 'Practice' }).click();
    await expect(page.getByLabel('Practice time zone')).toHaveValue(serverZone);
    await expect(page.getByRole('button', { name: 'Save time zone' })).toBeDisabled();
  });

  test('integrations switch with a toast and stay switched', async ({ page }) => {
    await signIn(page, 'admin', '/settings');
    await page.getByRole('tab', { name: 'Integrations' }).click();
    const crm = page.getByRole('switch', { name: 'CRM' });
    await expect(crm).not.toBeChecked();
    await expect(page.getByRole('switch', { name: 'Payment Gateway' })).toBeChecked();
    await crm.click();
    await expect(page.getByText('CRM connected', { exact: true })).toBeVisible();
    await page.reload();
    await page.getByRole('tab', { name: 'Integrations' }).click();
    await expect(page.getByRole('switch', { name: 'CRM' })).toBeChecked();
    await page.getByRole('switch', { name: 'CRM' }).click();
    await expect(page.getByText('CRM disconnected', { exact: true })).toBeVisible();
  });

  test('an admin creates a user who then signs in with the temporary password', async ({ page }) => {
    await signInWithForm(page, 'admin');
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Users' }).click();
    await expect(page.getByRole('cell', { name: 'admin@healthcare.demo', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Riley Park');
    await dialog.getByLabel('Email').fill('riley.park@clinic.example');
    await choose(page, 'Role', 'doctor');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    const password = (await dialog.getByTestId('temporary-password').textContent())?.trim() ?? '';
    expect(password.length).toBeGreaterThanOrEqual(12);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('cell', { name: 'riley.park@clinic.example' })).toBeVisible();

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByLabel('Email').fill('riley.park@clinic.example');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Continue' }).click();
    const code = (await page.getByTestId('demo-code').locator('span').textContent())?.trim() ?? '';
    await page.getByLabel('6-digit code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    // A temporary password must be replaced before anything else.
    await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
    await page.getByLabel('Current password').fill(password);
    await page.getByLabel('New password', { exact: true }).fill('riley-park-own-passphrase');
    await page.getByLabel('Confirm new password').fill('riley-park-own-passphrase');
    await page.getByRole('button', { name: /change password/i }).click();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    // Signed in as the new account: the header names its role (the 'User created' toast named Riley Park
    // and could outlive the sign-in, so the name alone proved nothing).
    await expect(page.getByRole('banner').getByText('doctor', { exact: true })).toBeVisible();
  });

  test('a patient sees Display, Notifications and Security, a guest only Display and Notifications', async ({
    page,
  }) => {
    const tabs = { patient: ['Display', 'Notifications', 'Security'], guest: ['Display', 'Notifications'] };
    for (const role of ['patient', 'guest'] as const) {
      await signInWithForm(page, role);
      await page.goto('/settings');
      await expect(page.getByRole('tab')).toHaveText(tabs[role]);
      await page.getByRole('tab', { name: 'Notifications' }).click();
      await expect(page.getByText('Only your own preferences change.')).toBeVisible();
      await page.getByRole('button', { name: 'Logout' }).click();
    }
  });

  test('a doctor sees the Users tab disabled and the other tabs', async ({ page }) => {
    await signIn(page, 'doctor', '/settings');
    await expect(page.getByRole('tab')).toHaveText([
      'Display',
      'Practice',
      'Users',
      'Notifications',
      'Integrations',
      'Security',
    ]);
    await expect(page.getByRole('tab', { name: 'Users' })).toBeDisabled();
  });

  test('every tab has no serious accessibility violations', async ({ page }) => {
    await signIn(page, 'admin', '/settings');
    for (const tab of [
      'Display',
      'Practice',
      'Users',
      'Providers',
      'Payers',
      'Charge ceilings',
      'Clearinghouse',
      'Notifications',
      'Integrations',
      'Security',
    ]) {
      await page.getByRole('tab', { name: tab }).click();
      const heading = tab === 'Clearinghouse' ? 'Clearinghouse mailbox' : tab;
      await expect(page.getByRole('heading', { name: heading, level: 2 })).toBeVisible();
      await expect(page.getByRole('status', { name: /Loading/ })).toHaveCount(0);
      // The whole screen once; then each tab's panel, the only part a tab changes.
      const violations =
        tab === 'Display'
          ? await seriousViolations(page)
          : await seriousViolationsWithin(page, '[role="tabpanel"][data-state="active"]');
      expect(violations, tab).toEqual([]);
    }
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'Add user' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await seriousViolations(page), 'Add user dialog').toEqual([]);
  });
});
