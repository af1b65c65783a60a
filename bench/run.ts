/**
 * `npm run bench [-- --claims N] [--quick] [--reseed] [--out FILE] [--data-dir DIR] [--only PART…]`: the scale benchmark in one run.
 *
 * Builds the app when dist/ is missing or older than src/, starts (or reuses) an embedded PostgreSQL under
 * BENCH_DATA_DIR (default ./data-bench) — or uses DATABASE_URL — seeds it with the scale seed when it holds
 * no generated claims yet or --reseed is given, and stops when it holds another number of them than N without
 * --reseed (timing the seed; --reseed on the embedded database
 * starts from an empty data folder; --data-dir overrides BENCH_DATA_DIR), starts the built server on a free port, runs every
 * bench part that exists and prints one Markdown table (figure, goal, measured, pass/fail), written with the
 * machine's description to bench/results.md (or --out). `--only client` (repeatable: throughput, analytics, paging,
 * client, mixed-load, scrub, claim-batches, remittances, serializer, eligibility) runs just those parts, e.g. to re-measure one of them; its table then holds only their rows. A missed goal is a FAIL row, not a failed run (except, in the quick run, a figure that is only to be reported and could not be): the
 * exit code is non-zero only when the harness itself breaks or refuses to replace a database seeded for another N.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/server/db/client';
import type { Role } from '../src/shared/access';
import { startOnFreePort } from '../src/testing/free-port';
import { signInOverHttp } from '../src/testing/http-sign-in';
import type { BenchContext, BenchFigure, BenchPart } from './bench.types';
import { throughputBench } from './throughput.bench';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SEED_GOAL_SECONDS = 60;
/** Parts written alongside this one; each is used when its file exists (exported as default or as its only function). */
const OPTIONAL_PARTS = [
  'analytics.bench.ts',
  'paging.bench.ts',
  'client.bench.ts',
  'mixed-load.bench.ts',
  'scrub.bench.ts',
  'claim-batches.bench.ts',
  'remittances.bench.ts',
  'serializer.bench.ts',
  'eligibility.bench.ts',
];
const PART_NAMES = ['throughput', ...OPTIONAL_PARTS.map((file) => file.replace(/\.bench\.ts$/, ''))];

function options() {
  const { values } = parseArgs({
    options: {
      claims: { type: 'string', multiple: true },
      quick: { type: 'boolean', default: false },
      reseed: { type: 'boolean', default: false },
      out: { type: 'string' },
      'data-dir': { type: 'string' },
      only: { type: 'string', multiple: true },
    },
  });
  const only = values.only?.map((name) => name.replace(/\.bench\.ts$/, ''));
  const unknown = only?.filter((name) => !PART_NAMES.includes(name));
  if (unknown?.length) throw new Error(`--only takes ${PART_NAMES.join(', ')}, not "${unknown.join(', ')}"`);
  const text = values.claims?.at(-1) ?? process.env.BENCH_CLAIMS ?? '1000000';
  const claims = Number(text.replace(/[_,]/g, ''));
  if (!Number.isSafeInteger(claims) || claims < 1)
    throw new Error(`--claims must be a positive whole number, not "${text}"`);
  return {
    claims,
    quick: values.quick,
    reseed: values.reseed,
    only,
    out: path.resolve(values.out ?? path.join(root, 'bench', 'results.md')),
    dataDir: path.resolve(values['data-dir'] ?? process.env.BENCH_DATA_DIR ?? path.join(root, 'data-bench')),
  };
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function buildIfNeeded() {
  const server = path.join(root, 'dist', 'server', 'main.js');
  const client = path.join(root, 'dist', 'client', 'index.html');
  const fresh =
    existsSync(server) &&
    existsSync(client) &&
    Math.min(statSync(server).mtimeMs, statSync(client).mtimeMs) > newestMtime(path.join(root, 'src'));
  if (fresh) return;
  console.log('building (dist/ is missing or older than src/)…');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed');
}

async function generatedClaims(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from claims where account_number like 'ACC-%-S%'`,
    );
    return rows[0]?.n ?? 0;
  } catch {
    return 0; // no tables yet
  } finally {
    await client.end();
  }
}

/** Runs the scale seed CLI against the database and returns the seconds it reports for the whole seed. */
async function seed(databaseUrl: string, claims: number): Promise<number> {
  console.log(`seeding ${claims.toLocaleString('en-US')} claims (npm run seed -- --claims ${claims})…`);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'src/server/db/seed/seed.cli.ts'), '--claims', String(claims)],
    { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const seconds = /seed seconds: ([\d.]+)/.exec(output)?.[1];
  if (code !== 0 || seconds === undefined) throw new Error(`the scale seed failed (exit ${code})`);
  return Number(seconds);
}

/** Starts the built server, again on another port should its first be taken before it listens. */
function startServer(
  database: { ownerUrl: string; appUrl: string },
  extraEnv: Record<string, string> = {},
): Promise<{ baseUrl: string; pid: number; stop: () => Promise<void> }> {
  return startOnFreePort((port) => startServerOn(port, database, extraEnv), {
    onRetry: (port) => console.warn(`port ${port} was taken before the server listened: starting it on another`),
  });
}

async function startServerOn(
  port: number,
  database: { ownerUrl: string; appUrl: string },
  extraEnv: Record<string, string>,
): Promise<{ baseUrl: string; pid: number; stop: () => Promise<void> }> {
  // BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server under the bench's
  // load (Node refuses --cpu-prof in NODE_OPTIONS).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'dist', 'server', 'main.js')], {
    cwd: root,
    // Request logging off: the bench measures the app, not writing a log line per request to a pipe.
    env: {
      ...process.env,
      // As in production: migrated as the owner, served as the app role (src/server/db/app-role.ts).
      MIGRATION_DATABASE_URL: database.ownerUrl,
      DATABASE_URL: database.appUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  // Its errors still reach the terminal; the last of them also say why it exited.
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    errors = `${errors}${chunk.toString()}`.slice(-5000);
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${errors}`);
    // Bounded: whatever holds the port may accept a connection and never answer.
    const ok = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (attempt > 600) throw new Error('the server did not answer /api/health within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    pid: child.pid ?? 0,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Password, then the MFA step with the code demo mode returns — the same two calls the sign-in screen makes. */
function signInThrough(baseUrl: string): BenchContext['signIn'] {
  const sessions = new Map<string, Promise<{ cookie: string; csrfToken: string }>>();
  const signIn = (role: Role) => signInOverHttp(baseUrl, role);
  // One session per role for the whole run: sign-in is rate limited, and parts share the session.
  return (role) => {
    let session = sessions.get(role);
    if (!session) {
      session = signIn(role);
      sessions.set(role, session);
    }
    return session;
  };
}

async function optionalParts(): Promise<{ name: string; part: BenchPart }[]> {
  const parts: { name: string; part: BenchPart }[] = [];
  for (const file of OPTIONAL_PARTS) {
    const full = path.join(root, 'bench', file);
    if (!existsSync(full)) continue;
    const module = (await import(pathToFileURL(full).href)) as Record<string, unknown>;
    const functions = Object.values(module).filter((v): v is BenchPart => typeof v === 'function');
    const part = (module.default as BenchPart | undefined) ?? (functions.length === 1 ? functions[0] : undefined);
    if (!part) throw new Error(`${file} exports no single bench part (export default the BenchPart)`);
    parts.push({ name: file, part });
  }
  return parts;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

function machine(postgresVersion: string, claims: number, databaseDescription: string, loadAtStart: string): string {
  const cpus = os.cpus();
  let system = `${os.type()} ${os.release()}`;
  try {
    const pretty = /PRETTY_NAME="([^"]+)"/.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
    if (pretty) system = `${pretty} (${system})`;
  } catch {
    // not Linux
  }
  return [
    `- Date: ${new Date().toISOString()}`,
    `- CPU: ${cpus[0]?.model ?? 'unknown'}, ${cpus.length} cores (os.cpus), ${os.availableParallelism()} available`,
    `- RAM: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- OS: ${system}`,
    `- Node.js: ${process.version}`,
    `- PostgreSQL: ${postgresVersion} (${databaseDescription})`,
    `- Claims: ${claims.toLocaleString('en-US')} generated by the scale seed (plus the demo clinic's)`,
    // Everything (database, server, load generator) shares these cores: other work on the machine shows here.
    `- Load average (1 / 5 / 15 min): ${loadAtStart} at the start, ${loadAverage()} at the end`,
  ].join('\n');
}

/** Busy and total CPU time of the whole machine so far (Linux /proc/stat), or null elsewhere. */
function cpuTimes(): { busy: number; total: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    const total = fields.reduce((a, b) => a + b, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/**
 * Before each part: the previous part's after-effects out of the way, so a part measures itself. A
 * CHECKPOINT writes out what the previous part dirtied (or the seed's vacuum), then we wait until the
 * machine is at least 85% idle over a second (at most 30 s): a heavy part (100 connections of load, raw
 * analytics over a million rows) otherwise left background work that showed up as the next part's p95.
 */
/** Autovacuum workers running on this server now (pg_stat_activity; 0 when the role may not see them). */
async function autovacuumWorkers(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity where backend_type = 'autovacuum worker'`,
  );
  return rows[0]?.n ?? 0;
}

/** Tables past autovacuum's default thresholds (20% + 50 rows dead, or 10% + 50 changed since analysed). */
async function tablesDueForAutovacuum(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select format('%I.%I', schemaname, relname) as name from pg_stat_user_tables
      where n_dead_tup > 50 + 0.2 * n_live_tup or n_mod_since_analyze > 50 + 0.1 * n_live_tup
      order by n_dead_tup desc`,
  );
  return rows.map((r) => r.name);
}

async function settle(databaseUrl: string): Promise<void> {
  const started = Date.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // The part before may have left tables for autovacuum (the mixed load writes for a minute), whose workers
    // would then run during the next part's timing: running workers are let finish (up to a minute), and the
    // tables autovacuum would take next (its default thresholds) are vacuumed and analysed now, untimed.
    for (let waited = 0; waited < 60 && (await autovacuumWorkers(client)) > 0; waited += 1) {
      await new Promise((r) => setTimeout(r, 1000));
    }
    for (const table of await tablesDueForAutovacuum(client)) {
      await client.query(`vacuum (analyze) ${table}`).catch(() => console.log(`  (VACUUM ${table} not allowed)`));
    }
    // Needs superuser or pg_checkpoint: on a DATABASE_URL without it, only the wait below.
    await client.query('checkpoint').catch(() => console.log('  (CHECKPOINT not allowed for this role)'));
  } finally {
    await client.end();
  }
  for (let before = cpuTimes(); before && Date.now() - started < 30_000;) {
    await new Promise((r) => setTimeout(r, 1000));
    const after = cpuTimes();
    if (!after) break;
    const busy = (after.busy - before.busy) / Math.max(1, after.total - before.total);
    if (busy <= 0.15) break;
    before = after;
  }
  console.log(`  settled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function table(figures: BenchFigure[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    '| Figure | Goal | Measured | Result |',
    '| --- | --- | --- | --- |',
    ...figures.map(
      (f) => `| ${cell(f.figure)} | ${cell(f.goal)} | ${cell(f.measured)} | ${f.pass ? 'pass' : 'FAIL'} |`,
    ),
  ].join('\n');
}

async function main() {
  const opts = options();
  const loadAtStart = loadAverage();
  buildIfNeeded();
  const cleanups: (() => Promise<void>)[] = [];
  try {
    let databaseUrl = process.env.MIGRATION_DATABASE_URL ?? process.env.DATABASE_URL;
    let appDatabaseUrl = process.env.DATABASE_URL;
    let databaseDescription = 'DATABASE_URL';
    if (!databaseUrl) {
      if (opts.reseed && existsSync(opts.dataDir)) {
        // A re-seed keeps the audit trail (append-only, docs/audit.md), so a reused database grows run after run
        // and its audit indexes with it: the seed figure is for a fresh database, as `npm run seed:scale` makes.
        console.log(`--reseed: removing ${opts.dataDir} so the seed is timed on a fresh database`);
        rmSync(opts.dataDir, { recursive: true, force: true });
      }
      // pg_stat_statements (shipped with the embedded server): the mixed load reports where PostgreSQL's time goes.
      const embedded = await startEmbeddedPostgres(
        opts.dataDir,
        { info: console.log, error: console.error },
        undefined,
        [],
        // Planning counted too: a list query with many joins and indexes to weigh can take longer to plan than to run.
        { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track_planning': 'on' },
      );
      cleanups.push(() => embedded.stop());
      databaseUrl = embedded.url;
      appDatabaseUrl = embedded.appUrl;
      const relative = path.relative(root, opts.dataDir);
      databaseDescription = `embedded, data in ${relative.startsWith('..') ? opts.dataDir : relative}`;
    }
    const figures: BenchFigure[] = [];
    const held = opts.reseed ? 0 : await generatedClaims(databaseUrl);
    // A database seeded for another size is not replaced unasked: a 1M-claim seed takes minutes to remake.
    if (held > 0 && held !== opts.claims) {
      throw new Error(
        `the database (${databaseDescription}) holds ${held.toLocaleString('en-US')} generated claims, not ` +
          `${opts.claims.toLocaleString('en-US')}: pass --reseed to replace them, or --data-dir for another folder`,
      );
    }
    if (opts.reseed || held !== opts.claims) {
      const seconds = await seed(databaseUrl, opts.claims);
      // The goal is the issue's, for a million claims; a smaller run must of course beat it too.
      figures.push({
        figure: `Scale seed, ${opts.claims.toLocaleString('en-US')} claims (clear, demo clinic, generate, index, analyze)`,
        goal: `< ${SEED_GOAL_SECONDS} s${opts.claims === 1_000_000 ? '' : ' (the goal is for 1,000,000 claims)'}`,
        measured: `${seconds.toFixed(1)} s`,
        pass: seconds < SEED_GOAL_SECONDS,
      });
    } else {
      console.log(`the database already holds ${opts.claims.toLocaleString('en-US')} generated claims: not seeding`);
    }

    const database = { ownerUrl: databaseUrl, appUrl: appDatabaseUrl ?? databaseUrl };
    const server = await startServer(database);
    cleanups.unshift(server.stop);
    const ctx: BenchContext = {
      baseUrl: server.baseUrl,
      serverPid: server.pid,
      databaseUrl,
      claims: opts.claims,
      quick: opts.quick,
      signIn: signInThrough(server.baseUrl),
      startServer: (env) => startServer(database, env),
    };
    const parts = [{ name: 'throughput.bench.ts', part: throughputBench }, ...(await optionalParts())].filter(
      ({ name }) => !opts.only || opts.only.includes(name.replace(/\.bench\.ts$/, '')),
    );
    for (const { name, part } of parts) {
      // The quick run (CI) checks the harness, not the figures: no waiting.
      if (!opts.quick) await settle(databaseUrl);
      console.log(`running ${name}…`);
      const started = Date.now();
      figures.push(...(await part(ctx)));
      console.log(`  ${name} took ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const version =
      (await client.query<{ v: string }>("select current_setting('server_version') as v")).rows[0]?.v ?? 'unknown';
    await client.end();
    const markdown = [
      '# Benchmark results',
      '',
      `Written by \`npm run bench\` (bench/run.ts)${opts.quick ? ' in quick mode (short durations: a harness check, not a measurement)' : ''}. ` +
        'Every figure is measured in this one run on this machine; ratios compare against references measured in the same run.',
      '',
      machine(version, opts.claims, databaseDescription, loadAtStart),
      '',
      table(figures),
      '',
    ].join('\n');
    console.log(`\n${table(figures)}\n`);
    writeFileSync(opts.out, markdown);
    console.log(`written to ${path.relative(process.cwd(), opts.out) || opts.out}`);
    // A figure whose goal is only to be reported (where the time goes, per-kind times) fails when the harness
    // could not measure it: in the quick run (CI, always on the embedded server with pg_stat_statements) that
    // is the harness broken, so the run fails rather than writing "not read" unnoticed.
    const unreported = figures.filter((f) => f.goal.startsWith('reported') && !f.pass);
    if (opts.quick && unreported.length > 0) {
      throw new Error(`the harness could not report: ${unreported.map((f) => f.figure).join('; ')}`);
    }
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
