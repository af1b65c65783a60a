import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { poolWaitsOfDatabase, timePoolWaits } from './pool-waits';

describe('pool waits', () => {
  it('are known only for a pool whose checkouts are timed (the route answers 503 otherwise)', async () => {
    // Never connected: a pool that is ended refuses at once, which is a checkout that failed, not a wait.
    const untimed = new pg.Pool({ connectionString: 'postgres://unused@127.0.0.1:1/unused' });
    expect(poolWaitsOfDatabase(drizzle(untimed))).toBeNull();
    const timed = new pg.Pool({ connectionString: 'postgres://unused@127.0.0.1:1/unused' });
    timePoolWaits(timed);
    await timed.end();
    await expect(timed.connect()).rejects.toThrow(/after calling end/);
    expect(poolWaitsOfDatabase(drizzle(timed))).toMatchObject({ checkouts: 0, waitedMs: 0, open: 0 });
    await untimed.end();
  });
});
