import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';
import { listenForChanges, type ChangeFeed } from './change-feed';

let database: TestDatabase;
let feed: ChangeFeed;
const quiet = { info: () => {}, warn: () => {} };

/** Waits (up to 5 s) until `test` holds: notifications arrive asynchronously after the commit. */
async function eventually(test: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const generations = () => ({ answers: feed.answersGeneration(), sessions: feed.sessionsGeneration() });

beforeAll(async () => {
  database = await createTestDatabase();
  feed = await listenForChanges(database.url, quiet);
});

afterAll(async () => {
  await feed.close();
  await database.drop();
});

describe('the change feed', () => {
  it('every table of the schema notifies its changes (a table added without the trigger fails here)', async () => {
    const { rows } = await database.pool.query<{ tablename: string }>(
      `select tablename from pg_tables t where schemaname = 'public' and not exists (
         select 1 from pg_trigger g join pg_class c on c.oid = g.tgrelid
         where c.relname = t.tablename and g.tgname = t.tablename || '_notify_change' and g.tgenabled <> 'D')`,
    );
    expect(rows.map((r) => r.tablename)).toEqual([]);
  });

  it('a committed change to a data table ends cached answers but not cached sessions', async () => {
    const before = generations();
    await database.pool.query(`update practice_settings set buffer_minutes = buffer_minutes`);
    await eventually(() => (feed.answersGeneration() ?? 0) > (before.answers ?? 0));
    expect(feed.sessionsGeneration()).toBe(before.sessions);
  });

  it('a change to users ends cached sessions and answers; a change to sessions ends only sessions', async () => {
    const before = generations();
    await database.pool.query(`update users set name = name where id = (select min(id) from users)`);
    await eventually(() => (feed.sessionsGeneration() ?? 0) > (before.sessions ?? 0));
    await eventually(() => (feed.answersGeneration() ?? 0) > (before.answers ?? 0));

    const middle = generations();
    await database.pool.query(`delete from sessions where false`);
    await eventually(() => (feed.sessionsGeneration() ?? 0) > (middle.sessions ?? 0));
    expect(feed.answersGeneration()).toBe(middle.answers);
  });

  it('a renewed idle timer or a new session ends no cached session; any other change to a session does', async () => {
    const [user] = (await database.pool.query<{ id: number }>(`select min(id) as id from users`)).rows;
    const before = generations();
    await database.pool.query(
      `insert into sessions (id_hash, user_id, csrf_token, created_at, last_seen_at, expires_at)
       values ('change-feed-test', $1, 'token', now(), now(), now() + interval '1 hour')`,
      [user!.id],
    );
    await database.pool.query(`update sessions set last_seen_at = now() where id_hash = 'change-feed-test'`);
    // A committed change after them: once it is heard, theirs would have been heard first.
    await database.pool.query(`update practice_settings set buffer_minutes = buffer_minutes`);
    await eventually(() => (feed.answersGeneration() ?? 0) > (before.answers ?? 0));
    expect(feed.sessionsGeneration()).toBe(before.sessions);

    const middle = generations();
    await database.pool.query(`update sessions set expires_at = now() where id_hash = 'change-feed-test'`);
    await eventually(() => (feed.sessionsGeneration() ?? 0) > (middle.sessions ?? 0));
    const last = generations();
    await database.pool.query(`delete from sessions where id_hash = 'change-feed-test'`);
    await eventually(() => (feed.sessionsGeneration() ?? 0) > (last.sessions ?? 0));
  });

  it('a rolled-back change is never heard of', async () => {
    const client = await database.pool.connect();
    try {
      const before = generations();
      await client.query('begin');
      await client.query(`update users set name = name where id = (select min(id) from users)`);
      await client.query('rollback');
      // A committed change after it: once it is heard, the rolled-back one would have been heard first.
      await client.query(`update practice_settings set buffer_minutes = buffer_minutes`);
      await eventually(() => (feed.answersGeneration() ?? 0) > (before.answers ?? 0));
      expect(feed.sessionsGeneration()).toBe(before.sessions);
    } finally {
      client.release();
    }
  });

  it('a lost connection turns caching off at once, and reconnecting starts new generations', async () => {
    const before = generations();
    await database.pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and query ilike 'LISTEN%' and pid <> pg_backend_pid()`,
    );
    await eventually(() => feed.answersGeneration() === null);
    expect(feed.sessionsGeneration()).toBeNull();
    await eventually(() => feed.answersGeneration() !== null);
    expect(feed.answersGeneration()).toBeGreaterThan(before.answers ?? 0);
    expect(feed.sessionsGeneration()).toBeGreaterThan(before.sessions ?? 0);
  });

  it('invalidateAll (a write through this server) ends both at once, without waiting for the database', () => {
    const before = generations();
    feed.invalidateAll();
    expect(feed.answersGeneration()).toBe((before.answers ?? 0) + 1);
    expect(feed.sessionsGeneration()).toBe((before.sessions ?? 0) + 1);
  });

  it('invalidateAnswers (a write of clinic data through this server) ends cached answers alone', () => {
    const before = generations();
    feed.invalidateAnswers();
    expect(feed.answersGeneration()).toBe((before.answers ?? 0) + 1);
    expect(feed.sessionsGeneration()).toBe(before.sessions);
  });
});
