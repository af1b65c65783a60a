/**
 * Analytics served from rollups (docs/kpis.md). For each analytics endpoint this part measures
 *
 * - the endpoint's p50 server time, from the `Server-Timing: app;dur=…` header each answer carries (request
 *   arrival to answer sent: session check, queries, serialisation), and its p50 over HTTP end to end on
 *   localhost (the running server, a billing admin's session) for reference;
 * - the rollup query's p50 and its raw reference's p50, both called in-process on the same database
 *   (DATABASE_URL of the run), so the ratio compares the two queries alone.
 *
 * Goal per endpoint: server-time p50 ≤ 25 ms and the rollup ≥ 10× faster than the raw answer.
 * The raw answers take seconds at 1M claims, so they are timed over fewer calls than the rollups.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import { periodEndingToday } from '@/shared/period';
import {
  computeArAging,
  computeArAgingRaw,
  computeDenialsByReason,
  computeDenialsByReasonRaw,
  computeKpis,
  computeKpisRaw,
  computeProviderAnalytics,
  computeProviderAnalyticsRaw,
} from '@/features/analytics/server/analytics.queries';
import { getPayerPerformance, getPayerPerformanceRaw } from '@/features/billing/server/billing.queries';
import { claimsOverview, claimsOverviewRaw } from '@/features/claims/server/claims.queries';
import { summariseClaims, summariseClaimsRaw } from '@/features/claims/server/claims.summary.queries';
import type { RequestContext } from '@/server/context';
import { poolFor } from '@/server/db/client';
import type { BenchContext, BenchFigure, BenchPart } from './bench.types';

const HTTP_CALLS = 20;
const ROLLUP_CALLS = 20;
const RAW_CALLS = 5;
const GOAL_MS = 25;
const GOAL_RATIO = 10;

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

async function timeCalls(calls: number, run: () => Promise<unknown>): Promise<number> {
  await run(); // warm-up: plans and caches, as a running server has them
  const samples: number[] = [];
  for (let i = 0; i < calls; i += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return p50(samples);
}

/** The server's own time for an answer, from its `Server-Timing: app;dur=<ms>` header (NaN when absent). */
function serverTime(response: Response): number {
  const match = /(?:^|,)\s*app;dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '');
  return match ? Number(match[1]) : Number.NaN;
}

const ms = (value: number) => `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ms`;

export const analyticsBench: BenchPart = async (ctx: BenchContext): Promise<BenchFigure[]> => {
  const session = await ctx.signIn('billing_admin');
  // 'no-cache': every answer is computed, never served from the answer cache (docs/caching.md).
  const headers = { cookie: session.cookie, 'x-csrf-token': session.csrfToken, 'cache-control': 'no-cache' };
  const pool = poolFor(ctx.databaseUrl, 2);
  const db = drizzle(pool);
  const now = new Date();
  const period = periodEndingToday(now, 30);
  const requestContext: RequestContext = {
    user: { id: 0, email: 'bench@localhost', name: 'Bench', role: 'billing_admin', patientId: null },
    now,
  };
  const noFilter = { search: '', reason: '' };
  const endpoints = [
    {
      name: 'KPIs (30 days)',
      url: '/api/claims/analytics/kpis?periodDays=30',
      rollup: () => computeKpis(db, period),
      raw: () => computeKpisRaw(db, period),
    },
    {
      name: 'AR aging',
      url: '/api/claims/analytics/ar-aging',
      rollup: () => computeArAging(db, now),
      raw: () => computeArAgingRaw(db, now),
    },
    {
      name: 'Provider analytics (30 days)',
      url: '/api/claims/analytics/provider?periodDays=30',
      rollup: () => computeProviderAnalytics(db, period),
      raw: () => computeProviderAnalyticsRaw(db, period),
    },
    {
      name: 'Denials by reason (30 days)',
      url: '/api/claims/analytics/denials-by-reason?periodDays=30',
      rollup: () => computeDenialsByReason(db, period),
      raw: () => computeDenialsByReasonRaw(db, period),
    },
    {
      name: 'Claims overview (charts, no filter)',
      url: '/api/claims/overview',
      rollup: () => claimsOverview(db, requestContext, noFilter),
      raw: () => claimsOverviewRaw(db, requestContext, noFilter),
    },
    {
      name: 'Payer performance (30 days)',
      url: '/api/billing/payer-performance?periodDays=30',
      rollup: () => getPayerPerformance(db, requestContext, 30),
      raw: () => getPayerPerformanceRaw(db, requestContext, 30),
    },
    {
      // The endpoint also counts patients, appointments, authorizations and reads the audit trail; the
      // ratio compares its claim figures (revenue collected, claims by status), the part from rollups.
      name: 'Dashboard summary',
      url: '/api/dashboard/summary',
      rollup: () => summariseClaims(db),
      raw: () => summariseClaimsRaw(db),
    },
  ];

  const figures: BenchFigure[] = [];
  try {
    for (const endpoint of endpoints) {
      const serverTimes: number[] = [];
      const http = await timeCalls(HTTP_CALLS, async () => {
        const response = await fetch(`${ctx.baseUrl}${endpoint.url}`, { headers });
        if (!response.ok) throw new Error(`${endpoint.url}: HTTP ${response.status}`);
        await response.arrayBuffer();
        serverTimes.push(serverTime(response));
      });
      // The warm-up's answer is not a sample.
      const server = p50(serverTimes.slice(1));
      const rollup = await timeCalls(ROLLUP_CALLS, endpoint.rollup);
      const raw = await timeCalls(RAW_CALLS, endpoint.raw);
      const ratio = raw / rollup;
      // Without the header (an older server), the HTTP time is the bound the goal is held to.
      const measuredTime = Number.isNaN(server) ? http : server;
      figures.push({
        figure: `${endpoint.name} p50 (rollup)`,
        goal: `≤ ${GOAL_MS} ms server time and ≥ ${GOAL_RATIO}× raw`,
        measured:
          `${Number.isNaN(server) ? 'no Server-Timing' : `${ms(server)} server time`}, ${ms(http)} over HTTP; ` +
          `query ${ms(rollup)} = ${ratio.toFixed(0)}× faster than raw ${ms(raw)}`,
        pass: measuredTime <= GOAL_MS && ratio >= GOAL_RATIO,
      });
    }
  } finally {
    await pool.end();
  }
  return figures;
};

export default analyticsBench;
