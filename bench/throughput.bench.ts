/**
 * Throughput under load (docs/caching.md). autocannon with 100 connections against a bare Fastify
 * hello-world (its own process, bench/hello-server.mjs), then the claims list and the dashboard summary
 * with a signed-in admin's session, all in this run on this machine. Goal per endpoint: ≥ 30% of the
 * hello-world's requests per second, p99 ≤ 100 ms, no errors, no non-2xx answers.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
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

async function load(url: string, seconds: number, pid: number, headers: Record<string, string> = {}): Promise<Load> {
  const before = cpuMicros(pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  const after = cpuMicros(pid);
  return {
    requestsPerSecond: result.requests.average,
    answered: result.requests.total,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ...(before !== undefined && after !== undefined && result.requests.total > 0
      ? { cpuMicrosPerRequest: (after - before) / result.requests.total }
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

const describe = (l: Load) =>
  `${Math.round(l.requestsPerSecond).toLocaleString('en-US')} req/s (${l.answered.toLocaleString('en-US')} answered), ` +
  `p99 ${l.p99} ms, ${l.errors} errors, ${l.non2xx} non-2xx` +
  (l.cpuMicrosPerRequest === undefined ? '' : `, server CPU ${l.cpuMicrosPerRequest.toFixed(0)} µs/request`);

export const throughputBench: BenchPart = async (ctx: BenchContext): Promise<BenchFigure[]> => {
  // The quick run (npm test) checks that each load runs and is reported: a second each is enough for that.
  const seconds = ctx.quick ? 1 : 20;
  const hello = await startHelloServer();
  let reference: Load;
  try {
    reference = await load(hello.url, seconds, hello.pid);
  } finally {
    hello.stop();
  }
  const { cookie } = await ctx.signIn('admin');
  const figures: BenchFigure[] = [
    {
      figure: `Hello-world Fastify (reference, ${CONNECTIONS} connections, ${seconds} s)`,
      goal: 'reference; no errors',
      measured: describe(reference),
      pass: reference.errors === 0 && reference.non2xx === 0 && reference.requestsPerSecond > 0,
    },
  ];
  const endpoints = [
    ['Claims list throughput', '/api/claims?limit=50'],
    ['Dashboard summary throughput', '/api/dashboard/summary'],
  ] as const;
  // The headers a browser sends with these calls: the session cookie and the compressions it accepts.
  const browser = { cookie, 'accept-encoding': 'gzip, deflate, br' };
  for (const [name, url] of endpoints) {
    const measured = await load(`${ctx.baseUrl}${url}`, seconds, ctx.serverPid, browser);
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
      const measured = await load(`${uncached.baseUrl}${url}`, seconds, uncached.pid, browser);
      const share = measured.requestsPerSecond / reference.requestsPerSecond;
      const clean = measured.answered > 0 && measured.errors === 0 && measured.non2xx === 0;
      const goal = COMPUTED_GOALS[url];
      figures.push({
        figure: `${name}, every answer computed (APP_CACHE=off${goal ? '' : '; reference for the cache'})`,
        goal: goal
          ? `≥ ${goal.requestsPerSecond.toLocaleString('en-US')} req/s (${goal.why}), p99 ≤ ${goal.p99Ms} ms, 0 errors, 0 non-2xx`
          : 'reference; answered, 0 errors, 0 non-2xx',
        measured: `${describe(measured)} (${(share * 100).toFixed(0)}% of hello-world)`,
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
