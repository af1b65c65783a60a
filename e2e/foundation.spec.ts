import { ROLES, SCREENS, canOpen, roleLabel } from '../src/shared/access';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { accountFor, signIn, signInWithForm } from './helpers';

test.describe('sign-in and the shell', () => {
  for (const role of ROLES) {
    test(`${role} signs in through both steps and sees exactly its sidebar entries`, async ({ page }) => {
      await signInWithForm(page, role);
      await expect(page.getByTestId('current-role')).toHaveText(roleLabel(role));
      const nav = page.getByRole('navigation', { name: 'Main' });
      const expected = SCREENS.filter((s) => canOpen(role, s.path)).map((s) => s.label);
      await expect(nav.getByRole('link')).toHaveText(expected);
      await expect(page).toHaveURL(role === 'patient' ? /\/patient-portal$/ : /\/home$/);
    });
  }

  test('a forbidden URL shows the Access denied toast and redirects home', async ({ page }) => {
    await signIn(page, 'nurse_manager');
    await page.goto('/claims');
    await expect(page.getByText('Access denied', { exact: true })).toBeVisible();
    await expect(page.getByText('You do not have permission to access this page', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/home$/);
  });

  test('an unknown path shows the 404 page', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    await expect(page.getByText('Did you forget to add the page to the router?', { exact: true })).toBeVisible();
  });

  test('a screen typed in another case opens that screen at its own address', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/CLAIMS?search=x');
    await expect(page).toHaveURL(/\/claims\?search=x$/);
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Claims');
  });

  test('a wrong password shows the Invalid credentials toast', async ({ page }) => {
    await page.goto('/');
    await page.getByLabel('Email').fill('admin@healthcare.demo');
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Invalid credentials', { exact: true })).toBeVisible();
    await expect(page.getByText('Please check your email and password.', { exact: true })).toBeVisible();
  });

  test('a wrong code counts down, and Back returns to the credentials step', async ({ page }) => {
    await page.goto('/');
    await page.getByLabel('Email').fill('doctor@healthcare.demo');
    await page.getByLabel('Password').fill('doctor');
    await page.getByRole('button', { name: 'Continue' }).click();
    const code = (await page.getByTestId('demo-code').locator('span').textContent())?.trim() ?? '';
    await page.getByLabel('6-digit code').fill(code === '111111' ? '222222' : '111111');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('Incorrect MFA code. 4 attempts remaining.', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByLabel('Email')).toBeVisible();
  });

  test('Logout returns to the sign-in screen and the session is gone', async ({ page }) => {
    await signInWithForm(page, 'billing_admin');
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  });

  test('an expired session asks to sign in again over the screen and keeps what was typed', async ({
    page,
    withDatabase,
  }) => {
    await signInWithForm(page, 'nurse_manager', '/patients');
    await page.getByRole('searchbox').fill('ai');
    await page.getByRole('button', { name: 'Add Patient' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Patient' });
    await dialog.getByLabel('Name').fill('Session Keeper');
    await dialog.getByLabel('Date of birth').fill('1990-02-03');
    await dialog.getByLabel('Phone').fill('(555) 610-3030');
    await dialog.getByLabel('MRN').fill('MRN-E2E-SESSION');
    // The server ends the session (as the idle timeout does) while the form is open and not yet sent.
    const sid = (await page.context().cookies()).find((c) => c.name === 'sid')?.value ?? '';
    expect(sid).not.toBe('');
    await withDatabase((db) =>
      db.query("DELETE FROM sessions WHERE id_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')", [sid]),
    );
    await dialog.getByRole('button', { name: 'Add Patient' }).click();
    const again = page.getByRole('dialog', { name: 'Your session expired — sign in again' });
    await expect(again).toBeVisible();
    // Opaque over the whole window: nothing of the screen underneath shows on an unattended computer.
    expect(await again.boundingBox()).toEqual({ x: 0, y: 0, ...page.viewportSize() });
    await expect(again.getByLabel('Email')).toHaveValue(accountFor('nurse_manager').email);
    await again.getByLabel('Password').fill(accountFor('nurse_manager').password);
    await again.getByRole('button', { name: 'Continue' }).click();
    const code = (await again.getByTestId('demo-code').locator('span').textContent())?.trim() ?? '';
    await again.getByLabel('6-digit code').fill(code);
    await again.getByRole('button', { name: 'Verify' }).click();
    await expect(again).toBeHidden();
    // The same person is back: the form is still open with what was typed.
    await expect(dialog.getByLabel('Name')).toHaveValue('Session Keeper');
    await expect(dialog.getByLabel('Phone')).toHaveValue('(555) 610-3030');
    await expect(dialog.getByLabel('MRN')).toHaveValue('MRN-E2E-SESSION');
    await expect(page.getByPlaceholder('Name, phone, or MRN')).toHaveValue('ai');
    await dialog.getByRole('button', { name: 'Add Patient' }).click();
    await expect(page.getByText('Patient created', { exact: true })).toBeVisible();

    // Someone else signing in over an expired session gets fresh screens, not what the first person typed.
    await page.getByRole('button', { name: 'Add Patient' }).click();
    await dialog.getByLabel('Name').fill('Not For Others');
    await dialog.getByLabel('Date of birth').fill('1991-03-04');
    await dialog.getByLabel('Phone').fill('(555) 610-4040');
    await dialog.getByLabel('MRN').fill('MRN-E2E-SESSION-2');
    const sidNow = (await page.context().cookies()).find((c) => c.name === 'sid')?.value ?? '';
    await withDatabase((db) =>
      db.query("DELETE FROM sessions WHERE id_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')", [sidNow]),
    );
    await dialog.getByRole('button', { name: 'Add Patient' }).click();
    await expect(again).toBeVisible();
    await again.getByLabel('Email').fill(accountFor('doctor').email);
    await again.getByLabel('Password').fill(accountFor('doctor').password);
    await again.getByRole('button', { name: 'Continue' }).click();
    const doctorCode = (await again.getByTestId('demo-code').locator('span').textContent())?.trim() ?? '';
    await again.getByLabel('6-digit code').fill(doctorCode);
    await again.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByTestId('current-role')).toHaveText(roleLabel('doctor'));
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Not For Others')).toHaveCount(0);
  });

  test('the sidebar collapses to icons with Ctrl+B and remembers it', async ({ page }) => {
    await signIn(page, 'admin');
    const sidebar = page.locator('aside');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await page.reload();
    await expect(page.locator('aside')).toHaveAttribute('data-state', 'collapsed');
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'sidebar_state')?.value).toBe('false');
  });

  test('global search shows results by group and the empty state', async ({ page }) => {
    await signIn(page, 'admin');
    const search = page.getByRole('combobox', { name: 'Global search' });
    await search.fill('zzzzqq');
    await expect(page.getByText('No results found for "zzzzqq"')).toBeVisible();
    await search.fill('ACC-');
    await expect(page.getByRole('group', { name: 'Claims' }).getByRole('option')).toHaveCount(3);
  });

  test('a global search hit, chosen by keyboard, opens its list filtered to it, and Back returns', async ({ page }) => {
    await signIn(page, 'admin', '/patients');
    await expect(page.getByText(/^Showing 25 of \d+ patients$/)).toBeVisible();
    const name = (await page.getByRole('table').getByRole('row').nth(1).getByRole('cell').first().textContent()) ?? '';
    const search = page.getByRole('combobox', { name: 'Global search' });
    await search.fill(name);
    const patients = page.getByRole('group', { name: 'Patients' });
    await expect(patients.getByRole('option').first()).toBeVisible();
    await search.press('ArrowDown');
    await expect(patients.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
    await search.press('Enter');
    await expect(page).toHaveURL(`/patients?search=${encodeURIComponent(name)}`);
    await expect(page.getByPlaceholder('Name, phone, or MRN')).toHaveValue(name);
    await expect(page.getByText(/^Showing [1-9] of [1-9] patients$/)).toBeVisible();
    await page.reload();
    await expect(page.getByText(/^Showing [1-9] of [1-9] patients$/)).toBeVisible();

    // An appointment hit (search matches the provider too) opens its day, its time in 12-hour form.
    await search.fill('Dr.');
    const visit = page.getByRole('group', { name: 'Appointments' }).getByRole('option').first();
    await expect(visit).toHaveText(/[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M/);
    await visit.click();
    await expect(page).toHaveURL(/\/appointments\?date=\d{4}-\d{2}-\d{2}$/);
    const day = new URL(page.url()).searchParams.get('date') ?? '';
    await expect(page.getByLabel('Date', { exact: true })).toHaveValue(day);
    await page.goBack();
    await expect(page.getByPlaceholder('Name, phone, or MRN')).toHaveValue(name);
  });

  test('display settings apply at once and survive a reload and a new sign-in', async ({ page }) => {
    await signInWithForm(page, 'doctor', '/settings');
    await page.goto('/settings');
    await page.getByRole('switch', { name: 'High contrast' }).click();
    await expect(page.locator('html')).toHaveClass(/high-contrast/);
    await page.getByRole('combobox', { name: 'Font size' }).click();
    await page.getByRole('option', { name: 'Large (18px)' }).click();
    await expect(page.locator('html')).toHaveCSS('font-size', '18px');
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/high-contrast/);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.evaluate(() => localStorage.clear());
    await signInWithForm(page, 'doctor');
    await expect(page.locator('html')).toHaveClass(/high-contrast/);
    await expect(page.locator('html')).toHaveCSS('font-size', '18px');
    // Put it back for the other tests that sign in as the doctor.
    await page.goto('/settings');
    await page.getByRole('switch', { name: 'High contrast' }).click();
    await page.getByRole('combobox', { name: 'Font size' }).click();
    await page.getByRole('option', { name: 'Medium (16px)' }).click();
    await expect(page.locator('html')).toHaveCSS('font-size', '16px');
  });

  // The shell is in every signed-in screen's full scan: the admin's dashboard in patients-dashboard.spec.ts,
  // the admin's settings in settings.spec.ts (which scanned here again).
  test('the sign-in page and its code step have no serious accessibility violations', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    const account = accountFor('admin');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByTestId('demo-code')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test.describe('small screens', () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test('the sidebar becomes a slide-in sheet below 768 px', async ({ page }) => {
    await signIn(page, 'doctor');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    const sheet = page.getByRole('dialog', { name: 'Navigation' });
    await expect(sheet).toBeVisible();
    await sheet.getByRole('link', { name: 'Settings' }).click();
    await expect(sheet).toBeHidden();
    await expect(page).toHaveURL(/\/settings$/);
  });
});
