/**
 * The mailbox's scheduled jobs on pg-boss (docs/adr/0010-job-queue.md, docs/clearinghouse.md). The job functions
 * (runSyncJob, runEveningJob) take everything they need and are called directly by tests and by the run-now
 * route; startMailboxJobs only wires them to pg-boss, from src/server/main.ts, so test apps start no worker.
 */
import PgBoss from 'pg-boss';
import { checkNextWorkingDay } from '@/features/appointments/server/appointments.eligibility.queries';
import { requestClaimStatus } from '@/features/submission/server/submission.claim-status.queries';
import { countOf } from '@/shared/plural';
import type { RequestContext } from '@/server/context';
import type { Db, DbOrTx } from '@/server/db/types';
import { currentPracticeTimeZone } from '@/shared/practice-zone';
import type { MailboxRunResult } from '../clearinghouse.schema';
import { runMailbox, type RunOptions } from './clearinghouse.mailbox';
import { loadMailbox, type StoredMailbox } from './clearinghouse.queries';
import { EVENING_QUEUE, SYNC_QUEUE } from './clearinghouse.queues';
import { JOB_SCHEMA } from '@/server/db/job-queue';

/**
 * Work done in the evening before the sync sends it: the next working day's eligibility inquiries and the claim
 * status requests due. Each answers one line for the log, and each is safe to run twice (a retry finds the
 * work done: a policy checked for the day, a claim asked about within its payer's interval, is skipped).
 */
export interface EveningTask {
  name: string;
  run(db: DbOrTx, ctx: RequestContext): Promise<string>;
}
export const EVENING_TASKS: readonly EveningTask[] = [
  {
    name: 'eligibility of the next working day',
    run: async (db, ctx) => {
      const checked = await checkNextWorkingDay(db, ctx);
      return checked.inquiryId === null
        ? `nothing to ask for ${checked.serviceDate} (${countOf(checked.appointments, 'appointment')})`
        : `${countOf(checked.coverages, 'policy', 'policies')} asked about for ${checked.serviceDate} (${countOf(checked.appointments, 'appointment')})`;
    },
  },
  {
    name: 'claim status requests',
    run: async (db, ctx) => {
      const asked = await requestClaimStatus(db, ctx);
      return asked.claims === 0
        ? 'no claim is due for a status request'
        : `${countOf(asked.claims, 'claim')} asked about in ${countOf(asked.requestIds.length, '276 file')}`;
    },
  },
];

/** The schedule checks this often; the poll interval (5 minutes or more) decides whether a tick runs. */
const SYNC_CRON = '*/5 * * * *';
/** A tick a few seconds early still counts as due. */
const SLACK_MS = 30_000;

export interface JobDeps {
  db: Db;
  clock: () => Date;
  key: Buffer | undefined;
}

/** The context a scheduled run acts in: the admin who saved the settings (audit entries name them), now. */
function jobContext(mailbox: StoredMailbox, now: Date): RequestContext | null {
  return mailbox.actor === null ? null : { user: mailbox.actor, now };
}

/** Whether the poll interval has passed since the last run that connected (a failing mailbox is tried each tick). */
export function syncDue(mailbox: StoredMailbox, now: Date): boolean {
  if (mailbox.lastSuccessAt === null) return true;
  const last = Date.parse(mailbox.lastSuccessAt);
  if (mailbox.lastFailureAt !== null && Date.parse(mailbox.lastFailureAt) > last) return true;
  return now.getTime() - last >= mailbox.pollMinutes * 60_000 - SLACK_MS;
}

/** 'clearinghouse-sync': send then fetch, when due (or always with `force`). Null when nothing ran. */
export async function runSyncJob(
  deps: JobDeps,
  options: Omit<RunOptions, 'key'> & { force?: boolean } = {},
): Promise<MailboxRunResult | null> {
  const now = deps.clock();
  const mailbox = await loadMailbox(deps.db, deps.key);
  if (!mailbox.enabled) return null;
  if (!options.force && !syncDue(mailbox, now)) return null;
  const ctx = jobContext(mailbox, now);
  if (ctx === null) return null;
  return runMailbox(deps.db, ctx, mailbox, { ...options, key: deps.key });
}

/** 'clearinghouse-evening': the evening tasks, each on its own, then a sync whatever the poll interval. */
export async function runEveningJob(
  deps: JobDeps,
  options: Omit<RunOptions, 'key'> & { tasks?: readonly EveningTask[] } = {},
): Promise<{ tasks: string[]; sync: MailboxRunResult | null }> {
  const mailbox = await loadMailbox(deps.db, deps.key);
  const ctx = jobContext(mailbox, deps.clock());
  if (!mailbox.enabled || ctx === null) return { tasks: [], sync: null };
  const tasks: string[] = [];
  for (const task of options.tasks ?? EVENING_TASKS) {
    try {
      tasks.push(`${task.name}: ${await task.run(deps.db, ctx)}`);
    } catch (error) {
      // One task's failure leaves the others and the send to run; the job still fails afterwards, to be retried.
      tasks.push(`${task.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const sync = await runSyncJob(deps, { ...options, force: true });
  return { tasks, sync };
}

/** The cron of the evening run: HH:MM every day, in the practice's zone (pg-boss keeps it across DST changes). */
export function eveningCron(eveningTime: string): string {
  const [hours = '19', minutes = '0'] = eveningTime.split(':');
  return `${Number(minutes)} ${Number(hours)} * * *`;
}

export interface MailboxJobs {
  boss: PgBoss;
  stop(): Promise<void>;
}

/**
 * Starts this server's worker and schedules (as the app role: `migrate: false`, the owner made the schema and
 * queues). A failed run throws so that pg-boss retries it with backoff. Each sync tick also brings the evening
 * schedule in line with the settings, which an admin may have changed on any server.
 */
export async function startMailboxJobs(
  deps: JobDeps & { connectionString: string; log: { info(m: string): void; warn(m: string): void } },
): Promise<MailboxJobs> {
  const boss = new PgBoss({
    connectionString: deps.connectionString,
    schema: JOB_SCHEMA,
    max: 2,
    migrate: false,
    supervise: true,
    schedule: true,
    application_name: 'clinic-jobs',
  });
  boss.on('error', (error) => deps.log.warn(`job queue: ${error.message}`));
  await boss.start();
  let eveningSchedule = '';
  const keepEveningSchedule = async () => {
    const mailbox = await loadMailbox(deps.db, deps.key);
    const wanted = `${eveningCron(mailbox.eveningTime)} ${currentPracticeTimeZone()}`;
    if (wanted === eveningSchedule) return;
    await boss.schedule(EVENING_QUEUE, eveningCron(mailbox.eveningTime), {}, { tz: currentPracticeTimeZone() });
    eveningSchedule = wanted;
  };
  const failed = (result: MailboxRunResult | null) => {
    if (result && !result.ok) throw new Error(result.message);
  };
  await boss.schedule(SYNC_QUEUE, SYNC_CRON, {});
  await keepEveningSchedule();
  await boss.work(SYNC_QUEUE, async () => {
    await keepEveningSchedule();
    const result = await runSyncJob(deps);
    if (result) deps.log.info(`clearinghouse mailbox: ${result.message}`);
    failed(result);
  });
  await boss.work(EVENING_QUEUE, async () => {
    const { tasks, sync } = await runEveningJob(deps);
    for (const line of tasks) deps.log.info(`clearinghouse evening: ${line}`);
    if (sync) deps.log.info(`clearinghouse mailbox: ${sync.message}`);
    failed(sync);
    if (tasks.some((line) => line.includes(' failed: '))) throw new Error(tasks.join('; '));
  });
  return {
    boss,
    // Waits for a run in progress (up to 30 s), so a put or a posting is not cut off by the shutdown.
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 30_000 }),
  };
}
