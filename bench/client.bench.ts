/**
 * Bench part for the lean client: the sign-in screen and shell's JavaScript as the browser
 * downloads it, Lighthouse (desktop) on three signed-in screens (one in the quick run), and the DOM of a
 * 10k-row table (the download and the table not in the quick run).
 * Needs the build the server serves (dist/client, for its Vite manifest) and Debian's Chromium.
 */
import os from 'node:os';
import { chromium } from '@playwright/test';
import { ensureChromium } from '../scripts/ensure-chromium.mjs';
import type { BenchFigure, BenchPart } from './bench.types';
import {
  FIRST_DOWNLOAD_LIMIT_BYTES,
  formatKiB,
  measureDataTableDom,
  measureFirstDownload,
  runLighthouse,
  runLighthouseMedian,
} from './client.measure';

const LIGHTHOUSE_SCREENS = [
  { path: '/home', name: 'Dashboard' },
  { path: '/claims', name: 'Claims' },
  { path: '/patients', name: 'Patients' },
] as const;
const LIGHTHOUSE_GOAL = 95;
/** Runs per screen: the median of 3 (one in the quick run, which checks the harness rather than measuring). */
const LIGHTHOUSE_RUNS = 3;
/**
 * The quick run (`npm test`) proves the Lighthouse harness works end to end (Chromium started, signed in,
 * both categories scored), which one screen shows as well as three: it measures the Claims screen alone.
 */
const QUICK_LIGHTHOUSE_SCREENS = LIGHTHOUSE_SCREENS.filter((screen) => screen.path === '/claims');
const TABLE_ROWS = 10_000;
const DOM_LIMIT = 1_400;

export const clientBench: BenchPart = async (ctx) => {
  const { cookie } = await ctx.signIn('admin');
  const figures: BenchFigure[] = [];

  // CHROMIUM_PATH, else Debian's, installed on Debian as root when missing: the whole browser for the figures,
  // the headless shell for the quick run (as `npm test`'s browser tests), which only proves the harness works.
  const chromiumPath = await ensureChromium({ headlessShell: ctx.quick });
  // The quick run leaves out the download and the 10,000-row table: `npm test` measures both, with the same
  // functions (client.measure.ts), as pass/fail browser tests (e2e/client-weight.spec.ts), and here they cost
  // a browser of their own for nothing the harness check adds.
  if (!ctx.quick) figures.push(...(await measureDownloadAndDom(ctx.baseUrl, cookie, chromiumPath)));

  // One Lighthouse run at a time: each starts its own Chromium, and they would compete for the CPU.
  const runs = ctx.quick ? 1 : LIGHTHOUSE_RUNS;
  // A first, unscored run warms what every later run shares (the server's code paths and database pages,
  // the operating system's cache of Chromium's files), so the first screen is not measured cold.
  if (!ctx.quick)
    await runLighthouse(`${ctx.baseUrl}${LIGHTHOUSE_SCREENS[0].path}`, cookie, chromiumPath).catch(() => null);
  for (const screen of ctx.quick ? QUICK_LIGHTHOUSE_SCREENS : LIGHTHOUSE_SCREENS) {
    const scores = await runLighthouseMedian(`${ctx.baseUrl}${screen.path}`, cookie, runs, chromiumPath);
    const shortOf = (score: number) =>
      score < LIGHTHOUSE_GOAL && scores.failing.length > 0 ? ` — ${scores.failing.slice(0, 3).join('; ')}` : '';
    // Lighthouse times the page on this machine's CPU: other work running meanwhile lowers the score. Say so.
    const load = os.loadavg()[0] ?? 0;
    const busy =
      load > os.availableParallelism()
        ? `, machine busy: load average ${load.toFixed(1)} on ${os.availableParallelism()} cores`
        : '';
    const ofRuns = runs > 1 ? `median of ${runs} runs (${scores.performanceRuns.join(', ')}), ` : '';
    figures.push(
      {
        figure: `Lighthouse performance, ${screen.name} (${screen.path}, desktop)`,
        goal: `≥ ${LIGHTHOUSE_GOAL}`,
        measured: `${scores.performance} (${ofRuns}CPU benchmark index ${scores.benchmarkIndex}${busy})${shortOf(scores.performance)}`,
        pass: scores.performance >= LIGHTHOUSE_GOAL,
      },
      {
        figure: `Lighthouse accessibility, ${screen.name} (${screen.path})`,
        goal: `≥ ${LIGHTHOUSE_GOAL}`,
        measured: String(scores.accessibility),
        pass: scores.accessibility >= LIGHTHOUSE_GOAL,
      },
    );
  }
  return figures;
};

async function measureDownloadAndDom(baseUrl: string, cookie: string, chromiumPath: string): Promise<BenchFigure[]> {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const download = await measureFirstDownload(browser, baseUrl, cookie);
    const dom = await measureDataTableDom(browser, TABLE_ROWS);
    return [
      {
        figure: 'Sign-in + shell JS (gzip)',
        goal: '≤ 170 KiB',
        measured: `${formatKiB(download.gzipBytes)} in ${download.scripts.length} files`,
        pass: download.gzipBytes <= FIRST_DOWNLOAD_LIMIT_BYTES,
      },
      {
        figure: `DOM nodes, DataTable with ${TABLE_ROWS.toLocaleString('en-US')} rows`,
        goal: `< ${DOM_LIMIT.toLocaleString('en-US')}`,
        measured: `${dom.domNodes} (${dom.domNodesAtEnd} at the last row)`,
        pass: dom.domNodes < DOM_LIMIT && dom.domNodesAtEnd < DOM_LIMIT && dom.lastRowShown,
      },
    ];
  } finally {
    await browser.close();
  }
}

export default clientBench;
