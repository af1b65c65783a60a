/**
 * Measurements of the lean client, shared by `npm run bench` (bench/client.bench.ts)
 * and the browser test that guards the first download (e2e/client-weight.spec.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from '@playwright/test';

/** The goal: the sign-in screen and the shell load at most this much JavaScript (gzip). */
export const FIRST_DOWNLOAD_LIMIT_BYTES = 170 * 1024;

export const CLIENT_DIR = path.resolve(import.meta.dirname, '..', 'dist', 'client');

interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export function readManifest(clientDir = CLIENT_DIR): Manifest {
  return JSON.parse(readFileSync(path.join(clientDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

function entryOf(manifest: Manifest): ManifestChunk {
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('the Vite manifest has no entry');
  return entry;
}

/** Manifest keys reachable from `keys` through static imports (the files a chunk needs before it runs). */
function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const next of manifest[key].imports ?? []) visit(next);
  };
  keys.forEach(visit);
  return seen;
}

/** The files the entry (index.html) loads before it runs: the entry script and its static imports. */
export function entryFiles(manifest: Manifest): Set<string> {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry) ?? '';
  return new Set([...staticClosure(manifest, [entryKey])].map((key) => manifest[key]!.file));
}

/**
 * The files only the screens need (the lazy pages of src/client/routes.tsx and what they import that the
 * entry does not already load): what the shell loads last.
 */
export function screenOnlyFiles(manifest: Manifest): Set<string> {
  const pages = (entryOf(manifest).dynamicImports ?? []).filter((key) =>
    /(Page|Route)\.tsx$/.test(manifest[key]?.src ?? ''),
  );
  const entry = entryFiles(manifest);
  return new Set(
    [...staticClosure(manifest, pages)].map((key) => manifest[key]!.file).filter((file) => !entry.has(file)),
  );
}

/** The chunk files a named group of vite.config.ts (e.g. 'charts', 'tables') was written to. */
export function groupChunkFiles(manifest: Manifest, group: string): string[] {
  return Object.values(manifest)
    .filter((chunk) => chunk.name === group)
    .map((chunk) => chunk.file);
}

export interface DownloadedScript {
  /** Path under the site, e.g. 'assets/index-abc.js'. */
  file: string;
  bytes: number;
  gzipBytes: number;
}

/** Records every script the page receives, with its size gzip-compressed (level 9, as the build writes .gz). */
export function recordScripts(page: Page): Map<string, DownloadedScript> {
  const scripts = new Map<string, DownloadedScript>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!url.pathname.endsWith('.js') || response.status() !== 200) return;
    void response.body().then(
      (body) => {
        const file = url.pathname.replace(/^\//, '');
        scripts.set(file, { file, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length });
      },
      () => undefined,
    );
  });
  return scripts;
}

/**
 * Holds back every screen: its chunk is answered by a module that never finishes loading, so the shell
 * shows its loading placeholder and what the browser downloads is the sign-in screen and the shell alone.
 */
export async function holdScreenChunks(context: BrowserContext, screens: Set<string>) {
  await context.route('**/assets/*.js', (route) => {
    const file = new URL(route.request().url()).pathname.replace(/^\//, '');
    if (!screens.has(file)) return route.fallback();
    return route.fulfill({ contentType: 'text/javascript', body: 'await new Promise(() => {});' });
  });
}

export interface FirstDownload {
  scripts: DownloadedScript[];
  gzipBytes: number;
}

async function settle(page: Page, scripts: Map<string, DownloadedScript>) {
  await page.waitForLoadState('networkidle');
  // Bodies are read asynchronously; wait until every script response seen has been measured.
  await page.waitForTimeout(200);
  return scripts;
}

/**
 * What the browser downloads for the sign-in screen (/, signed out) and for the shell right after sign-in
 * (signed in, before any screen's chunk): scripts of both visits, each file counted once.
 */
export async function measureFirstDownload(
  browser: Browser,
  baseUrl: string,
  sessionCookie: string,
  manifest: Manifest = readManifest(),
): Promise<FirstDownload> {
  const all = new Map<string, DownloadedScript>();

  const signedOut = await browser.newContext({ baseURL: baseUrl });
  const signInPage = await signedOut.newPage();
  const signInScripts = recordScripts(signInPage);
  await signInPage.goto('/');
  await signInPage.getByLabel('Email').waitFor();
  for (const [file, script] of await settle(signInPage, signInScripts)) all.set(file, script);
  await signedOut.close();

  const signedIn = await browser.newContext({ baseURL: baseUrl });
  await signedIn.addCookies(cookiesFor(baseUrl, sessionCookie));
  const screens = screenOnlyFiles(manifest);
  await holdScreenChunks(signedIn, screens);
  const shellPage = await signedIn.newPage();
  const shellScripts = recordScripts(shellPage);
  await shellPage.goto('/home');
  await shellPage.getByRole('button', { name: 'Logout' }).waitFor();
  await shellPage.getByRole('navigation', { name: 'Main' }).waitFor();
  for (const [file, script] of await settle(shellPage, shellScripts)) if (!screens.has(file)) all.set(file, script);
  await signedIn.close();

  const scripts = [...all.values()].sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { scripts, gzipBytes: scripts.reduce((sum, s) => sum + s.gzipBytes, 0) };
}

/** 'sid=abc; other=1' (a Cookie header) → Playwright cookies for the site. */
export function cookiesFor(baseUrl: string, cookieHeader: string) {
  return cookieHeader
    .split(';')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: baseUrl };
    });
}

export function formatKiB(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

export interface LighthouseScores {
  performance: number;
  accessibility: number;
  /** Titles of the audits that lost points, for the report when a score falls short. */
  failing: string[];
  /** Lighthouse's CPU benchmark of this machine during the run (a busy or slow machine scores low). */
  benchmarkIndex: number;
}

/**
 * Lighthouse (desktop preset) on one signed-in screen, in Debian's Chromium started by chrome-launcher.
 * The session cookie goes with every request of the run. A run Lighthouse could not complete (e.g. Chrome
 * showed an error page) throws rather than scoring 0.
 */
export async function runLighthouse(
  url: string,
  cookieHeader: string,
  chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
): Promise<LighthouseScores> {
  const [{ default: lighthouse, desktopConfig }, { launch }] = await Promise.all([
    import('lighthouse'),
    import('chrome-launcher'),
  ]);
  const chrome = await launch({
    chromePath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  try {
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        extraHeaders: { Cookie: cookieHeader },
      },
      desktopConfig,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (result.lhr.runtimeError) {
      throw new Error(
        `Lighthouse could not measure ${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`,
      );
    }
    // LIGHTHOUSE_REPORT_DIR=/tmp/lh keeps each run's full report (long tasks, main-thread work) to see why.
    if (process.env.LIGHTHOUSE_REPORT_DIR) {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      mkdirSync(process.env.LIGHTHOUSE_REPORT_DIR, { recursive: true });
      const name = `${new URL(url).pathname.replace(/\W+/g, '_')}-${Date.now()}.json`;
      writeFileSync(`${process.env.LIGHTHOUSE_REPORT_DIR}/${name}`, JSON.stringify(result.lhr));
    }
    const { categories, audits } = result.lhr;
    const failing = Object.values(audits)
      .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative')
      .map((audit) => `${audit.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
    return {
      performance: Math.round((categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
      failing,
      benchmarkIndex: Math.round(result.lhr.environment.benchmarkIndex),
    };
  } finally {
    chrome.kill();
  }
}

export interface LighthouseMedian extends LighthouseScores {
  /** Every run's performance score, in the order they ran. */
  performanceRuns: number[];
}

/**
 * Lighthouse's own advice for a score that varies from run to run: run it several times and report the
 * median run (by performance score; its accessibility, failing audits and CPU index come with it). A run
 * that Lighthouse could not complete is tried once more before it fails the measurement.
 */
export async function runLighthouseMedian(
  url: string,
  cookieHeader: string,
  runs: number,
  chromePath?: string,
): Promise<LighthouseMedian> {
  const results: LighthouseScores[] = [];
  for (let run = 0; run < runs; run += 1) {
    results.push(
      await runLighthouse(url, cookieHeader, chromePath).catch(() => runLighthouse(url, cookieHeader, chromePath)),
    );
  }
  const sorted = [...results].sort((a, b) => a.performance - b.performance);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!median) throw new Error('runLighthouseMedian needs at least one run');
  return { ...median, performanceRuns: results.map((r) => r.performance) };
}

export interface DataTableDom {
  rows: number;
  /** document.querySelectorAll('*').length once the table shows, and after scrolling to its last row. */
  domNodes: number;
  domNodesAtEnd: number;
  lastRowShown: boolean;
}

/**
 * Renders the real DataTable (client mode) with `rows` rows in Chromium — bundled from
 * bench/fixtures/data-table-rows.tsx with the app's own style sheet — and counts the DOM it keeps.
 */
export async function measureDataTableDom(
  browser: Browser,
  rows: number,
  clientDir = CLIENT_DIR,
): Promise<DataTableDom> {
  const { build } = await import('esbuild');
  const bundle = await build({
    entryPoints: [path.join(import.meta.dirname, 'fixtures', 'data-table-rows.tsx')],
    bundle: true,
    write: false,
    format: 'esm',
    minify: true,
    jsx: 'automatic',
    alias: { '@': path.resolve(import.meta.dirname, '..', 'src') },
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  const styles = [...readdirSync(path.join(clientDir, 'assets'))].filter((f) => f.endsWith('.css'));
  const css = styles.map((f) => readFileSync(path.join(clientDir, 'assets', f), 'utf8')).join('\n');

  const context = await browser.newContext({ viewport: { width: 1350, height: 940 } });
  try {
    const page = await context.newPage();
    const origin = 'http://data-table.fixture';
    await page.route(`${origin}/**`, (route) => {
      const { pathname } = new URL(route.request().url());
      if (pathname === '/table.js') return route.fulfill({ contentType: 'text/javascript', body: script });
      if (pathname === '/table.css') return route.fulfill({ contentType: 'text/css', body: css });
      return route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html lang="en"><head><link rel="stylesheet" href="/table.css"></head><body><div id="root"></div><script type="module" src="/table.js"></script></body></html>',
      });
    });
    await page.goto(`${origin}/?rows=${rows}`);
    await page.getByText(`Showing ${rows} of ${rows} rows`).waitFor();
    const domNodes = await page.evaluate(() => document.querySelectorAll('*').length);
    const scroller = page.getByRole('region', { name: 'Claims (scrollable)' });
    await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    const lastRow = page.getByRole('cell', { name: `Patient ${rows}`, exact: true });
    await lastRow.waitFor();
    const domNodesAtEnd = await page.evaluate(() => document.querySelectorAll('*').length);
    return { rows, domNodes, domNodesAtEnd, lastRowShown: await lastRow.isVisible() };
  } finally {
    await context.close();
  }
}
