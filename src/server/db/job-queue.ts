/**
 * The job queue's schema (docs/adr/0010-job-queue.md): pg-boss installs or migrates its `pgboss` schema when an
 * instance starts as the owner, who then creates every declared queue (each is a partition: DDL) and grants the
 * app role what its own instance, started with `migrate: false`, needs: DML on the tables, execute on the
 * functions, nothing that changes the schema.
 */
import PgBoss from 'pg-boss';
import { MAILBOX_QUEUES } from '@/features/clearinghouse/server/clearinghouse.queues';

export const JOB_SCHEMA = 'pgboss';
/** pg-boss's own queue, which its scheduler sends each cron tick's job through. */
const SCHEDULER_QUEUE = '__pgboss__send-it';

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Every queue the code uses. */
export const JOB_QUEUES: readonly PgBoss.Queue[] = [...MAILBOX_QUEUES];

export async function installJobQueue(ownerUrl: string, appRole: string | null): Promise<void> {
  const boss = new PgBoss({
    connectionString: ownerUrl,
    schema: JOB_SCHEMA,
    max: 1,
    migrate: true,
    supervise: false,
    schedule: false,
    application_name: 'clinic-migrate-jobs',
  });
  boss.on('error', () => undefined);
  await boss.start();
  try {
    await boss.createQueue(SCHEDULER_QUEUE);
    for (const queue of JOB_QUEUES) {
      await boss.createQueue(queue.name, queue);
      // createQueue keeps an existing queue as it was: bring its retry and expiry to what the code declares.
      await boss.updateQueue(queue.name, queue);
    }
    if (appRole !== null) {
      const db = boss.getDb();
      const r = quoteIdent(appRole);
      const s = quoteIdent(JOB_SCHEMA);
      await db.executeSql(`grant usage on schema ${s} to ${r}`, []);
      await db.executeSql(`grant select, insert, update, delete on all tables in schema ${s} to ${r}`, []);
      await db.executeSql(`grant usage, select on all sequences in schema ${s} to ${r}`, []);
      await db.executeSql(`grant execute on all functions in schema ${s} to ${r}`, []);
    }
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}
