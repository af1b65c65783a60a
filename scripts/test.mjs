// `npm test`: every check, in order, stopping at the first failure. Ends with one line
// "N passed, N failed" counting the unit, API and browser tests that ran.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';

const skipE2e = process.argv.includes('--skip-e2e');
const VITEST_JSON = 'test-results/vitest.json';
const PLAYWRIGHT_JSON = 'test-results/playwright.json';
rmSync(VITEST_JSON, { force: true });
rmSync(PLAYWRIGHT_JSON, { force: true });
mkdirSync('test-results', { recursive: true });

const steps = [
  {
    // Three single-threaded checks that read the same files: side by side they take as long as ESLint alone.
    name: 'lint (ESLint), format (Prettier) and type check (tsc), side by side',
    together: [
      { name: 'lint (ESLint)', cmd: ['npx', 'eslint', '.', '--max-warnings=0'] },
      { name: 'format (Prettier)', cmd: ['npx', 'prettier', '--check', '.'] },
      { name: 'type check (tsc)', cmd: ['npx', 'tsc', '--noEmit'] },
    ],
  },
  {
    name: 'unit and API tests (Vitest, real PostgreSQL)',
    cmd: ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_JSON}`],
  },
  { name: 'build', cmd: ['npm', 'run', 'build'] },
  {
    // The benchmark harness at 50,000 claims with short durations, into a throwaway folder and results
    // file (bench/results.md keeps the full run's figures): it proves `npm run bench` still works end to
    // end; its figures are not goals here, and a missed goal does not fail this step.
    name: 'benchmark harness (npm run bench at 50,000 claims, quick)',
    prepare: async () => ({ BENCH_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'clinic-bench-')) }),
    cleanup: (env) => rmSync(env.BENCH_DATA_DIR, { recursive: true, force: true }),
    cmd: ['npx', 'tsx', 'bench/run.ts', '--claims', '50000', '--quick', '--out', 'test-results/bench-quick.md'],
  },
  {
    name: 'browser tests (Playwright on Chromium)',
    skip: skipE2e,
    prepare: async () => ({ CHROMIUM_PATH: await ensureChromium(), PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON }),
    cmd: ['npx', 'playwright', 'test', '--reporter=list,json'],
  },
];

function readJson(file) {
  try {
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
  } catch {
    return null;
  }
}

function summary() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const vitest = readJson(VITEST_JSON);
  if (vitest) {
    passed += vitest.numPassedTests ?? 0;
    failed += vitest.numFailedTests ?? 0;
    skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
  }
  const playwright = readJson(PLAYWRIGHT_JSON);
  if (playwright?.stats) {
    passed += (playwright.stats.expected ?? 0) + (playwright.stats.flaky ?? 0);
    failed += playwright.stats.unexpected ?? 0;
    skipped += playwright.stats.skipped ?? 0;
  }
  return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
}

/** Runs the commands at once; each one's output is printed whole when it ends, so outputs do not interleave. */
async function runTogether(commands) {
  const results = await Promise.all(
    commands.map(
      ({ name, cmd }) =>
        new Promise((resolve) => {
          const started = Date.now();
          const child = spawn(cmd[0], cmd.slice(1), { env: process.env });
          let output = '';
          child.stdout.on('data', (chunk) => (output += chunk));
          child.stderr.on('data', (chunk) => (output += chunk));
          child.on('error', (err) => (output += `${err.message}\n`));
          child.on('close', (code) => {
            const seconds = ((Date.now() - started) / 1000).toFixed(1);
            process.stdout.write(`\n── ${name}\n${output}${code === 0 ? '✓' : '✗'} ${name} (${seconds} s)\n`);
            resolve(code === 0);
          });
        }),
    ),
  );
  return { status: results.every(Boolean) ? 0 : 1 };
}

let failedStep = null;
for (const step of steps) {
  if (step.skip) {
    console.log(`\n▶ ${step.name}: skipped (--skip-e2e)`);
    continue;
  }
  console.log(`\n▶ ${step.name}`);
  const started = Date.now();
  let extraEnv;
  try {
    extraEnv = step.prepare ? await step.prepare() : {};
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    failedStep = step.name;
    break;
  }
  const result = step.together
    ? await runTogether(step.together)
    : spawnSync(step.cmd[0], step.cmd.slice(1), { stdio: 'inherit', env: { ...process.env, ...extraEnv } });
  step.cleanup?.(extraEnv);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n✗ ${step.name} failed after ${seconds} s`);
    failedStep = step.name;
    break;
  }
  console.log(`✓ ${step.name} (${seconds} s)`);
}

console.log(failedStep ? `\nnpm test failed at: ${failedStep}` : '\nnpm test: every step passed');
console.log(summary());
process.exit(failedStep ? 1 : 0);
