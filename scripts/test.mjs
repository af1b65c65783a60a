// `npm test`: every check. Runs in stages; the steps of a stage run side by side (each one's output is
// printed whole when it ends, so outputs do not interleave), and a stage starts when the one before has
// passed. Ends with a table of each step's wall and CPU time and one line "N passed, N failed" counting
// the unit, API and browser tests that ran. A browser test that passed only on a retry counts as failed.
import { spawn } from 'node:child_process';
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

/**
 * Why these stages: lint, format and type check are single-threaded and read the same files, so together
 * they take as long as ESLint alone, and the build fits beside them. The unit/API tests spend much of their
 * time waiting on PostgreSQL and the browser tests on the browser and the app server, so on two cores the
 * two suites side by side take little longer than the longer of them. The browser tests alone keep less than
 * one core busy (they wait on pages and the server), so the benchmark harness runs beside both suites, in a
 * third lane from the start: following the browser tests, it made theirs the longest lane (~409 + 116 s
 * against ~483 s). Its quick figures are not goals here, and the suites' timeouts are guards against hangs,
 * with room for a busier machine. (A lane may also be an array of steps, which run one after another.)
 */
const stages = [
  [
    { name: 'lint (ESLint)', cmd: ['npx', 'eslint', '.', '--max-warnings=0'] },
    { name: 'format (Prettier)', cmd: ['npx', 'prettier', '--check', '.'] },
    { name: 'type check (tsc)', cmd: ['npx', 'tsc', '--noEmit'] },
    { name: 'build', cmd: ['npm', 'run', 'build'] },
  ],
  [
    {
      name: 'unit and API tests (Vitest, real PostgreSQL)',
      cmd: ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_JSON}`],
    },
    {
      name: 'browser tests (Playwright on Chromium)',
      skip: skipE2e,
      prepare: async () => ({ CHROMIUM_PATH: await ensureChromium(), PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON }),
      cmd: ['npx', 'playwright', 'test', '--reporter=list,json'],
    },
    {
      // The benchmark harness at 50,000 claims with short durations, into a throwaway folder and results
      // file (bench/results.md keeps the full run's figures): it proves `npm run bench` still works end to
      // end; its figures are not goals here, and a missed goal does not fail this step.
      name: 'benchmark harness (npm run bench at 50,000 claims, quick)',
      prepare: async () => ({ BENCH_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'clinic-bench-')) }),
      cleanup: (env) => rmSync(env.BENCH_DATA_DIR, { recursive: true, force: true }),
      cmd: ['npx', 'tsx', 'bench/run.ts', '--claims', '50000', '--quick', '--out', 'test-results/bench-quick.md'],
    },
  ],
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
    passed += playwright.stats.expected ?? 0;
    // Flaky: failed, then passed on a retry. The config retries nothing; should one be set, it still fails.
    failed += (playwright.stats.unexpected ?? 0) + (playwright.stats.flaky ?? 0);
    skipped += playwright.stats.skipped ?? 0;
  }
  return { passed, failed, skipped, flaky: playwright?.stats?.flaky ?? 0 };
}

/** The first line of a failure's message, without colour codes. */
function firstLine(message) {
  return (
    String(message ?? '')
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim()
      .slice(0, 200) ?? ''
  );
}

/**
 * Each failed test as "file › name: first line of its error", from both suites' JSON reports. The run's
 * output can be long and only its end may be kept (a CI log's tail): this list goes at the end.
 */
function failedTests() {
  const lines = [];
  const root = process.cwd() + path.sep;
  for (const file of readJson(VITEST_JSON)?.testResults ?? []) {
    const name = String(file.name ?? '').replace(root, '');
    const failedAssertions = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failedAssertions) lines.push(`${name} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    // A file that failed outside any test (an import or a hook) has no failed assertion but a message.
    if (file.status === 'failed' && failedAssertions.length === 0) lines.push(`${name}: ${firstLine(file.message)}`);
  }
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === 'unexpected' || test.status === 'flaky') {
          const error = test.results?.find((r) => r.error)?.error;
          lines.push(`${spec.file}:${spec.line} › ${spec.title}: ${firstLine(error?.message)}`);
        }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of readJson(PLAYWRIGHT_JSON)?.suites ?? []) walk(suite);
  return lines;
}

/** Seconds of CPU (user + system) that a finished command and everything it waited for used, from bash's `times`. */
function cpuSecondsFrom(timesOutput) {
  const children = timesOutput.trim().split('\n').at(-1) ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map(([, m, s]) => Number(m) * 60 + Number(s));
  return seconds.length === 2 ? seconds[0] + seconds[1] : null;
}

/**
 * Runs one step through bash, so that `times` can report the CPU its whole process tree used (the CPU of
 * processes it reaped, grandchildren included). Resolves with its exit code, output and times.
 */
function runStep(step, extraEnv) {
  return new Promise((resolve) => {
    const started = Date.now();
    const script = '"$@"; status=$?; times >&3; exit $status';
    const child = spawn('bash', ['-c', script, 'bash', ...step.cmd], {
      env: { ...process.env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let times = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.stdio[3].on('data', (chunk) => (times += chunk));
    child.on('error', (err) => (output += `${err.message}\n`));
    child.on('close', (code) => {
      resolve({ ok: code === 0, output, wall: (Date.now() - started) / 1000, cpu: cpuSecondsFrom(times) });
    });
  });
}

const timings = [];
let failedStep = null;
const runStarted = Date.now();

async function runOne(step) {
  let extraEnv;
  try {
    extraEnv = step.prepare ? await step.prepare() : {};
  } catch (err) {
    console.error(`\n✗ ${step.name}: ${err instanceof Error ? err.message : err}`);
    return { step, ok: false, wall: 0, cpu: null };
  }
  const result = await runStep(step, extraEnv);
  step.cleanup?.(extraEnv);
  process.stdout.write(`\n── ${step.name}\n${result.output}`);
  console.log(`${result.ok ? '✓' : '✗'} ${step.name} (${result.wall.toFixed(1)} s)`);
  return { step, ...result };
}

/** A lane's steps one after another, stopping at the first that fails. */
async function runLane(lane) {
  const results = [];
  for (const step of lane) {
    const result = await runOne(step);
    results.push(result);
    if (!result.ok) break;
  }
  return results;
}

for (const stage of stages) {
  const lanes = stage
    .map((lane) =>
      (Array.isArray(lane) ? lane : [lane]).filter((step) => {
        if (step.skip) console.log(`\n▶ ${step.name}: skipped (--skip-e2e)`);
        return !step.skip;
      }),
    )
    .filter((lane) => lane.length > 0);
  console.log(`\n▶ ${lanes.map((lane) => lane.map((s) => s.name).join(' → ')).join(' | ')}`);
  const results = (await Promise.all(lanes.map(runLane))).flat();
  for (const { step, ok, wall, cpu } of results) timings.push({ name: step.name, ok, wall, cpu });
  const failed = results.find((r) => !r.ok);
  if (failed) {
    failedStep = failed.step.name;
    break;
  }
}

const totalWall = (Date.now() - runStarted) / 1000;
const width = Math.max(...timings.map((t) => t.name.length), 'step'.length);
const seconds = (s) => (s === null ? '?' : s.toFixed(1)).padStart(8);
console.log(`\n${'step'.padEnd(width)}  ${'wall s'.padStart(8)}  ${'CPU s'.padStart(8)}  result`);
for (const t of timings)
  console.log(`${t.name.padEnd(width)}  ${seconds(t.wall)}  ${seconds(t.cpu)}  ${t.ok ? 'passed' : 'FAILED'}`);
console.log(`${'npm test, all stages'.padEnd(width)}  ${seconds(totalWall)}`);

const counts = summary();
const failures = failedTests();
if (failures.length > 0) console.log(`\nFailed tests:\n${failures.map((line) => `  ✗ ${line}`).join('\n')}`);
if (counts.flaky > 0) console.log(`\n${counts.flaky} browser test(s) passed only on a retry: counted as failed.`);
console.log(failedStep ? `\nnpm test failed at: ${failedStep}` : '\nnpm test: every step passed');
console.log(`${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`);
process.exit(failedStep || counts.failed > 0 ? 1 : 0);
