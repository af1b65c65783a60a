/**
 * Statement triggers read their transition tables (old_rows, new_rows) in plans made for the rows at hand
 * (docs/database-functions.md). PL/pgSQL keeps a static statement's first plan for the life of a connection:
 * made while the transition tables held one row, a join of the two was a nested loop that, on a later write of
 * thousands of rows through the same connection, compared every old row with every new one. The plans are
 * read from auto_explain (nested statements, with their actual loop counts): once the connection has written
 * single rows, a write of many must scan no transition table more than once.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
});

/**
 * The plans auto_explain logs for every statement `write` runs (the triggers' own statements included), on a
 * connection of the owner (loading auto_explain takes a superuser) that first ran `warmUp`, all rolled back.
 */
async function triggerPlansOf(warmUp: string[], write: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: database.ownerUrl });
  await client.connect();
  const plans: string[] = [];
  try {
    await client.query('begin');
    for (const statement of warmUp) await client.query(statement);
    await client.query(`load 'auto_explain'`);
    await client.query(`set local auto_explain.log_min_duration = 0`);
    await client.query(`set local auto_explain.log_analyze = on`);
    await client.query(`set local auto_explain.log_timing = off`);
    await client.query(`set local auto_explain.log_nested_statements = on`);
    await client.query(`set local client_min_messages = log`);
    client.on('notice', (notice) => plans.push(notice.message ?? ''));
    await client.query(write);
  } finally {
    await client.query('rollback').catch(() => undefined);
    await client.end();
  }
  return plans;
}

/** The scans of a transition table that ran more than once (the inner side of a nested loop). */
function rescannedTransitionTables(plans: readonly string[]): string[] {
  return plans.flatMap((plan) =>
    plan
      .split('\n')
      // A scan never executed prints no loops at all.
      .filter((line) => /Named Tuplestore Scan/.test(line) && (/loops=(\d+)/.exec(line)?.[1] ?? '1') !== '1')
      .map((line) => line.trim()),
  );
}

describe('statement triggers on a connection that first wrote single rows', () => {
  it('update thousands of claims with each transition table scanned once', async () => {
    const plans = await triggerPlansOf(
      // Single-claim writes: a rollup column, a provider, a status (the classification and the moves).
      [1, 2, 3].map(
        (i) =>
          `update claims set billed_cents = billed_cents + 1, provider_id = (select max(id) from providers),
             payer = 'Cigna' where id = (select min(id) + ${i} from claims)`,
      ),
      // Every claim: a rollup column, the provider and the payer of some, the service date of some (visits).
      `update claims set billed_cents = billed_cents + 1,
         provider_id = case when id % 5 = 0 then (select min(id) from providers) else provider_id end,
         payer = case when id % 7 = 0 then 'Aetna' else payer end,
         service_date = case when id % 11 = 0 then service_date + 1 else service_date end`,
    );
    // The triggers' statements were logged: an empty list would pass the check below by seeing nothing.
    expect(plans.filter((p) => /Named Tuplestore Scan/.test(p)).length).toBeGreaterThan(2);
    expect(rescannedTransitionTables(plans)).toEqual([]);
  });

  it('update thousands of appointments and encounters likewise', async () => {
    const appointments = await triggerPlansOf(
      [1, 2, 3].map(
        (i) => `update appointments set date = date + 1000 where id = (select min(id) + ${i} from appointments)`,
      ),
      `update appointments set date = case when id % 3 = 0 then date + 2000 else date end,
         status = case when id % 4 = 0 and status = 'Scheduled' then 'Completed' else status end`,
    );
    const encounters = await triggerPlansOf(
      [1, 2, 3].map(
        (i) =>
          `update encounters set encounter_date = encounter_date - 1 where id = (select min(id) + ${i} from encounters)`,
      ),
      `update encounters set encounter_date = case when id % 3 = 0 then encounter_date - 1 else encounter_date end`,
    );
    for (const plans of [appointments, encounters]) {
      expect(plans.filter((p) => /Named Tuplestore Scan/.test(p)).length).toBeGreaterThan(0);
      expect(rescannedTransitionTables(plans)).toEqual([]);
    }
  });
});
