/**
 * The contract between `npm run bench` (bench/run.ts assembles the table) and each part of the benchmark.
 * Every part measures in the same run, on the same machine, and reports ratios against a reference it
 * measured itself (raw SQL, page 1, a bare hello-world route) — never a figure typed in.
 */
export interface BenchFigure {
  /** What is measured, e.g. 'KPI endpoint p50 (rollup)'. */
  figure: string;
  /** The goal as the issue states it, e.g. '≤ 25 ms and ≥ 10× raw'. */
  goal: string;
  /** What this run measured, e.g. '4.1 ms (38× raw 156 ms)'. */
  measured: string;
  pass: boolean;
}

export interface BenchContext {
  /** The running app server, e.g. 'http://localhost:5098'. */
  baseUrl: string;
  /** Its process id (to read the CPU time it spends). */
  serverPid: number;
  /** A PostgreSQL connection string to the database the server uses (embedded or DATABASE_URL). */
  databaseUrl: string;
  /** How many claims the database was seeded with (1,000,000 by default; 10,000 in `npm test`'s quick run). */
  claims: number;
  /** CI's small run (`npm test`): parts shorten their durations and sample counts so the harness is exercised, not measured. */
  quick?: boolean;
  /** Starts another app server on the same database with extra environment (e.g. APP_CACHE=off). */
  startServer(env: Record<string, string>): Promise<{ baseUrl: string; pid: number; stop: () => Promise<void> }>;
  /** Signs in through the real API (password + MFA step in demo mode) and returns headers for later calls. */
  signIn(
    role: 'admin' | 'billing_admin' | 'doctor' | 'nurse_manager' | 'patient',
  ): Promise<{ cookie: string; csrfToken: string }>;
}

export type BenchPart = (ctx: BenchContext) => Promise<BenchFigure[]>;
