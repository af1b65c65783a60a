import type { Page } from '@playwright/test';
import { SCREENS, SCREENS_BY_ROLE, type Role } from '../src/shared/access';
import { expect, test } from './fixtures';
import { signIn } from './helpers';

/** The desktop and the phone the screens were checked at. */
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** Staff roles between them open every screen; the patient has the portal and its billing page. */
const ROLES: Role[] = ['admin', 'billing_admin', 'patient'];

function pathsOf(role: Role): string[] {
  const paths: string[] = SCREENS.map((s) => s.path).filter((p) => SCREENS_BY_ROLE[role].includes(p));
  return role === 'patient' ? [...paths, '/patient-portal/billing'] : paths;
}

/** How much wider than the window the page is, once its data has arrived (0 when it fits). */
async function overflow(page: Page): Promise<number> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 10_000 });
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

for (const role of ROLES) {
  for (const viewport of VIEWPORTS) {
    test(`no screen of the ${role} is wider than a ${viewport.width} px window`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize(viewport);
      await signIn(page, role);
      const tooWide: string[] = [];
      for (const path of pathsOf(role)) {
        await page.goto(path);
        const extra = await overflow(page);
        if (extra > 0) tooWide.push(`${path}: ${extra} px too wide`);
      }
      expect(tooWide).toEqual([]);
    });
  }
}
