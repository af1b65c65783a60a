/**
 * Keyset paging (docs/paging.md) at any depth. For each paged list (claims, patients, authorizations,
 * audit, a day of appointments, the overdue follow-ups worklist) and each supported sort, both directions, the p95 of a 50-row page over HTTP as the admin, at
 * page 1 and at a deep page (page 10,000 = row 500,000, or 90% into a list shorter than that), reached
 * by a cursor. The deep cursor is built from the row just before that page, found once with SQL on
 * ctx.databaseUrl using the list's documented order (the queries modules), in the cursor format the
 * server issues (base64url of [sort, dir, key values…, id]), so reaching it costs one query, not 10,000
 * page turns. Page-1 figures are measured with `count=false` (the page itself); the first page's
 * optional `total` is reported separately, since counting a million matches is a different cost.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { BenchContext, BenchFigure, BenchPart } from './bench.types';

// Every page is computed, never served from the answer cache (docs/caching.md): this part measures the queries.
const FRESH = { 'cache-control': 'no-cache' };

const PAGE = 50;
const DEEP_PAGE = 10_000;
// Sequential requests after one warm-up. With 15 samples the "p95" was simply the slowest request (one
// scheduler hiccup on a shared machine failed a figure); with 40 it was the second slowest, so two GC
// pauses in a figure's run failed it. 100 make it the 95th of 100: an estimate of the 95th percentile.
const SAMPLES = Number(process.env.PAGING_BENCH_SAMPLES ?? 100);
const GOAL_MS = 20;
/** e.g. `PAGING_BENCH_LISTS=appointments,worklist` measures only those lists (all by default). */
const ONLY = process.env.PAGING_BENCH_LISTS?.split(',').map((l) => l.trim());
const measures = (list: string) => !ONLY || ONLY.includes(list);

interface SortCase {
  list: 'claims' | 'patients' | 'authorizations' | 'audit';
  sort: string;
  /** SQL: `from` clause, key expressions (as the cursor carries them) and the order terms. */
  from: string;
  keys: string[];
  order: (dir: 'asc' | 'desc') => string;
}

function day(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

function cases(): SortCase[] {
  const t = `'${day()}'::date`;
  const claimsFrom = 'claims c join patients p on p.id = c.patient_id join providers v on v.id = c.provider_id';
  const claimSorts: Record<string, { keys: string[]; order: string[] }> = {
    serviceDate: { keys: ['c.service_date::text'], order: ['c.service_date'] },
    patient: { keys: ['p.name', 'p.id', 'c.service_date::text'], order: ['p.name', 'p.id', 'c.service_date'] },
    accountNumber: { keys: ['c.account_number'], order: ['c.account_number'] },
    procedure: { keys: ['c.procedure_code'], order: ['c.procedure_code'] },
    provider: { keys: ['v.name', 'c.service_date::text'], order: ['v.name', 'c.service_date'] },
    payer: { keys: ['c.payer', 'c.service_date::text'], order: ['c.payer', 'c.service_date'] },
    billedCents: { keys: ['c.billed_cents'], order: ['c.billed_cents'] },
    paidCents: { keys: ['c.paid_cents'], order: ['c.paid_cents'] },
    daysAR: {
      keys: [`greatest(0, least(coalesce(c.resolved_on, ${t}), ${t}) - c.service_date)`],
      order: [`greatest(0, least(coalesce(c.resolved_on, ${t}), ${t}) - c.service_date)`],
    },
    status: { keys: ['c.status', 'c.service_date::text'], order: ['c.status', 'c.service_date'] },
  };
  // The definition (the list reads the stored patients.next_visit, which must equal it).
  const nextVisit = `(select min(a.date) from appointments a where a.patient_id = p.id and a.date >= ${t} and a.status = 'Scheduled')`;
  const patientSorts: Record<string, { keys: (dir: string) => string[]; order: (dir: string) => string[] }> = {
    name: { keys: () => ['p.name'], order: () => ['p.name'] },
    dob: { keys: () => ['p.dob::text', 'p.name'], order: () => ['p.dob', 'p.name'] },
    mrn: { keys: () => ['p.mrn'], order: () => ['p.mrn'] },
    nextVisit: {
      keys: (d) => [`coalesce(${nextVisit}, '${d === 'asc' ? '' : '-'}infinity'::date)::text`, 'p.name'],
      order: (d) => [`coalesce(${nextVisit}, '${d === 'asc' ? '' : '-'}infinity'::date)`, 'p.name'],
    },
  };
  const authFrom = 'authorizations a join patients p on p.id = a.patient_id';
  const authSorts: Record<string, string[]> = {
    patient: ['p.name', 'p.id'],
    service: ['a.service'],
    payer: ['a.payer'],
    status: ['a.status', 'a.requested_on'],
    ageDays: [`coalesce(a.decided_on, ${t}) - a.requested_on`],
  };
  const terms = (keys: string[], id: string, dir: string) => [...keys, id].map((k) => `${k} ${dir}`).join(', ');
  return [
    ...Object.entries(claimSorts).map(([sort, s]) => ({
      list: 'claims' as const,
      sort,
      from: claimsFrom,
      keys: [...s.keys, 'c.id'],
      order: (dir: 'asc' | 'desc') => terms(s.order, 'c.id', dir),
    })),
    ...Object.entries(patientSorts).map(([sort, s]) => ({
      list: 'patients' as const,
      sort,
      from: 'patients p',
      keys: [...s.keys('asc'), 'p.id'],
      order: (dir: 'asc' | 'desc') => terms(s.order(dir), 'p.id', dir),
    })),
    ...Object.entries(authSorts).map(([sort, keys]) => ({
      list: 'authorizations' as const,
      sort,
      from: authFrom,
      keys: [...keys.map((k) => (k === 'a.requested_on' ? 'a.requested_on::text' : k)), 'a.id'],
      order: (dir: 'asc' | 'desc') => terms(keys, 'a.id', dir),
    })),
  ];
}

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? Number.NaN;
}

/** The quick run (CI) checks that the harness works, not the figures: a few samples per page are enough. */
const QUICK_SAMPLES = 5;

async function timeGet(
  ctx: BenchContext,
  cookie: string,
  path: string,
  samples = ctx.quick ? QUICK_SAMPLES : SAMPLES,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i <= samples; i += 1) {
    const send = () => fetch(`${ctx.baseUrl}${path}`, { headers: { cookie, ...FRESH } });
    const started = performance.now();
    // The warm-up may meet a pooled keep-alive connection the server closed while the bench was busy
    // elsewhere (finding a deep cursor can take seconds): it is sent again on a new connection.
    const res = i === 0 ? await send().catch(send) : await send();
    const body = (await res.json()) as { items?: unknown[]; entries?: unknown[] };
    const ms = performance.now() - started;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    if ((body.items ?? body.entries ?? []).length === 0) throw new Error(`${path}: an empty page`);
    if (i > 0) times.push(ms); // the first call warms caches and is not counted
  }
  return times;
}

/** The cursor of the row just before the deep page, in the format the list issues. */
async function deepCursor(client: pg.Client, c: SortCase, dir: 'asc' | 'desc', rows: number): Promise<string> {
  const at = Math.min((DEEP_PAGE - 1) * PAGE, Math.floor(rows * 0.9)) - 1;
  const keys =
    c.list === 'patients' && c.sort === 'nextVisit'
      ? c.keys.map((k) => (dir === 'desc' ? k.replace(`'infinity'`, `'-infinity'`) : k))
      : c.keys;
  const text = `select ${keys.map((k, i) => `${k} as k${i}`).join(', ')} from ${c.from} order by ${c.order(dir)} offset ${at} limit 1`;
  const { rows: found } = await client.query<Record<string, unknown>>(text);
  const row = found[0];
  if (!row) throw new Error(`${c.list} ${c.sort}: no row ${at}`);
  const values = keys.map((_, i) => row[`k${i}`]);
  return Buffer.from(JSON.stringify([c.sort, dir, ...values])).toString('base64url');
}

export const pagingBench: BenchPart = async (ctx) => {
  const { cookie } = await ctx.signIn('admin');
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  const figures: BenchFigure[] = [];
  try {
    const counts: Record<string, number> = {};
    for (const table of ['claims', 'patients', 'authorizations', 'audit_log']) {
      const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from ${table}`);
      counts[table] = rows[0]?.n ?? 0;
    }
    const results: { label: string; first: number; deep: number; deepRow: number }[] = [];
    for (const c of cases().filter((x) => measures(x.list))) {
      for (const dir of ['asc', 'desc'] as const) {
        const base = `/api/${c.list}?sort=${c.sort}&dir=${dir}&limit=${PAGE}&count=false`;
        const first = p95(await timeGet(ctx, cookie, base));
        const cursor = await deepCursor(client, c, dir, counts[c.list] ?? 0);
        const deep = p95(await timeGet(ctx, cookie, `${base}&cursor=${cursor}`));
        const deepRow = Math.min((DEEP_PAGE - 1) * PAGE, Math.floor((counts[c.list] ?? 0) * 0.9));
        results.push({ label: `${c.list} by ${c.sort} ${dir}`, first, deep, deepRow });
      }
    }
    // The audit list (newest first only) pages by its own cursor: walk 20 pages to reach a deep one cheaply.
    if (measures('audit')) {
      const first = p95(await timeGet(ctx, cookie, `/api/audit?limit=${PAGE}`));
      const { rows } = await client.query<{ at: string; id: number }>(
        `select to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, id from audit_log
         order by occurred_at desc, id desc offset $1 limit 1`,
        [Math.min((DEEP_PAGE - 1) * PAGE, Math.floor((counts.audit_log ?? 0) * 0.9)) - 1],
      );
      const row = rows[0];
      if (row) {
        const cursor = Buffer.from(JSON.stringify([row.at, Number(row.id)])).toString('base64url');
        const deep = p95(await timeGet(ctx, cookie, `/api/audit?limit=${PAGE}&cursor=${cursor}`));
        results.push({
          label: 'audit newest first',
          first,
          deep,
          deepRow: Math.min((DEEP_PAGE - 1) * PAGE, Math.floor((counts.audit_log ?? 0) * 0.9)),
        });
      }
    }
    // A day of appointments (its own order: time, then id): the busiest day, page 1 and its last page.
    {
      const { rows } = await client.query<{ day: string; n: number }>(
        `select date::text as day, count(*)::int as n from appointments group by date order by n desc, date limit 1`,
      );
      const busiest = rows[0];
      if (measures('appointments') && busiest && busiest.n > PAGE) {
        const base = `/api/appointments?date=${busiest.day}&limit=${PAGE}&count=false`;
        const first = p95(await timeGet(ctx, cookie, base));
        const at = Math.floor((busiest.n - 1) / PAGE) * PAGE - 1;
        const { rows: found } = await client.query<{ time: string; id: number }>(
          `select time, id from appointments where date = $1 order by time, id offset $2 limit 1`,
          [busiest.day, at],
        );
        const row = found[0];
        if (row) {
          const cursor = Buffer.from(JSON.stringify(['time', 'asc', busiest.day, row.time, row.id])).toString(
            'base64url',
          );
          const deep = p95(await timeGet(ctx, cookie, `${base}&cursor=${cursor}`));
          results.push({ label: `appointments of the busiest day (${busiest.n})`, first, deep, deepRow: at + 1 });
        }
      }
    }
    // The overdue follow-ups worklist: per sort and direction, page 1 and its last full page. Its cursor
    // carries (priority rank, follow-up due, encounter id), or (follow-up due, id) for days overdue; the
    // deep row is found by the API itself (one page of `limit=500` steps), since the order is computed.
    for (const sort of measures('worklist') ? (['priority', 'daysOverdue'] as const) : []) {
      for (const dir of ['asc', 'desc'] as const) {
        const base = `/api/worklist/overdue-followups?sort=${sort}&dir=${dir}&limit=${PAGE}&count=false`;
        const first = p95(await timeGet(ctx, cookie, base));
        let cursor: string | null = null;
        let seen = 0;
        for (;;) {
          const query: string = cursor ? `&cursor=${cursor}` : '';
          const res = await fetch(
            `${ctx.baseUrl}/api/worklist/overdue-followups?sort=${sort}&dir=${dir}&limit=500&count=false${query}`,
            {
              headers: { cookie, ...FRESH },
            },
          );
          const page = (await res.json()) as { items: unknown[]; nextCursor: string | null };
          if (!page.nextCursor || page.items.length < 500) break;
          seen += page.items.length;
          cursor = page.nextCursor;
        }
        if (cursor) {
          const deep = p95(await timeGet(ctx, cookie, `${base}&cursor=${cursor}`));
          results.push({ label: `overdue follow-ups by ${sort} ${dir}`, first, deep, deepRow: seen });
        } else {
          results.push({
            label: `overdue follow-ups by ${sort} ${dir} (one page deep)`,
            first,
            deep: first,
            deepRow: 0,
          });
        }
      }
    }
    for (const r of results) {
      const worst = Math.max(r.first, r.deep);
      figures.push({
        figure: `${r.label}: 50-row page p95, page 1 / row ${r.deepRow.toLocaleString('en-US')}`,
        goal: `p95 ≤ ${GOAL_MS} ms at any depth`,
        measured: `${r.first.toFixed(1)} ms / ${r.deep.toFixed(1)} ms`,
        pass: worst <= GOAL_MS,
      });
    }
    // The first page's optional total (informational: counting is not paging).
    for (const list of (['claims', 'patients', 'authorizations'] as const).filter(measures)) {
      const withCount = p95(await timeGet(ctx, cookie, `/api/${list}?limit=${PAGE}`, 5));
      figures.push({
        figure: `${list}: first page with its total (count of ${(counts[list] ?? 0).toLocaleString('en-US')})`,
        goal: 'informational (the client counts once per filter)',
        measured: `${withCount.toFixed(1)} ms`,
        pass: true,
      });
    }
  } finally {
    await client.end();
  }
  return figures;
};

export default pagingBench;
