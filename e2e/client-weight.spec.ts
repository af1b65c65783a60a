import {
  FIRST_DOWNLOAD_LIMIT_BYTES,
  entryFiles,
  formatKiB,
  groupChunkFiles,
  measureDataTableDom,
  measureFirstDownload,
  readManifest,
  recordScripts,
} from '../bench/client.measure';
import { expect, test } from './fixtures';
import { signIn } from './helpers';

// The lean client (bench/results.md). Reads the build the server serves (dist/client).
const manifest = readManifest();
const charts = groupChunkFiles(manifest, 'charts');
const tables = groupChunkFiles(manifest, 'tables');

test('the sign-in screen and the shell load at most 170 KiB of JavaScript (gzip), without charts or tables', async ({
  page,
  browser,
  baseURL,
}) => {
  await signIn(page, 'admin');
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');

  const download = await measureFirstDownload(browser, baseURL ?? '', cookie, manifest);
  const files = download.scripts.map((s) => s.file);
  test.info().annotations.push({
    type: 'sign-in + shell JS (gzip)',
    description: `${formatKiB(download.gzipBytes)}: ${download.scripts.map((s) => `${s.file} ${formatKiB(s.gzipBytes)}`).join(', ')}`,
  });
  expect(download.gzipBytes).toBeLessThanOrEqual(FIRST_DOWNLOAD_LIMIT_BYTES);
  // What the browser fetched is exactly the entry and its static imports: the shell lazy-loads nothing else.
  expect(new Set(files)).toEqual(entryFiles(manifest));
  expect(charts.length).toBeGreaterThan(0);
  expect(tables.length).toBeGreaterThan(0);
  for (const file of [...charts, ...tables]) expect(files).not.toContain(file);
});

test('Chart.js and TanStack Table load with the screens that use them', async ({ page }) => {
  const scripts = recordScripts(page);
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Patients' }).click();
  await expect(page.getByRole('table')).toBeVisible();
  const loaded = () => [...scripts.keys()];
  // A script is noted once its body has been read (recordScripts), which can be after the table shows.
  await expect.poll(loaded).toEqual(expect.arrayContaining(tables));
  for (const file of charts) expect(loaded()).not.toContain(file);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Claims' }).click();
  await expect(page.locator('canvas').first()).toBeVisible();
  await expect.poll(loaded).toEqual(expect.arrayContaining(charts));
});

test('a client-mode DataTable of 10,000 rows keeps the DOM under 1,400 nodes, down to its last row', async ({
  browser,
}) => {
  const dom = await measureDataTableDom(browser, 10_000);
  expect(dom.domNodes).toBeLessThan(1_400);
  expect(dom.lastRowShown).toBe(true);
  expect(dom.domNodesAtEnd).toBeLessThan(1_400);
});
