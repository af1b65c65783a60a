import pg from 'pg';
import type { Db } from './types';

/** How the callers of one pool waited for its connections since it was made (docs/performance.md). */
export interface PoolWaits {
  /** Connections handed out: every query outside a transaction, and every transaction, takes one. */
  checkouts: number;
  /** Time from asking for a connection to getting one, summed over the checkouts. */
  waitedMs: number;
  longestWaitMs: number;
}

const waitsByPool = new WeakMap<pg.Pool, PoolWaits>();

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: () => void) => void;

/**
 * Times every checkout of the pool's connections. pg-pool's own query() checks out through connect() too, so
 * wrapping it covers the one-statement queries and the transactions alike. Costs two clock reads a checkout.
 */
export function timePoolWaits(pool: pg.Pool): void {
  const waits: PoolWaits = { checkouts: 0, waitedMs: 0, longestWaitMs: 0 };
  waitsByPool.set(pool, waits);
  const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => Promise<pg.PoolClient> | undefined;
  const noteWait = (started: number) => {
    const ms = performance.now() - started;
    waits.checkouts += 1;
    waits.waitedMs += ms;
    if (ms > waits.longestWaitMs) waits.longestWaitMs = ms;
  };
  const timed = (callback?: ConnectCallback) => {
    const started = performance.now();
    if (callback) {
      return connect((err, client, done) => {
        noteWait(started);
        callback(err, client, done);
      });
    }
    return connect()?.then((client) => {
      noteWait(started);
      return client;
    });
  };
  pool.connect = timed as typeof pool.connect;
}

/** The pool's connections now and its waits so far; null for a pool timePoolWaits did not wrap. */
export function poolWaitsOf(pool: pg.Pool): (PoolWaits & { open: number; idle: number; waitingNow: number }) | null {
  const waits = waitsByPool.get(pool);
  if (!waits) return null;
  return { ...waits, open: pool.totalCount, idle: pool.idleCount, waitingNow: pool.waitingCount };
}

/** poolWaitsOf for the pool behind a Drizzle handle (drizzle(pool) keeps it as $client). */
export function poolWaitsOfDatabase(db: Db): ReturnType<typeof poolWaitsOf> {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? poolWaitsOf(client) : null;
}
