/**
 * Throughput under load (docs/caching.md). autocannon with 100 connections against a bare Fastify
 * hello-world (its own process, bench/hello-server.mjs), then the claims list and the dashboard summary
 * with a signed-in admin's session, then the hello-world again, all in this run on this machine. Goal per endpoint:
 * ≥ 30% of the hello-world's requests per second, p99 ≤ 100 ms, no errors, no non-2xx answers. The reference is the
 * faster of the two hello-world runs: on a shared host one run can fall at a busy moment (28,000 req/s against
 * 74,000 an hour before), and a ratio against it would pass an endpoint that is no faster. The quick run (`npm test`)
 * sends each load a fixed 200 requests instead, to check that it runs and is answered.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import type { BenchContext, BenchFigure, BenchPart } from './bench.types';

const CONNECTIONS = 100;

interface Load {
  requestsPerSecond: number;
  /** Answers received in the load: none means the load measured nothing, whatever its error count. */
  answered: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** CPU time the server process spent per answer (user + system), when /proc tells it. */
  cpuMicrosPerRequest?: number;
  /** CPU time this machine's PostgreSQL processes spent per answer, when the database runs here. */
  databaseCpuMicrosPerRequest?: number;
}

/**
 * CPU time (µs) a process has used, from /proc (Linux); undefined elsewhere. Requests per second on a
 * shared 2-core machine move with whatever else runs; CPU per request hardly does, so the table shows both.
 */
export function cpuMicros(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (100 per second)
    return Number.isFinite(ticks) ? ticks * 10_000 : undefined;
  } catch {
    return undefined;
  }
}

/** A process's parent and name, from /proc; undefined when it is gone or /proc is not there. */
function processInfo(pid: number): { parent: number; name: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return { parent, name };
  } catch {
    return undefined;
  }
}

/**
 * The PostgreSQL server the bench's database runs on, as the process id of its postmaster: the parent of the
 * backend serving this connection. Undefined when the database is not on this machine (a backend id from
 * another host names no process here, or some other process than a postgres one).
 */
async function postmasterOf(databaseUrl: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const backend = Number((await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid);
    const info = processInfo(backend);
    return info?.name === 'postgres' ? info.parent : undefined;
  } finally {
    await client.end();
  }
}

/**
 * CPU time (µs) the postmaster and its children (the app's pooled backends, which live as long as the load, and
 * the background processes) have used. Other PostgreSQL servers on the machine (npm test runs several) are
 * not counted.
 */
function serverCpuMicros(postmaster: number): number {
  let total = cpuMicros(postmaster) ?? 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if (processInfo(Number(entry))?.parent === postmaster) total += cpuMicros(Number(entry)) ?? 0;
  }
  return total;
}

/**
 * How long a load runs: a duration (the measurement), or a number of requests (the quick run, which only checks
 * that each load runs and is answered: a one-second load on a machine busy with the other tests once answered
 * nothing at all, which proved nothing).
 */
type Extent = { seconds: number } | { requests: number };

const CONNECTIONS_FOR_A_COUNT = 10;

async function load(
  url: string,
  extent: Extent,
  pid: number,
  headers: Record<string, string> = {},
  postmaster?: number,
): Promise<Load> {
  const before = cpuMicros(pid);
  const databaseBefore = postmaster === undefined ? 0 : serverCpuMicros(postmaster);
  const started = performance.now();
  const result = await autocannon({
    url,
    headers,
    ...('seconds' in extent
      ? { connections: CONNECTIONS, duration: extent.seconds }
      : { connections: CONNECTIONS_FOR_A_COUNT, amount: extent.requests }),
  });
  const elapsedSeconds = (performance.now() - started) / 1000;
  const after = cpuMicros(pid);
  const databaseCpu = postmaster === undefined ? 0 : serverCpuMicros(postmaster) - databaseBefore;
  return {
    // A count of requests may end within a second: its rate is the count over the time it took (autocannon's
    // average is over whole seconds).
    requestsPerSecond: 'seconds' in extent ? result.requests.average : result.requests.total / elapsedSeconds,
    answered: result.requests.total,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ...(before !== undefined && after !== undefined && result.requests.total > 0
      ? { cpuMicrosPerRequest: (after - before) / result.requests.total }
      : {}),
    ...(databaseCpu > 0 && result.requests.total > 0
      ? { databaseCpuMicrosPerRequest: databaseCpu / result.requests.total }
      : {}),
  };
}

/** Starts bench/hello-server.mjs on a free port; resolves with its URL and a stop function. */
async function startHelloServer(): Promise<{ url: string; pid: number; stop: () => void }> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'hello-server.mjs');
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`hello-world server exited (${code})`)));
  });
  return { url: `${url}/`, pid: child.pid ?? 0, stop: () => child.kill('SIGTERM') };
}

/**
 * Goals for answers computed afresh (the answer cache off), by URL; the others are the cache's reference.
 * Every write ends the cached answers it touches, so in a clinic the computed path is the one users feel.
 */
const COMPUTED_GOALS: Partial<Record<string, { requestsPerSecond: number; p99Ms: number; why: string }>> = {
  '/api/claims?limit=50': { requestsPerSecond: 4040, p99Ms: 100, why: '10× the 404 req/s it answered before tuning' },
};

/** Requests per load in the quick run. */
const QUICK_REQUESTS = 200;

/**
 * The load, when it was answered; in the quick run, whose figures are not goals but whose point is that every
 * load runs, a load that no answer came back to fails the run instead of a row reading "0 req/s".
 */
function answered(measured: Load, what: string, ctx: BenchContext): Load {
  if (ctx.quick && measured.answered === 0) {
    throw new Error(`the throughput load on ${what} was not answered once (${measured.errors} errors)`);
  }
  return measured;
}

const describe = (l: Load) =>
  `${Math.round(l.requestsPerSecond).toLocaleString('en-US')} req/s (${l.answered.toLocaleString('en-US')} answered), ` +
  `p99 ${l.p99} ms, ${l.errors} errors, ${l.non2xx} non-2xx` +
  (l.cpuMicrosPerRequest === undefined ? '' : `, server CPU ${l.cpuMicrosPerRequest.toFixed(0)} µs/request`) +
  (l.databaseCpuMicrosPerRequest === undefined
    ? ''
    : `, PostgreSQL CPU ${l.databaseCpuMicrosPerRequest.toFixed(0)} µs/request`);

/**
 * The most requests per second this machine's cores could answer at the CPU one answer took (app server and
 * PostgreSQL, the load generator left out): a ceiling no scheduling or concurrency can lift, only less work
 * per answer. Undefined when either process's CPU is unknown.
 */
function ceiling(l: Load): string {
  if (l.cpuMicrosPerRequest === undefined || l.databaseCpuMicrosPerRequest === undefined) return '';
  const cores = os.availableParallelism();
  const perSecond = (cores * 1_000_000) / (l.cpuMicrosPerRequest + l.databaseCpuMicrosPerRequest);
  const databaseOnly = (cores * 1_000_000) / l.databaseCpuMicrosPerRequest;
  return (
    `; at this CPU per answer ${cores} cores answer at most ${Math.round(perSecond).toLocaleString('en-US')} req/s, ` +
    `and PostgreSQL's part alone at most ${Math.round(databaseOnly).toLocaleString('en-US')} req/s`
  );
}

export const throughputBench: BenchPart = async (ctx: BenchContext): Promise<BenchFigure[]> => {
  // The quick run (npm test) checks that each load runs and is answered: a few hundred requests each.
  const extent: Extent = ctx.quick ? { requests: QUICK_REQUESTS } : { seconds: 20 };
  const extentText =
    'seconds' in extent
      ? `${CONNECTIONS} connections, ${extent.seconds} s`
      : `${CONNECTIONS_FOR_A_COUNT} connections, ${extent.requests} requests`;
  const helloWorld = async (which: string) => {
    const hello = await startHelloServer();
    try {
      return answered(await load(hello.url, extent, hello.pid), `the hello-world reference (${which})`, ctx);
    } finally {
      hello.stop();
    }
  };
  const before = await helloWorld('before');
  const { cookie } = await ctx.signIn('admin');
  const postmaster = await postmasterOf(ctx.databaseUrl);
  const endpoints = [
    ['Claims list throughput', '/api/claims?limit=50'],
    ['Dashboard summary throughput', '/api/dashboard/summary'],
  ] as const;
  // The headers a browser sends with these calls: the session cookie and the compressions it accepts.
  const browser = { cookie, 'accept-encoding': 'gzip, deflate, br' };
  const cached: Load[] = [];
  for (const [, url] of endpoints) {
    cached.push(answered(await load(`${ctx.baseUrl}${url}`, extent, ctx.serverPid, browser, postmaster), url, ctx));
  }
  const after = await helloWorld('after');
  const reference = before.requestsPerSecond >= after.requestsPerSecond ? before : after;
  const other = reference === before ? after : before;
  const figures: BenchFigure[] = [
    {
      figure: `Hello-world Fastify (reference, ${extentText}; the faster of a run before and one after the cached loads)`,
      goal: 'reference; no errors',
      measured:
        `${describe(reference)}; the run ${reference === before ? 'after' : 'before'}: ` +
        `${Math.round(other.requestsPerSecond).toLocaleString('en-US')} req/s`,
      pass: [before, after].every((r) => r.errors === 0 && r.non2xx === 0 && r.requestsPerSecond > 0),
    },
  ];
  for (const [i, [name, url]] of endpoints.entries()) {
    const measured = cached[i]!;
    const share = measured.requestsPerSecond / reference.requestsPerSecond;
    figures.push({
      figure: `${name} (GET ${url})`,
      goal: '≥ 30% of hello-world req/s, p99 ≤ 100 ms, 0 errors, 0 non-2xx',
      measured: `${describe(measured)} (${(share * 100).toFixed(0)}% of hello-world)`,
      pass: share >= 0.3 && measured.p99 <= 100 && measured.errors === 0 && measured.non2xx === 0,
    });
  }
  // What the answer cache (docs/caching.md) is worth: the same load on a server computing every answer.
  const uncached = await ctx.startServer({ APP_CACHE: 'off' });
  try {
    for (const [name, url] of endpoints) {
      const measured = answered(
        await load(`${uncached.baseUrl}${url}`, extent, uncached.pid, browser, postmaster),
        `${url} (APP_CACHE=off)`,
        ctx,
      );
      const share = measured.requestsPerSecond / reference.requestsPerSecond;
      const clean = measured.answered > 0 && measured.errors === 0 && measured.non2xx === 0;
      const goal = COMPUTED_GOALS[url];
      figures.push({
        figure: `${name}, every answer computed (APP_CACHE=off${goal ? '' : '; reference for the cache'})`,
        goal: goal
          ? `≥ ${goal.requestsPerSecond.toLocaleString('en-US')} req/s (${goal.why}), p99 ≤ ${goal.p99Ms} ms, 0 errors, 0 non-2xx`
          : 'reference; answered, 0 errors, 0 non-2xx',
        measured: `${describe(measured)} (${(share * 100).toFixed(0)}% of hello-world)${ceiling(measured)}`,
        pass: goal
          ? clean && measured.requestsPerSecond >= goal.requestsPerSecond && measured.p99 <= goal.p99Ms
          : clean,
      });
    }
  } finally {
    await uncached.stop();
  }
  return figures;
};

export default throughputBench;
