/**
 * The clearinghouse mailbox's SQL (docs/clearinghouse.md): its one settings row, with the password or key sealed
 * (src/server/secret-box.ts), the log of files moved, and the failure count behind its one work item.
 */
import { sql, type SQL } from 'drizzle-orm';
import { actorOf, record } from '@/features/audit/server/audit.queries';
import { openWorkItems, resolveWorkItemsBySource } from '@/features/workqueue/server/workqueue.queries';
import type { AuthUser, RequestContext } from '@/server/context';
import type { DbOrTx, Tx } from '@/server/db/types';
import { HttpError, invalidField } from '@/server/plugins/errors';
import { rawRows, rowText, rowTextOrNull, type RawRow } from '@/server/db/sql-helpers';
import { openSecret, sealSecret } from '@/server/secret-box';
import { countOf } from '@/shared/plural';
import {
  mailboxFileSchema,
  mailboxFilesQuerySchema,
  mailboxSettingsSchema,
  type MailboxAuthMethod,
  type MailboxFile,
  type MailboxFileKind,
  type MailboxFilePage,
  type MailboxFilesQuery,
  type MailboxSettings,
  type MailboxSettingsInput,
} from '../clearinghouse.schema';

/** Binds a sealed secret to this use: a TOTP ciphertext pasted into the column does not decrypt. */
const SECRET_AAD = 'clearinghouse-mailbox';
/** The one open work item of a mailbox that keeps failing. */
const WORK_KEY = 'clearinghouse-mailbox';

const iso = (v: unknown): string | null =>
  v instanceof Date ? v.toISOString() : typeof v === 'string' ? new Date(v).toISOString() : null;

function dateOrNull(v: unknown): Date | null {
  const text = iso(v);
  return text === null ? null : new Date(text);
}

function settingsOf(row: RawRow | undefined): MailboxSettings {
  return mailboxSettingsSchema.parse({
    enabled: row?.enabled === true,
    host: rowText(row?.host),
    port: row ? Number(row.port) : 22,
    username: rowText(row?.username),
    auth: rowTextOrNull(row?.auth) ?? 'password',
    hasSecret: row ? row.secret_sealed !== null : false,
    hostKeySha256: rowText(row?.host_key_sha256),
    outboundDir: rowTextOrNull(row?.outbound_dir) ?? '/outbound',
    inboundDir: rowTextOrNull(row?.inbound_dir) ?? '/inbound',
    pollMinutes: row ? Number(row.poll_minutes) : 15,
    eveningTime: rowTextOrNull(row?.evening_time) ?? '19:00',
    maxFailures: row ? Number(row.max_failures) : 5,
    sendFrom: iso(row?.send_from),
    lastSuccessAt: iso(row?.last_success_at),
    lastFailureAt: iso(row?.last_failure_at),
    lastError: rowTextOrNull(row?.last_error),
    consecutiveFailures: row ? Number(row.consecutive_failures) : 0,
    updatedAt: iso(row?.updated_at),
  });
}

/** `GET /api/clearinghouse/mailbox`: the defaults until an admin saves the settings. Never the secret. */
export async function getMailboxSettings(db: DbOrTx): Promise<MailboxSettings> {
  const [row] = await rawRows(db, sql`select * from clearinghouse_mailbox where id = 1`);
  return settingsOf(row);
}

function requireKey(key: Buffer | undefined): Buffer {
  if (!key) throw new HttpError(503, 'NO_ENCRYPTION_KEY', 'The server has no encryption key for stored secrets.');
  return key;
}

/**
 * `PUT /api/clearinghouse/mailbox`: saves the settings in one transaction, audited without the secret. An empty
 * secret keeps the stored one; enabling the mailbox needs one, and so does changing the sign-in method. The first
 * enabling sets `send_from`, so files made before it are never sent.
 */
export async function saveMailboxSettings(
  db: DbOrTx,
  ctx: RequestContext,
  input: MailboxSettingsInput & { secret: string },
  key: Buffer | undefined,
): Promise<MailboxSettings> {
  return db.transaction(async (tx) => {
    const [current] = await rawRows(
      tx,
      sql`select auth, secret_sealed from clearinghouse_mailbox where id = 1 for update`,
    );
    const stored = rowTextOrNull(current?.secret_sealed);
    const authChanged = current !== undefined && rowText(current.auth) !== input.auth;
    let sealed = stored;
    if (input.secret !== '') {
      if (input.auth === 'key' && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(input.secret)) {
        throw invalidField('secret', 'must be a private key in PEM or OpenSSH format (-----BEGIN … PRIVATE KEY-----)');
      }
      sealed = sealSecret(requireKey(key), input.secret, SECRET_AAD);
    } else if (authChanged) {
      sealed = null;
    }
    if (input.enabled && sealed === null) {
      throw invalidField(
        'secret',
        authChanged
          ? `is required when the sign-in method changes to ${input.auth === 'key' ? 'a private key' : 'a password'}`
          : `is required to enable the mailbox: give the ${input.auth === 'key' ? 'private key' : 'password'}`,
      );
    }
    const now = ctx.now.toISOString();
    const [row] = await rawRows(
      tx,
      sql`insert into clearinghouse_mailbox as m (id, enabled, host, port, username, auth, secret_sealed, host_key_sha256,
            outbound_dir, inbound_dir, poll_minutes, evening_time, max_failures, send_from, updated_at, updated_by)
          values (1, ${input.enabled}, ${input.host}, ${input.port}, ${input.username}, ${input.auth}, ${sealed},
            ${input.hostKeySha256}, ${input.outboundDir}, ${input.inboundDir}, ${input.pollMinutes},
            ${input.eveningTime}, ${input.maxFailures},
            case when ${input.enabled} then ${now}::timestamptz end, ${now}::timestamptz, ${ctx.user.id}::int)
          on conflict (id) do update set enabled = excluded.enabled, host = excluded.host, port = excluded.port,
            username = excluded.username, auth = excluded.auth, secret_sealed = excluded.secret_sealed,
            host_key_sha256 = excluded.host_key_sha256, outbound_dir = excluded.outbound_dir,
            inbound_dir = excluded.inbound_dir, poll_minutes = excluded.poll_minutes,
            evening_time = excluded.evening_time, max_failures = excluded.max_failures,
            send_from = coalesce(m.send_from, excluded.send_from), updated_at = excluded.updated_at,
            updated_by = excluded.updated_by
          returning *`,
    );
    const secretNote = input.secret !== '' ? 'secret replaced' : sealed === null ? 'no secret stored' : 'secret kept';
    await record(tx, {
      ...actorOf(ctx),
      action: 'clearinghouse_mailbox.update',
      resource: 'clearinghouse_mailbox/1',
      detail:
        `${input.enabled ? 'enabled' : 'disabled'}; ${input.username}@${input.host}:${input.port} by ${input.auth}` +
        ` (${secretNote}), host key ${input.hostKeySha256}; out ${input.outboundDir}, in ${input.inboundDir};` +
        ` every ${input.pollMinutes} min, evening ${input.eveningTime}, work item after ${input.maxFailures} failures`,
    });
    return settingsOf(row);
  });
}

/** What a run needs: the settings with the secret opened, and the admin the run acts for. */
export interface StoredMailbox extends MailboxSettings {
  auth: MailboxAuthMethod;
  secret: string | null;
  /** Why the stored secret could not be opened (the install's key changed): a run cannot sign in until it is given again. */
  secretProblem: string | null;
  lastRunAt: Date | null;
  sendFromDate: Date | null;
  actor: AuthUser | null;
}

/** The mailbox as a run uses it; throws when the stored secret does not open with this key. */
export async function loadMailbox(db: DbOrTx, key: Buffer | undefined): Promise<StoredMailbox> {
  const [row] = await rawRows(
    db,
    sql`select m.*, u.id as actor_id, u.email as actor_email, u.name as actor_name, u.role as actor_role
        from clearinghouse_mailbox m left join users u on u.id = m.updated_by where m.id = 1`,
  );
  const settings = settingsOf(row);
  const sealed = rowTextOrNull(row?.secret_sealed);
  let secret: string | null = null;
  let secretProblem: string | null = null;
  if (sealed !== null) {
    try {
      secret = openSecret(requireKey(key), sealed, SECRET_AAD);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      secretProblem =
        "The stored password or key does not open with this server's encryption key (was MFA_ENCRYPTION_KEY changed?): enter it again in the settings.";
    }
  }
  return {
    ...settings,
    secret,
    secretProblem,
    lastRunAt: dateOrNull(row?.last_run_at),
    sendFromDate: dateOrNull(row?.send_from),
    actor:
      row?.actor_id === null || row?.actor_id === undefined
        ? null
        : {
            id: Number(row.actor_id),
            email: rowText(row.actor_email),
            name: rowText(row.actor_name),
            role: rowText(row.actor_role) as AuthUser['role'],
            patientId: null,
          },
  };
}

// ---------------------------------------------------------------------------------------------
// Connection successes and failures

/** A run connected: the failure count starts again, and the work item it opened (if any) is resolved. */
export async function noteMailboxSuccess(db: DbOrTx, ctx: RequestContext): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`update clearinghouse_mailbox set consecutive_failures = 0, last_success_at = ${ctx.now.toISOString()}::timestamptz,
            last_run_at = ${ctx.now.toISOString()}::timestamptz, last_error = null where id = 1`,
    );
    await resolveWorkItemsBySource(tx, ctx, 'mailbox', [WORK_KEY], 'fixed', 'the clearinghouse mailbox answers again');
  });
}

/**
 * A run could not connect (or lost the connection): counted, and once `max_failures` runs in a row have
 * failed, ONE work item is opened (no second while it is open). Returns the count.
 */
export async function noteMailboxFailure(db: DbOrTx, ctx: RequestContext, message: string): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await rawRows(
      tx,
      sql`update clearinghouse_mailbox set consecutive_failures = consecutive_failures + 1,
            last_failure_at = ${ctx.now.toISOString()}::timestamptz, last_run_at = ${ctx.now.toISOString()}::timestamptz,
            last_error = ${message.slice(0, 500)}
          where id = 1 returning consecutive_failures, max_failures, host`,
    );
    const failures = Number(row?.consecutive_failures ?? 0);
    if (row && failures >= Number(row.max_failures)) {
      await openWorkItems(tx, ctx, [
        {
          source: 'mailbox',
          sourceKey: WORK_KEY,
          claimId: null,
          patientId: null,
          accountNumber: 'Mailbox',
          payer: 'Clearinghouse',
          category: 'other',
          reason: `The clearinghouse mailbox failed ${countOf(failures, 'time')} in a row: ${message}`.slice(0, 500),
          dollarsAtRiskCents: 0,
          serviceDate: null,
        },
      ]);
    }
    return failures;
  });
}

// ---------------------------------------------------------------------------------------------
// The file log

/** The row of an outbound file, made on its first attempt; its status says whether it was sent. */
export async function beginOutboundFile(
  db: DbOrTx,
  ctx: RequestContext,
  file: {
    sourceKind: string;
    sourceId: number;
    remoteName: string;
    kind: MailboxFileKind;
    bytes: number;
    sha256: string;
  },
): Promise<{ id: number; status: string }> {
  const now = ctx.now.toISOString();
  await db.execute(
    sql`insert into mailbox_files (direction, remote_name, kind, bytes, sha256, status, detail, source_kind, source_id,
          attempts, created_at, updated_at)
        values ('out', ${file.remoteName}, ${file.kind}, ${file.bytes}, ${file.sha256}, 'failed', 'not sent yet',
          ${file.sourceKind}, ${file.sourceId}, 1, ${now}::timestamptz, ${now}::timestamptz)
        on conflict (source_kind, source_id) do update set attempts = mailbox_files.attempts + 1,
          updated_at = excluded.updated_at
        where mailbox_files.status <> 'sent'`,
  );
  const [row] = await rawRows(
    db,
    sql`select id, status from mailbox_files where source_kind = ${file.sourceKind} and source_id = ${file.sourceId}`,
  );
  return { id: Number(row?.id), status: rowText(row?.status) };
}

/** The put succeeded: the row says sent and the source is marked mailed, in one transaction. */
export async function finishOutboundFile(
  db: DbOrTx,
  ctx: RequestContext,
  id: number,
  detail: string,
  markMailed: (tx: Tx) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await rawRows(
      tx,
      sql`update mailbox_files set status = 'sent', detail = ${detail}, updated_at = ${ctx.now.toISOString()}::timestamptz
          where id = ${id} returning kind, remote_name`,
    );
    await markMailed(tx);
    // The file holds PHI leaving the practice, as a download does: the audit trail records each one sent.
    await record(tx, {
      ...actorOf(ctx),
      action: 'clearinghouse_file.send',
      resource: `mailbox_file/${id}`,
      detail: `${rowText(row?.kind)} ${rowText(row?.remote_name)} put in the clearinghouse mailbox: ${detail}`,
    });
  });
}

/** A row's attempt failed (retried on the next run) or was refused (never retried). */
export async function failMailboxFile(
  db: DbOrTx,
  ctx: RequestContext,
  id: number,
  status: 'failed' | 'refused',
  detail: string,
): Promise<void> {
  await db.execute(
    sql`update mailbox_files set status = ${status}, detail = ${detail.slice(0, 1000)},
          updated_at = ${ctx.now.toISOString()}::timestamptz where id = ${id}`,
  );
}

/** The status of an inbound file seen before (by its hash), or null. */
export async function inboundStatusBySha(db: DbOrTx, sha256: string): Promise<string | null> {
  const [row] = await rawRows(db, sql`select status from mailbox_files where direction = 'in' and sha256 = ${sha256}`);
  return rowTextOrNull(row?.status);
}

/**
 * Logs an inbound file refused without reading it, once: by its hash when it was read, else by its (escaped)
 * name. Returns false when it was logged before.
 */
export async function logInboundRefusal(
  db: DbOrTx,
  ctx: RequestContext,
  file: { remoteName: string; bytes: number; sha256: string | null; status: 'refused' | 'skipped'; detail: string },
): Promise<boolean> {
  const now = ctx.now.toISOString();
  const rows = await rawRows(
    db,
    sql`insert into mailbox_files (direction, remote_name, kind, bytes, sha256, status, detail, attempts, created_at,
          updated_at)
        values ('in', ${file.remoteName}, 'unknown', ${file.bytes}, ${file.sha256}, ${file.status},
          ${file.detail.slice(0, 1000)}, 1, ${now}::timestamptz, ${now}::timestamptz)
        on conflict do nothing returning id`,
  );
  return rows.length > 0;
}

export type InboundReader = (
  db: DbOrTx,
  ctx: RequestContext,
  text: string,
  fileName: string,
) => Promise<{ summary: string }>;

export type InboundOutcome =
  | { status: 'posted'; detail: string }
  | { status: 'refused'; detail: string }
  | { status: 'failed'; detail: string }
  | { status: 'seen'; detail: string };

/**
 * Posts an inbound file exactly once. Its row (unique by content hash) and what the reader writes commit in one
 * transaction: a crash between them leaves neither, and the file is read again on the next run; a file posted
 * before, under any name, is not given to the reader again. The reader runs in a savepoint: its HttpError
 * becomes a 'refused' row with its message, any other error a 'failed' row that the next run retries.
 */
export async function postInboundFile(
  db: DbOrTx,
  ctx: RequestContext,
  file: { remoteName: string; kind: MailboxFileKind; bytes: number; sha256: string; text: string },
  reader: InboundReader,
): Promise<InboundOutcome> {
  const now = ctx.now.toISOString();
  return db.transaction(async (tx) => {
    // A second run meeting the same file waits here on the unique index until the first commits.
    const inserted = await rawRows(
      tx,
      sql`insert into mailbox_files (direction, remote_name, kind, bytes, sha256, status, detail, attempts, created_at,
            updated_at)
          values ('in', ${file.remoteName}, ${file.kind}, ${file.bytes}, ${file.sha256}, 'failed', 'being read', 1,
            ${now}::timestamptz, ${now}::timestamptz)
          on conflict do nothing returning id`,
    );
    const [row] = await rawRows(
      tx,
      sql`select id, status, remote_name from mailbox_files
          where direction = 'in' and sha256 = ${file.sha256} for update`,
    );
    if (!row) throw new Error('the mailbox file row vanished');
    const id = Number(row.id);
    const status = rowText(row.status);
    const firstAttempt = inserted.length > 0;
    if (status !== 'failed') {
      return { status: 'seen', detail: `already ${status} as ${rowText(row.remote_name)} (log entry ${id})` };
    }
    const set = (s: 'posted' | 'refused' | 'failed', detail: string): SQL =>
      sql`update mailbox_files set status = ${s}, detail = ${detail.slice(0, 1000)}, kind = ${file.kind},
            attempts = attempts + ${firstAttempt ? 0 : 1}, updated_at = ${now}::timestamptz where id = ${id}`;
    try {
      const result = await tx.transaction((sp) => reader(sp, ctx, file.text, file.remoteName));
      await tx.execute(set('posted', result.summary || 'posted'));
      return { status: 'posted', detail: result.summary };
    } catch (error) {
      if (error instanceof HttpError) {
        await tx.execute(set('refused', error.message));
        return { status: 'refused', detail: error.message };
      }
      const message = error instanceof Error ? error.message : String(error);
      await tx.execute(set('failed', `could not post: ${message}; tried again on the next run`));
      return { status: 'failed', detail: message };
    }
  });
}

// ---------------------------------------------------------------------------------------------
// The log screen

function fileOf(row: RawRow): MailboxFile {
  return mailboxFileSchema.parse({
    id: Number(row.id),
    direction: row.direction,
    remoteName: rowText(row.remote_name),
    kind: row.kind,
    bytes: Number(row.bytes),
    sha256: rowTextOrNull(row.sha256),
    status: row.status,
    detail: rowText(row.detail),
    sourceKind: rowTextOrNull(row.source_kind),
    sourceId: row.source_id === null ? null : Number(row.source_id),
    attempts: Number(row.attempts),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  });
}

/** `GET /api/clearinghouse/files`: newest first, keyset-paged by id, filtered by direction and status. */
export async function listMailboxFiles(db: DbOrTx, query: MailboxFilesQuery): Promise<MailboxFilePage> {
  const q = mailboxFilesQuerySchema.parse(query);
  const where: SQL[] = [sql`true`];
  if (q.direction) where.push(sql`direction = ${q.direction}`);
  if (q.status) where.push(sql`status = ${q.status}`);
  const filter = sql.join(where, sql` and `);
  const page = q.cursor === undefined ? filter : sql`${filter} and id < ${Number(q.cursor)}`;
  const rows = await rawRows(db, sql`select * from mailbox_files where ${page} order by id desc limit ${q.limit + 1}`);
  const [count] = await rawRows(db, sql`select count(*)::int as n from mailbox_files where ${filter}`);
  const items = rows.slice(0, q.limit).map(fileOf);
  const last = items[items.length - 1];
  return {
    items,
    nextCursor: rows.length > q.limit && last ? String(last.id) : null,
    total: Number(count?.n ?? 0),
  };
}
