/**
 * Where a load's time goes, watched from outside the app server while the load runs: the server's CPU
 * (from /proc), PostgreSQL's planning and execution time by statement (pg_stat_statements, which `npm run bench`
 * loads into its embedded server with planning tracked; on a DATABASE_URL without it, that part says so, and
 * where planning is not tracked it reads as 0), how many backends wait
 * on the audit chain's advisory lock, sampled every 100 ms from pg_stat_activity (each waiting backend in a
 * sample stands for 100 ms of waiting: the samples' sum estimates the time waited), and the time the
 * server's requests waited for a pool connection, which only the server can measure
 * (GET /api/system/database-pool, read before and after).
 */
import pg from 'pg';
import { cpuMicros } from './throughput.bench';

export interface TimeReport {
  /** Server CPU (user + system) over the load, µs; undefined where /proc is not there. */
  serverCpuMicros?: number;
  /** pg_stat_statements over the load, or why it could not be read. */
  statements:
    | {
        /** Planning and execution, ms. */
        totalMs: number;
        planMs: number;
        calls: number;
        top: { query: string; calls: number; totalMs: number; meanMs: number; meanPlanMs: number }[];
      }
    | { unavailable: string };
  /** pg_stat_activity samples: backends of this database running a statement, and those waiting on an advisory lock. */
  samples: number;
  activeSum: number;
  advisoryWaitSum: number;
  /** The server's waits for a pool connection over the load, or why they could not be read. */
  pool: { checkouts: number; waitedMs: number; longestWaitMs: number } | { unavailable: string };
}

/** The server's pool figures (GET /api/system/database-pool): checkouts and waits since it started. */
export interface PoolReading {
  checkouts: number;
  waitedMs: number;
  longestWaitMs: number;
}

const SAMPLE_MS = 100;

export async function watchWhereTimeGoes(
  databaseUrl: string,
  serverPid: number,
  readPool: () => Promise<PoolReading>,
): Promise<() => Promise<TimeReport>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let statementsError: string | null = null;
  try {
    await client.query('create extension if not exists pg_stat_statements');
    await client.query('select pg_stat_statements_reset()');
  } catch (err) {
    statementsError = err instanceof Error ? err.message : String(err);
  }
  const poolBefore = await readPool().catch((err: unknown) => (err instanceof Error ? err.message : String(err)));
  const cpuBefore = cpuMicros(serverPid);
  const report = { samples: 0, activeSum: 0, advisoryWaitSum: 0 };
  let stopped = false;
  // A failed sample ends the sampling (and shows as fewer samples) rather than the process: nothing awaits
  // this loop until the load is over.
  const sampling = (async () => {
    while (!stopped) {
      const { rows } = await client.query<{ active: number; advisory: number }>(
        `select count(*) filter (where state = 'active')::int as active,
                count(*) filter (where wait_event_type = 'Lock' and wait_event = 'advisory')::int as advisory
           from pg_stat_activity
          where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      report.samples += 1;
      report.activeSum += rows[0]?.active ?? 0;
      report.advisoryWaitSum += rows[0]?.advisory ?? 0;
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  })().catch(() => {});

  return async () => {
    stopped = true;
    await sampling;
    const cpuAfter = cpuMicros(serverPid);
    const poolAfter = await readPool().catch((err: unknown) => (err instanceof Error ? err.message : String(err)));
    // The longest wait is the server's since it started: over the load only when the load set it.
    let pool: TimeReport['pool'];
    if (typeof poolBefore === 'string') pool = { unavailable: poolBefore };
    else if (typeof poolAfter === 'string') pool = { unavailable: poolAfter };
    else
      pool = {
        checkouts: poolAfter.checkouts - poolBefore.checkouts,
        waitedMs: poolAfter.waitedMs - poolBefore.waitedMs,
        longestWaitMs: poolAfter.longestWaitMs,
      };
    let statements: TimeReport['statements'] = { unavailable: statementsError ?? '' };
    try {
      if (statementsError === null) {
        const scope = `dbid = (select oid from pg_database where datname = current_database())
          and query not like '%pg_stat_activity%' and query not like '%pg_stat_statements%'`;
        const totals = await client.query<{ total: number | null; plan: number | null; calls: string | null }>(
          `select sum(total_plan_time + total_exec_time)::float8 as total, sum(total_plan_time)::float8 as plan,
                  sum(calls)::text as calls
             from pg_stat_statements where ${scope}`,
        );
        const top = await client.query<{ query: string; calls: string; total: number; mean: number; plan: number }>(
          `select regexp_replace(query, '\\s+', ' ', 'g') as query, calls::text,
                  total_plan_time + total_exec_time as total,
                  (total_plan_time + total_exec_time) / greatest(calls, 1) as mean,
                  total_plan_time / greatest(calls, 1) as plan
             from pg_stat_statements where ${scope} order by total_plan_time + total_exec_time desc limit 8`,
        );
        statements = {
          totalMs: totals.rows[0]?.total ?? 0,
          planMs: totals.rows[0]?.plan ?? 0,
          calls: Number(totals.rows[0]?.calls ?? 0),
          top: top.rows.map((r) => ({
            query: r.query,
            calls: Number(r.calls),
            totalMs: r.total,
            meanMs: r.mean,
            meanPlanMs: r.plan,
          })),
        };
      }
    } catch (err) {
      statements = { unavailable: err instanceof Error ? err.message : String(err) };
    } finally {
      await client.end();
    }
    return {
      serverCpuMicros: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
      statements,
      ...report,
      pool,
    };
  };
}

/** Whether every part of the report could be measured. */
export function completeTimeReport(report: TimeReport): boolean {
  return (
    report.serverCpuMicros !== undefined &&
    !('unavailable' in report.statements) &&
    report.samples > 0 &&
    !('unavailable' in report.pool)
  );
}

/** The report as two table cells' text: the per-request breakdown and PostgreSQL's top statements. */
export function describeTimeReport(report: TimeReport, requests: number): { breakdown: string; top: string } {
  const per = (value: number) => value / Math.max(1, requests);
  const parts: string[] = [];
  if (report.serverCpuMicros !== undefined)
    parts.push(`app server CPU ${Math.round(per(report.serverCpuMicros)).toLocaleString('en-US')} µs/request`);
  if ('unavailable' in report.statements) parts.push(`PostgreSQL time not read (${report.statements.unavailable})`);
  else
    parts.push(
      `PostgreSQL ${per(report.statements.totalMs).toFixed(1)} ms/request, of it planning ` +
        `${per(report.statements.planMs).toFixed(1)} ms ` +
        `(${per(report.statements.calls).toFixed(1)} statements/request, pg_stat_statements)`,
    );
  if ('unavailable' in report.pool) parts.push(`pool waits not read (${report.pool.unavailable})`);
  else
    parts.push(
      `waiting for a pool connection ${per(report.pool.waitedMs).toFixed(2)} ms/request ` +
        `(${report.pool.checkouts.toLocaleString('en-US')} checkouts, ${Math.round(report.pool.waitedMs).toLocaleString('en-US')} ms in all, ` +
        `longest ${report.pool.longestWaitMs.toFixed(1)} ms)`,
    );
  if (report.samples > 0)
    parts.push(
      `waiting for the audit chain lock ~${per(report.advisoryWaitSum * SAMPLE_MS).toFixed(2)} ms/request ` +
        `(sampled: backends running a statement ${(report.activeSum / report.samples).toFixed(1)} on average, ` +
        `of them waiting on the lock ${(report.advisoryWaitSum / report.samples).toFixed(1)}; ` +
        `${report.samples} samples, every ${SAMPLE_MS} ms)`,
    );
  const statements = report.statements;
  const top =
    'unavailable' in statements
      ? 'not read'
      : statements.top
          .map((s, i) => {
            const share = statements.totalMs > 0 ? (100 * s.totalMs) / statements.totalMs : 0;
            const text = s.query.length > 110 ? `${s.query.slice(0, 110)}…` : s.query;
            // A table cell: no pipe may end it early, no backtick open code.
            const cell = text.replace(/\|/g, '\\|').replace(/`/g, "'");
            return (
              `${i + 1}. ${share.toFixed(0)}%, ${s.calls.toLocaleString('en-US')} calls, ` +
              `mean ${s.meanMs.toFixed(2)} ms (planning ${s.meanPlanMs.toFixed(2)}): ${cell}`
            );
          })
          .join('<br>');
  return { breakdown: parts.join('; '), top };
}
