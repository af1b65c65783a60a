// Takes the README's screenshot of the signed-in dashboard from a running app:
//   npm start  (in another terminal), then  node scripts/screenshot.mjs [baseURL]
import { chromium } from '@playwright/test';
import { ensureChromium } from './ensure-chromium.mjs';

const baseURL = process.argv[2] ?? 'http://localhost:5000';
const browser = await chromium.launch({
  executablePath: await ensureChromium(),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
await page.goto(baseURL);
await page.getByLabel('Email').fill('admin@healthcare.demo');
await page.getByLabel('Password').fill('admin');
await page.getByRole('button', { name: 'Continue' }).click();
const code = (await page.getByTestId('demo-code').locator('span').textContent())?.trim() ?? '';
await page.getByLabel('6-digit code').fill(code);
await page.getByRole('button', { name: 'Verify' }).click();
await page.getByRole('button', { name: 'Logout' }).waitFor();
await page.waitForLoadState('networkidle');
await page.screenshot({ path: 'docs/screenshots/dashboard.png' });
await browser.close();
console.log('wrote docs/screenshots/dashboard.png');
