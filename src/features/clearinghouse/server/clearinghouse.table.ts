import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '@/features/auth/server/auth.table';
import { oneOf } from '@/server/db/sql-helpers';
import {
  MAILBOX_AUTH_METHODS,
  MAILBOX_DIRECTIONS,
  MAILBOX_FILE_KINDS,
  MAILBOX_FILE_STATUSES,
  MAX_POLL_MINUTES,
  MIN_POLL_MINUTES,
} from '../clearinghouse.schema';

/**
 * The clearinghouse mailbox (docs/clearinghouse.md): one row. The password or private key is sealed with the
 * install's key (src/server/secret-box.ts, associated data 'clearinghouse-mailbox'): the database never holds it
 * in clear.
 */
export const clearinghouseMailbox = pgTable(
  'clearinghouse_mailbox',
  {
    id: integer('id').primaryKey().default(1),
    enabled: boolean('enabled').notNull().default(false),
    host: text('host').notNull().default(''),
    port: integer('port').notNull().default(22),
    username: text('username').notNull().default(''),
    auth: text('auth').notNull().default('password'),
    /** The password or private key (PEM), sealed; null until one is given. */
    secretSealed: text('secret_sealed'),
    /** The pinned host key (`SHA256:…`): the mailbox refuses any other server before it sends the secret. */
    hostKeySha256: text('host_key_sha256').notNull().default(''),
    outboundDir: text('outbound_dir').notNull().default('/outbound'),
    inboundDir: text('inbound_dir').notNull().default('/inbound'),
    pollMinutes: integer('poll_minutes').notNull().default(15),
    /** HH:MM in the practice's time zone. */
    eveningTime: text('evening_time').notNull().default('19:00'),
    maxFailures: integer('max_failures').notNull().default(5),
    /** When the mailbox was first enabled: files created before it are never sent, so enabling it sends no backlog. */
    sendFrom: timestamp('send_from', { withTimezone: true }),
    /** The last run that connected (scheduled or by hand): the poll interval counts from it. */
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
    lastError: text('last_error'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
    /** The admin who last saved the settings: the scheduled runs write their audit entries in that name. */
    updatedBy: integer('updated_by').references(() => users.id),
  },
  (t) => [
    check('clearinghouse_mailbox_one_row_check', sql`${t.id} = 1`),
    check('clearinghouse_mailbox_auth_check', oneOf(t.auth, MAILBOX_AUTH_METHODS)),
    check('clearinghouse_mailbox_port_check', sql`${t.port} between 1 and 65535`),
    check(
      'clearinghouse_mailbox_poll_check',
      sql`${t.pollMinutes} between ${sql.raw(String(MIN_POLL_MINUTES))} and ${sql.raw(String(MAX_POLL_MINUTES))}`,
    ),
    check('clearinghouse_mailbox_evening_check', sql`${t.eveningTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
    check(
      'clearinghouse_mailbox_failures_check',
      sql`${t.maxFailures} between 1 and 100 and ${t.consecutiveFailures} >= 0`,
    ),
  ],
);

/**
 * Every file the mailbox moved or refused (docs/clearinghouse.md). An outbound file is put once: one row per
 * (source_kind, source_id). An inbound file is posted once: one row per content hash, whatever its name and
 * however often it is listed; a file that could not be read (too large, an unsafe name) has no hash and is
 * logged once by its name.
 */
export const mailboxFiles = pgTable(
  'mailbox_files',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    direction: text('direction').notNull(),
    remoteName: text('remote_name').notNull(),
    kind: text('kind').notNull(),
    bytes: integer('bytes').notNull().default(0),
    sha256: text('sha256'),
    status: text('status').notNull(),
    /** Plain words for the log screen: what it posted, or why it was refused or failed. */
    detail: text('detail').notNull().default(''),
    /** Outbound: what the file was written from ('claim_batch', …) and its id. */
    sourceKind: text('source_kind'),
    sourceId: integer('source_id'),
    attempts: integer('attempts').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check('mailbox_files_direction_check', oneOf(t.direction, MAILBOX_DIRECTIONS)),
    check('mailbox_files_kind_check', oneOf(t.kind, MAILBOX_FILE_KINDS)),
    check('mailbox_files_status_check', oneOf(t.status, MAILBOX_FILE_STATUSES)),
    check(
      'mailbox_files_source_check',
      sql`(${t.direction} = 'out') = (${t.sourceKind} is not null and ${t.sourceId} is not null)`,
    ),
    check('mailbox_files_counts_check', sql`${t.bytes} >= 0 and ${t.attempts} >= 1`),
    uniqueIndex('mailbox_files_source_uq').on(t.sourceKind, t.sourceId),
    uniqueIndex('mailbox_files_inbound_sha256_uq')
      .on(t.sha256)
      .where(sql`${t.direction} = 'in' and ${t.sha256} is not null`),
    uniqueIndex('mailbox_files_inbound_unread_uq')
      .on(t.remoteName)
      .where(sql`${t.direction} = 'in' and ${t.sha256} is null`),
  ],
);
