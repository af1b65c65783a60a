import { expect, type Page } from '@playwright/test';
import type { Role } from '../src/shared/access';
import { DEMO_ACCOUNTS } from '../src/features/auth/auth.demo-accounts';

export function accountFor(role: Role) {
  const account = DEMO_ACCOUNTS.find((a) => a.role === role);
  if (!account) throw new Error(`no demo account for ${role}`);
  return account;
}

/** Signs in through both steps as a person would: credentials, then the code shown on screen. */
export async function signIn(page: Page, role: Role, path = '/') {
  const account = accountFor(role);
  await page.goto(path);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  const demoCode = page.getByTestId('demo-code');
  await expect(demoCode).toBeVisible();
  const code = (await demoCode.locator('span').textContent())?.trim() ?? '';
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}
