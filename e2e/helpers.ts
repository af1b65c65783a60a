import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import type { Role } from '../src/shared/access';
import Papa from 'papaparse';
import { DEMO_ACCOUNTS } from '../src/features/auth/auth.demo-accounts';
import { signInOverHttp } from '../src/testing/http-sign-in';
import { appServerUrl } from './fixtures';

export function accountFor(role: Role) {
  const account = DEMO_ACCOUNTS.find((a) => a.role === role);
  if (!account) throw new Error(`no demo account for ${role}`);
  return account;
}

/** Signs in through both steps as a person would: credentials, then the code shown on screen. */
export async function signInWithForm(page: Page, role: Role, path = '/') {
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

/** One session per role and app server, signed in over HTTP the first time a worker's test needs it. */
const sessionCookies = new Map<string, Promise<string>>();

function sessionCookieFor(baseUrl: string, role: Role): Promise<string> {
  const key = `${baseUrl} ${role}`;
  let cookie = sessionCookies.get(key);
  if (!cookie) {
    cookie = signInOverHttp(baseUrl, role).then((session) => session.cookie.slice('sid='.length));
    sessionCookies.set(key, cookie);
  }
  return cookie;
}

/**
 * Opens `path` signed in as `role`, on a session this worker signed in once for that role (the sign-in
 * screen itself is tested by `signInWithForm` in foundation.spec.ts). A test that signs out, or ends its
 * session another way, signs in with the form instead, so the shared session stays alive.
 */
export async function signIn(page: Page, role: Role, path = '/') {
  const baseUrl = appServerUrl();
  const value = await sessionCookieFor(baseUrl, role);
  await page.context().addCookies([{ name: 'sid', value, url: baseUrl }]);
  await page.goto(path);
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

/** The API as the signed-in browser sees it (same session cookie); anything but 200 fails the test. */
export async function apiGet<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(path);
  expect(res.status(), path).toBe(200);
  return (await res.json()) as T;
}

/** The CSV a click downloads: its suggested file name and its rows. */
export async function downloadedCsv(page: Page, trigger: () => Promise<void>) {
  const downloadPromise = page.waitForEvent('download');
  await trigger();
  const download = await downloadPromise;
  const text = await readFile(await download.path(), 'utf8');
  return { fileName: download.suggestedFilename(), rows: Papa.parse<string[]>(text.trim()).data };
}

/** Picks `option` in the select labelled `select`. */
export async function choose(page: Page, select: string, option: string) {
  await page.getByRole('combobox', { name: select }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
