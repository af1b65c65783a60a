/**
 * The mailbox's pg-boss queues (docs/adr/0010-job-queue.md). Declared here, apart from the workers, so that
 * the migration (src/server/db/client.ts prepareDatabase) creates them as the owner without loading the SFTP
 * client: the app role may not create a queue's partition, so a queue not declared here cannot be used.
 */
import type PgBoss from 'pg-boss';

/** Send then fetch; scheduled every few minutes, run when the poll interval is due. */
export const SYNC_QUEUE = 'clearinghouse-sync';
/** The evening tasks (the next working day's eligibility batch, claim status requests), then a sync. */
export const EVENING_QUEUE = 'clearinghouse-evening';

/**
 * singleton: one active job per queue, so a slow run is never overlapped by the next, whichever server takes it.
 * Retries back off from 60 s (pg-boss doubles the delay, with jitter); a job whose server died expires after
 * 30 minutes, far above a transfer of a few MB, and is retried.
 */
export const MAILBOX_QUEUES: readonly PgBoss.Queue[] = [
  { name: SYNC_QUEUE, policy: 'singleton', retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 1800 },
  {
    name: EVENING_QUEUE,
    policy: 'singleton',
    retryLimit: 5,
    retryDelay: 120,
    retryBackoff: true,
    expireInSeconds: 1800,
  },
];
