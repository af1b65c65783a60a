import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';
import { JOB_SCHEMA } from '@/server/db/job-queue';
import { currentPracticeTimeZone } from '@/shared/practice-zone';
import { eveningCron, startMailboxJobs, type MailboxJobs } from './clearinghouse.jobs';
import { EVENING_QUEUE, SYNC_QUEUE } from './clearinghouse.queues';

let database: TestDatabase;
let boss: PgBoss | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await boss?.stop({ graceful: false, wait: true });
  await database?.drop();
});

describe('the job queue (pg-boss)', () => {
  it('is installed by the migration with its queues, and works a job sent by the app role once', async () => {
    const { rows } = await database.ownerPool.query<{ name: string; policy: string; retry_limit: number }>(
      `select name, policy, retry_limit from ${JOB_SCHEMA}.queue order by name`,
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { name: SYNC_QUEUE, policy: 'singleton', retry_limit: 3 },
        { name: EVENING_QUEUE, policy: 'singleton', retry_limit: 5 },
        expect.objectContaining({ name: '__pgboss__send-it' }),
      ]),
    );

    // As the app server runs it: the app role, migrate off, no maintenance or scheduling in a test.
    boss = new PgBoss({
      connectionString: database.url,
      schema: JOB_SCHEMA,
      migrate: false,
      supervise: false,
      schedule: false,
      pollingIntervalSeconds: 0.5,
      max: 2,
    });
    boss.on('error', () => undefined);
    await boss.start();
    const worked: unknown[] = [];
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (done = resolve));
    await boss.work<{ n: number }>(SYNC_QUEUE, async ([job]) => {
      worked.push(job?.data);
      done();
    });
    const id = await boss.send(SYNC_QUEUE, { n: 1 });
    expect(id).toEqual(expect.any(String));
    await finished;
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(worked).toEqual([{ n: 1 }]);
    const job = await boss.getJobById(SYNC_QUEUE, id!);
    expect(job?.state).toBe('completed');

    // A queue the migration did not declare cannot be made at run time: its partition is DDL the app may not run.
    await expect(boss.createQueue('not-declared')).rejects.toThrow(/permission denied/);
  });

  it("starts this server's worker as the app role: both schedules in place, a sync tick worked, a clean stop", async () => {
    const logged: string[] = [];
    const jobs: MailboxJobs = await startMailboxJobs({
      db: database.db,
      clock: () => new Date(),
      key: undefined,
      connectionString: database.url,
      log: { info: (m) => logged.push(m), warn: (m) => logged.push(`warn: ${m}`) },
    });
    try {
      const schedules = await jobs.boss.getSchedules();
      expect(schedules.map((s) => ({ name: s.name, cron: s.cron, tz: s.options?.tz ?? null }))).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: SYNC_QUEUE, cron: '*/5 * * * *' }),
          { name: EVENING_QUEUE, cron: '0 19 * * *', tz: currentPracticeTimeZone() },
        ]),
      );
      // A tick as the schedule sends it: the mailbox is not enabled in the seed, so the run does nothing, and the
      // job completes rather than failing into its retries.
      const id = await jobs.boss.send(SYNC_QUEUE, {});
      let state: string | undefined;
      for (let i = 0; i < 60 && state !== 'completed' && state !== 'failed'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        state = (await jobs.boss.getJobById(SYNC_QUEUE, id!))?.state;
      }
      expect(state).toBe('completed');
      expect(logged.filter((m) => m.startsWith('warn:'))).toEqual([]);
    } finally {
      await jobs.stop();
    }
  });

  it('schedules the evening run at HH:MM', () => {
    expect(eveningCron('19:05')).toBe('5 19 * * *');
    expect(eveningCron('00:00')).toBe('0 0 * * *');
  });
});
