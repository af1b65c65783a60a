import type { Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { signIn } from './helpers';

async function openRtm(page: Page, role: 'admin' | 'billing_admin' | 'doctor') {
  await signIn(page, role);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Traceability Matrix' }).click();
  await expect(page).toHaveURL(/\/rtm$/);
  await expect(page.getByRole('heading', { name: 'Requirements Traceability Matrix' })).toBeVisible();
  await expect(page.getByText('Link between requirement, design, test case, and KPI')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Requirements (20)' })).toBeVisible();
}

async function runSuite(page: Page) {
  await page.getByRole('button', { name: 'Run Test Suite' }).click();
  const running = page.getByRole('button', { name: 'Running Tests...' });
  await expect(running).toBeDisabled();
  await expect(page.getByRole('progressbar', { name: 'Test suite progress' })).toBeVisible();
  await expect(page.getByText(/^Running: TC-[A-Z0-9]+-\d{3} \(\d+\/20\)$/)).toBeVisible();
  // The current row is highlighted with a spinner.
  await expect(page.locator('tr[aria-current="step"]')).toHaveCount(1);
  await expect(page.locator('tr[aria-current="step"]').getByText('Running')).toBeAttached();
  // 20 real verifications, at least 300 ms apart.
  await expect(page.getByText('20/20 tests completed')).toBeVisible({ timeout: 60_000 });
}

test.describe('Requirements Traceability Matrix', () => {
  test('the admin runs the suite: progress, 20 real results and the completion toast', async ({ page }) => {
    await openRtm(page, 'admin');
    await expect(page.getByText('Not run yet')).toHaveCount(20);
    await runSuite(page);
    await expect(page.getByText('Test Suite Completed', { exact: true })).toBeVisible();
    await expect(page.getByText('All 20 validation tests passed successfully.', { exact: true })).toBeVisible();
    await expect(page.getByText('Not run yet')).toHaveCount(0);
    await expect(page.getByText(/^FAIL /)).toHaveCount(0);
    await expect(page.getByTestId('rtm-row-R 001').getByText('0', { exact: true })).toBeVisible();
    await expect(page.getByTestId('rtm-row-R 002').getByText('100%', { exact: true })).toBeVisible();
    await expect(page.getByTestId('rtm-row-R 004').getByText('15 min', { exact: true })).toBeVisible();
    // The accessibility figure is measured from the stylesheet this server serves.
    await expect(page.getByTestId('rtm-row-R 008').getByText(/^\d+(\.\d)?%$/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Run Test Suite' })).toBeEnabled();
  });

  test('the billing admin runs it too, all but R 006, the full audit chain walk kept to the admin', async ({
    page,
  }) => {
    await openRtm(page, 'billing_admin');
    await runSuite(page);
    await expect(page.getByText('19 of 20 validation tests passed; failed: R 006', { exact: true })).toBeVisible();
  });

  test('search filters on id, description, module, test id or metric, with an empty state', async ({ page }) => {
    await openRtm(page, 'doctor');
    const search = page.getByRole('searchbox', { name: 'Search requirements' });
    await expect(search).toHaveAttribute('placeholder', 'Search requirements...');
    await search.fill('HIGH-CONTRAST');
    await expect(page.getByRole('heading', { name: 'Requirements (1)' })).toBeVisible();
    await expect(page.getByRole('rowheader')).toHaveText(['R 008']);
    await search.fill('tc-auth');
    await expect(page.getByRole('rowheader')).toHaveText(['R 012', 'R 019', 'R 020']);
    await search.fill('zzz nothing');
    await expect(page.getByText('No requirements found matching your search.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Requirements (0)' })).toBeVisible();
  });

  test('has no serious accessibility violations, before and after a run', async ({ page }) => {
    await openRtm(page, 'admin');
    expect(await seriousViolations(page)).toEqual([]);
    await runSuite(page);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('roles without the screen are refused', async ({ page }) => {
    await signIn(page, 'nurse_manager');
    await page.goto('/rtm');
    await expect(page.getByText('Access denied', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/home$/);
  });
});
