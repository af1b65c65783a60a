// `npm test`: every check. The steps run side by side, each as soon as the steps it needs have passed
// (see `steps` below). Ends with a table of each step's wall and CPU time and one line "N passed, N failed" counting
// the unit, API and browser tests that ran. A browser test that passed only on a retry counts as failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';

const skipE2e = process.argv.includes('--skip-e2e');
const VITEST_JSON = 'test-results/vitest.json';
const PLAYWRIGHT_JSON = 'test-results/playwright.json';
rmSync(VITEST_JSON, { force: true });
rmSync(PLAYWRIGHT_JSON, { force: true });
mkdirSync('test-results', { recursive: true });

/** The headless shell for the browser tests (scripts/ensure-chromium.mjs), found or installed when they start. */
const browserForTests = () => ensureChromium({ headlessShell: true });

/**
 * Why this order: every step starts as soon as what it needs has passed, so the two cores are never left
 * with one step's work. Lint, format and type check each keep one core busy for a minute or two and need
 * nothing; the unit and API tests need nothing either and are the longest step, so they start at once too
 * (they waited for the static checks once, and for the 30-60 s that ESLint ran alone after the others had
 * ended, one core stood idle). The browser tests serve the built app, so they wait for the build. A step
 * whose prerequisite failed is not run. Each step's output is printed whole when it ends, so outputs do not
 * interleave. The suites' timeouts are guards against hangs, with room for a
 * busier machine.
 *
 * Why some steps run niced (`background`): the tests wait on round trips (test to server to PostgreSQL and
 * back, thousands of times), while lint, format and type check only want CPU.
 * With everything at one priority, on a slower 2-core machine (an AMD EPYC at 2.1 GHz) each round trip
 * waited its turn behind a dozen runnable processes: the API fuzzing that takes 20 s alone took 490 s and the
 * run ~17 minutes. Niced, the CPU-only steps take what the waiting tests leave instead of delaying them
 * (~15 minutes there, every test passing).
 *
 * Why the benchmark harness is not a step: `npm run bench` is the command for performance figures, and its
 * quick run (10,000 claims) cost a twentieth of this run's CPU (62 CPU s of 1,278) to prove only that the
 * harness still ran, while lint and the type check cover its code. Run `npm run bench -- --claims 10000
 * --quick` after changing bench/ or a path it measures (docs/performance.md).
 */
const steps = [
  {
    name: 'unit and API tests (Vitest, real PostgreSQL)',
    cmd: ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_JSON}`],
  },
  { name: 'lint (ESLint)', background: true, cmd: ['npx', 'eslint', '.', '--max-warnings=0'] },
  { name: 'build', cmd: ['npm', 'run', 'build'] },
  { name: 'format (Prettier)', background: true, cmd: ['npx', 'prettier', '--check', '.'] },
  // TypeScript 7's native compiler checks the same tsconfig at a fifth of TypeScript 6's CPU; one checker
  // thread, as the run's other steps have the cores (docs/adr/0006-native-type-check.md).
  { name: 'type check (tsc)', background: true, cmd: ['npm', 'run', '--silent', 'typecheck'] },
  {
    name: 'browser tests (Playwright on Chromium)',
    after: ['build'],
    skip: skipE2e,
    prepare: async () => ({ CHROMIUM_PATH: await browserForTests(), PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON }),
    cmd: ['npx', 'playwright', 'test', '--reporter=list,json'],
  },
];

/** A background step's CPU weight is about a tenth of a test's (the kernel's weight table: nice 10 ~ 1/9.3). */
const BACKGROUND_NICENESS = 10;

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

/** A failure's message as lines, without colour codes or blank lines. */
function messageLines(message) {
  return (
    String(message ?? '')
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
  );
}

/** The first line of a failure's message. */
function firstLine(message) {
  return messageLines(message)[0]?.slice(0, 200) ?? '';
}

/**
 * A browser test's failure in a few lines: the first line of its message (which only names the matcher), the
 * locator it waited for, what it found instead, and the line of the spec that failed. A CI log may keep only
 * its tail, and without these a failure there cannot be told apart from any other in the same test.
 */
function browserFailure(error) {
  const lines = messageLines(error?.message);
  const details = lines
    .slice(1)
    .filter((line) => /^(Locator|Expected|Received|Timeout|Error):/.test(line))
    .slice(0, 4);
  const at = error?.location ? `at ${path.relative(process.cwd(), error.location.file)}:${error.location.line}` : '';
  return [lines[0] ?? '', ...details, at]
    .filter((line) => line !== '')
    .map((line) => line.slice(0, 200))
    .join('\n      ');
}

/**
 * Each failed test as "file › name: first line of its error" (a browser test's with the locator and line of
 * the spec), from both suites' JSON reports. The run's
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
          lines.push(`${spec.file}:${spec.line} › ${spec.title}: ${browserFailure(error)}`);
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
    const cmd = step.background ? ['nice', '-n', String(BACKGROUND_NICENESS), ...step.cmd] : step.cmd;
    const child = spawn('bash', ['-c', script, 'bash', ...cmd], {
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
/**
 * The whole machine's busy CPU seconds (every process, and the kernel) from Linux's /proc/stat; null elsewhere.
 * The steps' CPU column counts what each step's process tree waited for, which misses most of Chromium's:
 * sampled per process over a whole run, Chromium used about a third of the machine's CPU, and no step's
 * column showed it.
 */
function machineCpu() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal, in USER_HZ (100 a second on Linux): busy is all but
    // idle and iowait.
    const [user, nice, system, , , irq, softirq, steal] = fields;
    return (user + nice + system + irq + softirq + (steal ?? 0)) / 100;
  } catch {
    return null;
  }
}
const machineAtStart = machineCpu();
const runStarted = Date.now();

async function runOne(step) {
  let extraEnv;
  try {
    extraEnv = step.prepare ? await step.prepare() : {};
  } catch (err) {
    console.error(`\n✗ ${step.name}: ${err instanceof Error ? err.message : err}`);
    return { ok: false, wall: 0, cpu: null };
  }
  const result = await runStep(step, extraEnv);
  step.cleanup?.(extraEnv);
  process.stdout.write(`\n── ${step.name}\n${result.output}`);
  console.log(`${result.ok ? '✓' : '✗'} ${step.name} (${result.wall.toFixed(1)} s)`);
  return result;
}

/** Each step's run, started once the steps it comes after have passed; false when one of them did not. */
const running = new Map();
function run(step) {
  if (!running.has(step.name)) {
    running.set(
      step.name,
      (async () => {
        const needs = await Promise.all((step.after ?? []).map((name) => run(steps.find((s) => s.name === name))));
        if (needs.some((ok) => !ok)) {
          console.log(`\n▶ ${step.name}: not run, as ${step.after.join(' and ')} did not pass`);
          timings.push({ name: step.name, ok: false, wall: 0, cpu: 0, notRun: true });
          return false;
        }
        console.log(`\n▶ ${step.name}: started at ${((Date.now() - runStarted) / 1000).toFixed(1)} s`);
        const { ok, wall, cpu } = await runOne(step);
        timings.push({ name: step.name, ok, wall, cpu });
        return ok;
      })(),
    );
  }
  return running.get(step.name);
}

const toRun = steps.filter((step) => {
  if (step.skip) console.log(`\n▶ ${step.name}: skipped (--skip-e2e)`);
  return !step.skip;
});
await Promise.all(toRun.map(run));
// The table lists the steps in their order here, whatever order they ended in.
timings.sort((a, b) => steps.findIndex((s) => s.name === a.name) - steps.findIndex((s) => s.name === b.name));
const failedSteps = timings.filter((t) => !t.ok && !t.notRun).map((t) => t.name);
const stepsNotRun = timings.filter((t) => t.notRun).map((t) => t.name);

const totalWall = (Date.now() - runStarted) / 1000;
const width = Math.max(...timings.map((t) => t.name.length), 'step'.length);
const seconds = (s) => (s === null ? '?' : s.toFixed(1)).padStart(8);
console.log(`\n${'step'.padEnd(width)}  ${'wall s'.padStart(8)}  ${'CPU s'.padStart(8)}  result`);
for (const t of timings)
  console.log(
    `${t.name.padEnd(width)}  ${seconds(t.wall)}  ${seconds(t.cpu)}  ${t.ok ? 'passed' : t.notRun ? 'not run' : 'FAILED'}`,
  );
console.log(`${'npm test, all steps'.padEnd(width)}  ${seconds(totalWall)}`);
const machineAtEnd = machineCpu();
if (machineAtStart !== null && machineAtEnd !== null)
  console.log(
    `machine-wide: ${(machineAtEnd - machineAtStart).toFixed(0)} CPU s busy of ${(totalWall * os.cpus().length).toFixed(0)} on ${os.cpus().length} cores (more than the steps' column, which misses most of Chromium's)`,
  );

const counts = summary();
const failures = failedTests();
if (failures.length > 0) console.log(`\nFailed tests:\n${failures.map((line) => `  ✗ ${line}`).join('\n')}`);
if (counts.flaky > 0) console.log(`\n${counts.flaky} browser test(s) passed only on a retry: counted as failed.`);
console.log(
  failedSteps.length > 0
    ? `\nnpm test failed at: ${failedSteps.join(', ')}${stepsNotRun.length > 0 ? `; not run: ${stepsNotRun.join(', ')}` : ''}`
    : '\nnpm test: every step passed',
);
console.log(`${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`);
process.exit(failedSteps.length > 0 || counts.failed > 0 ? 1 : 0);
