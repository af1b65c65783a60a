import type { Page } from '@playwright/test';
import { SCREENS, SCREENS_BY_ROLE, type Role } from '../src/shared/access';
import { expect, test } from './fixtures';
import { signIn } from './helpers';

/** The desktop and the phone the screens were checked at. */
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/**
 * The admin opens every staff screen but the KPIs, which are the billing admin's alone (checked as the
 * admin's addition, below); the patient has the portal and its billing page.
 */
const ROLES: Role[] = ['admin', 'patient'];

function pathsOf(role: Role): string[] {
  const paths: string[] = SCREENS.map((s) => s.path).filter((p) => SCREENS_BY_ROLE[role].includes(p));
  return role === 'patient' ? [...paths, '/patient-portal/billing'] : paths;
}

/** Screens of other staff roles the admin cannot open, each checked signed in as a role that can. */
const OTHER_STAFF_SCREENS: { role: Role; path: string }[] = SCREENS.filter(
  (s) => !SCREENS_BY_ROLE.admin.includes(s.path) && !SCREENS_BY_ROLE.patient.includes(s.path),
).map((s) => ({
  role:
    (['billing_admin', 'doctor', 'nurse_manager'] as const).find((r) => SCREENS_BY_ROLE[r].includes(s.path)) ??
    'billing_admin',
  path: s.path,
}));

/** How much wider than the window the page is, once its data has arrived (0 when it fits). */
async function overflow(page: Page): Promise<number> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 10_000 });
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/**
 * How much wider than the window the page is at each viewport, one line per width that overflows. The page is
 * loaded once, at the first viewport, and the window is then narrowed: the layout follows the window (CSS
 * media queries, and the sidebar's matchMedia listener), so a narrowed page is the page a phone loads; loading
 * each screen once instead of once per width cut this file's CPU by more than a quarter (69 -> 50 CPU s).
 */
async function tooWideAt(page: Page, label: string): Promise<string[]> {
  const found: string[] = [];
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    // Media query listeners (the sidebar's) hear of the new width when the page next renders, and React
    // re-renders in a task after that: two frames later the page is laid out for the width.
    await page.evaluate(
      () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
    );
    const extra = await overflow(page);
    if (extra > 0) found.push(`${label} at ${viewport.width}: ${extra} px too wide`);
  }
  return found;
}

for (const role of ROLES) {
  test(`no screen of the ${role} is wider than a 1440 or 390 px window`, async ({ page }) => {
    await signIn(page, role);
    const tooWide: string[] = [];
    for (const path of pathsOf(role)) {
      await page.setViewportSize(VIEWPORTS[0]);
      await page.goto(path);
      tooWide.push(...(await tooWideAt(page, path)));
    }
    expect(tooWide).toEqual([]);
  });
}

test('no screen only other staff open is wider than the window at 1440 or 390 px', async ({ page }) => {
  const tooWide: string[] = [];
  for (const { role, path } of OTHER_STAFF_SCREENS) {
    await page.setViewportSize(VIEWPORTS[0]);
    await signIn(page, role, path);
    tooWide.push(...(await tooWideAt(page, `${role} ${path}`)));
  }
  expect(OTHER_STAFF_SCREENS.map((s) => s.path)).toContain('/kpis');
  expect(tooWide).toEqual([]);
});
