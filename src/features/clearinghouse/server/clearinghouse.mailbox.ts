/**
 * What one mailbox run moves (docs/clearinghouse.md): our pending files out, then the clearinghouse's files in,
 * each read once and posted by the feature that owns its kind. The readers and the sources are typed
 * registries, so a kind is wired by adding one entry.
 */
import { createHash } from 'node:crypto';
import {
  markEligibilityInquiryMailed,
  pendingEligibilityInquiries,
  post271,
} from '@/features/coverage/server/coverage.eligibility.queries';
import { importRemittances } from '@/features/remittances/server/remittances.queries';
import { applyAcknowledgement } from '@/features/submission/server/submission.acks.queries';
import { markClaimBatchMailed, pendingClaimBatches } from '@/features/submission/server/submission.batches.queries';
import {
  markClaimStatusRequestMailed,
  pendingClaimStatusRequests,
  post277,
} from '@/features/submission/server/submission.claim-status.queries';
import { countOf } from '@/shared/plural';
import type { RequestContext } from '@/server/context';
import type { DbOrTx, Tx } from '@/server/db/types';
import { HttpError } from '@/server/plugins/errors';
import type { InboundKind, MailboxRunResult, OutboundKind } from '../clearinghouse.schema';
import { detectInboundKind } from './clearinghouse.kinds';
import {
  beginOutboundFile,
  failMailboxFile,
  finishOutboundFile,
  inboundStatusBySha,
  logInboundRefusal,
  noteMailboxFailure,
  noteMailboxSuccess,
  postInboundFile,
  type InboundReader,
  type StoredMailbox,
} from './clearinghouse.queries';
import { connectMailbox, DEFAULT_MAX_BYTES, displayName, MailboxError, type Mailbox } from './clearinghouse.sftp';

/**
 * kind → the reader that posts it, in the owning feature's transaction (given as `db`). Each reader refuses a
 * file it posted before, by its hash or its control numbers, and the mailbox's unique hash index stops a second
 * posting even so.
 */
export const INBOUND_READERS: Record<InboundKind, InboundReader> = {
  '999': async (db, ctx, text) => ({ summary: `999: ${(await applyAcknowledgement(db, ctx, text)).summary}` }),
  '277CA': async (db, ctx, text) => ({ summary: `277CA: ${(await applyAcknowledgement(db, ctx, text)).summary}` }),
  '835': async (db, ctx, text) => {
    const result = await importRemittances(db, ctx, text);
    if (result.duplicate) {
      throw new HttpError(409, 'DUPLICATE_REMITTANCE', 'every remittance in this 835 was imported before');
    }
    return { summary: `835: ${countOf(result.remittances.length, 'remittance')} imported` };
  },
  '271': async (db, ctx, text, fileName) => ({ summary: `271: ${(await post271(db, ctx, text, fileName)).summary}` }),
  '277': async (db, ctx, text, fileName) => ({ summary: `277: ${(await post277(db, ctx, text, fileName)).summary}` }),
};

export interface OutboundFile {
  sourceId: number;
  /** A plain file name, safe by construction: `<kind>_<control number>_<yyyymmddhhmm>.x12`. */
  fileName: string;
  text: string;
}

export interface OutboundSource {
  kind: OutboundKind;
  /** The log's source_kind: with the id, what makes a file put once. */
  sourceKind: string;
  /** Files made at or after `since` and not mailed yet, oldest first. */
  pending(db: DbOrTx, since: Date): Promise<OutboundFile[]>;
  /** In the transaction that logs the file as sent. */
  markMailed(tx: Tx, sourceId: number, at: Date): Promise<void>;
}

/**
 * What goes out, in this order. The 270 eligibility inquiries (coverage) and 276 claim status requests
 * (submission) are added here when those features provide their pending and mailed functions.
 */
export const OUTBOUND_SOURCES: readonly OutboundSource[] = [
  { kind: '837P', sourceKind: 'claim_batch', pending: pendingClaimBatches, markMailed: markClaimBatchMailed },
  {
    kind: '270',
    sourceKind: 'eligibility_inquiry',
    pending: async (db, since) =>
      (await pendingEligibilityInquiries(db, since)).map((r) => ({
        sourceId: r.id,
        fileName: r.fileName,
        text: r.text,
      })),
    markMailed: markEligibilityInquiryMailed,
  },
  {
    kind: '276',
    sourceKind: 'claim_status_request',
    pending: async (db, since) =>
      (await pendingClaimStatusRequests(db, since)).map((r) => ({
        sourceId: r.id,
        fileName: r.fileName,
        text: r.text,
      })),
    markMailed: async (tx, id, at) => {
      await markClaimStatusRequestMailed(tx, id, at);
    },
  },
];

export interface RunCounts {
  sent: number;
  posted: number;
  refused: number;
  failed: number;
  skipped: number;
}

const noCounts = (): RunCounts => ({ sent: 0, posted: 0, refused: 0, failed: 0, skipped: 0 });

/** A failure of the connection itself, as opposed to one file's: it ends the run and counts against the mailbox. */
function isConnectionFailure(error: unknown): error is MailboxError {
  return error instanceof MailboxError && ['connect', 'auth', 'host_key', 'io'].includes(error.kind);
}

const sha256Of = (content: Buffer | string) => createHash('sha256').update(content).digest('hex');

/**
 * Puts every pending file of every source made at or after `since`, each once: its log row is unique by source,
 * and the source is marked mailed in the transaction that logs it sent. A put cut off before that commit is
 * retried under the same name; finding the name already there means our earlier put landed, so it counts as sent.
 */
export async function sendOutbound(
  db: DbOrTx,
  ctx: RequestContext,
  mailbox: Mailbox,
  options: { since: Date | null; sources?: readonly OutboundSource[] },
): Promise<RunCounts> {
  const counts = noCounts();
  if (options.since === null) return counts;
  for (const source of options.sources ?? OUTBOUND_SOURCES) {
    for (const file of await source.pending(db, options.since)) {
      const row = await beginOutboundFile(db, ctx, {
        sourceKind: source.sourceKind,
        sourceId: file.sourceId,
        remoteName: file.fileName,
        kind: source.kind,
        bytes: Buffer.byteLength(file.text),
        sha256: sha256Of(file.text),
      });
      const markMailed = (tx: Tx) => source.markMailed(tx, file.sourceId, ctx.now);
      if (row.status === 'sent') {
        await finishOutboundFile(db, ctx, row.id, 'sent before', markMailed);
        continue;
      }
      let detail: string;
      try {
        const put = await mailbox.put(file.fileName, file.text);
        detail = `put in the outbound folder (${countOf(put.size, 'byte')})`;
      } catch (error) {
        if (error instanceof MailboxError && error.kind === 'exists') {
          detail = 'already in the outbound folder from an earlier attempt that was cut off: not put again';
        } else {
          const message = error instanceof Error ? error.message : String(error);
          await failMailboxFile(db, ctx, row.id, 'failed', `not sent: ${message}; tried again on the next run`);
          counts.failed++;
          if (isConnectionFailure(error)) throw error;
          continue;
        }
      }
      await finishOutboundFile(db, ctx, row.id, detail, markMailed);
      counts.sent++;
    }
  }
  return counts;
}

/**
 * Reads every inbound file once: fetched under the size cap, known by its SHA-256 (a file seen before, under any
 * name, is archived and not posted again), its kind told from its envelope, then posted by the reader of its kind.
 * Refused files (unreadable, too large, of no kind we read, refused by their reader) are logged once with the
 * reason and moved to the archive folder; a file whose posting failed stays for the next run. Entries with unsafe
 * names cannot be fetched or moved by name: they are logged once and left for the clearinghouse to remove.
 */
export async function fetchInbound(
  db: DbOrTx,
  ctx: RequestContext,
  mailbox: Mailbox,
  options: { maxBytes?: number; readers?: Record<InboundKind, InboundReader> } = {},
): Promise<RunCounts> {
  const counts = noCounts();
  const readers = options.readers ?? INBOUND_READERS;
  const listing = await mailbox.listInbound();
  for (const entry of listing.skipped) {
    const unsafe = entry.reason.startsWith('unsafe file name');
    await logInboundRefusal(db, ctx, {
      remoteName: displayName(entry.name),
      bytes: 0,
      sha256: null,
      status: unsafe ? 'refused' : 'skipped',
      detail: unsafe ? `${entry.reason}; left on the server for the clearinghouse to remove` : entry.reason,
    });
    counts[unsafe ? 'refused' : 'skipped']++;
  }
  for (const file of listing.files) {
    let content: Buffer;
    try {
      content = await mailbox.fetch(file.name, { maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES });
    } catch (error) {
      // Gone between the listing and the fetch (the clearinghouse took it back): nothing to read this time.
      if (error instanceof MailboxError && error.kind === 'not_found') continue;
      if (!(error instanceof MailboxError) || error.kind !== 'too_large') throw error;
      await logInboundRefusal(db, ctx, {
        remoteName: file.name,
        bytes: file.size,
        sha256: null,
        status: 'refused',
        detail: `${error.message}; moved to the archive folder`,
      });
      await mailbox.archive(file.name);
      counts.refused++;
      continue;
    }
    const sha256 = sha256Of(content);
    const seen = await inboundStatusBySha(db, sha256);
    if (seen !== null && seen !== 'failed') {
      await mailbox.archive(file.name);
      counts.skipped++;
      continue;
    }
    const detected = detectInboundKind(content);
    if (detected.kind === 'unknown') {
      await logInboundRefusal(db, ctx, {
        remoteName: file.name,
        bytes: content.length,
        sha256,
        status: 'refused',
        detail: `refused: ${detected.reason}; moved to the archive folder`,
      });
      await mailbox.archive(file.name);
      counts.refused++;
      continue;
    }
    const outcome = await postInboundFile(
      db,
      ctx,
      { remoteName: file.name, kind: detected.kind, bytes: content.length, sha256, text: detected.text },
      readers[detected.kind],
    );
    if (outcome.status === 'failed') {
      counts.failed++;
      continue;
    }
    await mailbox.archive(file.name);
    if (outcome.status === 'seen') counts.skipped++;
    else counts[outcome.status]++;
  }
  return counts;
}

export interface RunOptions {
  /** The install's key that opens the stored secret. */
  key: Buffer | undefined;
  timeoutMs?: number;
  maxBytes?: number;
  readers?: Record<InboundKind, InboundReader>;
  sources?: readonly OutboundSource[];
}

/** The settings as connectMailbox takes them. */
export function mailboxConfig(mailbox: StoredMailbox, timeoutMs = 20_000) {
  return {
    host: mailbox.host,
    port: mailbox.port,
    username: mailbox.username,
    ...(mailbox.auth === 'key' ? { privateKey: mailbox.secret ?? '' } : { password: mailbox.secret ?? '' }),
    hostKeySha256: mailbox.hostKeySha256,
    outboundDir: mailbox.outboundDir,
    inboundDir: mailbox.inboundDir,
    timeoutMs,
  };
}

function summaryOf(counts: RunCounts): string {
  const parts = [
    counts.sent ? `${countOf(counts.sent, 'file')} sent` : '',
    counts.posted ? `${countOf(counts.posted, 'file')} posted` : '',
    counts.refused ? `${countOf(counts.refused, 'file')} refused` : '',
    counts.failed ? `${countOf(counts.failed, 'file')} failed (tried again on the next run)` : '',
    counts.skipped ? `${countOf(counts.skipped, 'file')} seen before` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'nothing to send or fetch';
}

/**
 * One run: connect, send, fetch, close. A connection failure (and only that) is counted against the mailbox and,
 * after `max failures` in a row, opens a work item; the next run that connects resolves it. `ctx` is whom the
 * run acts for: the admin pressing "Send and fetch now", or for a scheduled run the admin who saved the settings.
 */
export async function runMailbox(
  db: DbOrTx,
  ctx: RequestContext,
  mailbox: StoredMailbox,
  options: RunOptions,
): Promise<MailboxRunResult> {
  const counts = noCounts();
  if (!mailbox.enabled) return { ok: false, message: 'The mailbox is turned off.', ...counts };
  if (mailbox.secretProblem !== null) {
    const failures = await noteMailboxFailure(db, ctx, mailbox.secretProblem);
    return { ok: false, message: `${mailbox.secretProblem} (${countOf(failures, 'failure')} in a row)`, ...counts };
  }
  if (mailbox.secret === null || mailbox.hostKeySha256 === '') {
    return { ok: false, message: 'The mailbox needs its password or key and its pinned host key.', ...counts };
  }
  let connection: Mailbox | undefined;
  try {
    connection = await connectMailbox(mailboxConfig(mailbox, options.timeoutMs));
    const sent = await sendOutbound(db, ctx, connection, { since: mailbox.sendFromDate, sources: options.sources });
    const fetched = await fetchInbound(db, ctx, connection, { maxBytes: options.maxBytes, readers: options.readers });
    for (const key of Object.keys(counts) as (keyof RunCounts)[]) counts[key] = sent[key] + fetched[key];
  } catch (error) {
    if (!(error instanceof MailboxError)) throw error;
    const failures = await noteMailboxFailure(db, ctx, error.message);
    return {
      ok: false,
      message: `${plainWords(error)} (${countOf(failures, 'failure')} in a row)`,
      ...counts,
    };
  } finally {
    await connection?.close();
  }
  await noteMailboxSuccess(db, ctx);
  return { ok: true, message: summaryOf(counts), ...counts };
}

/** A MailboxError for the settings screen: what went wrong in words, then the details. */
export function plainWords(error: MailboxError): string {
  const lead: Record<MailboxError['kind'], string> = {
    connect: 'Could not reach the mailbox',
    auth: 'The mailbox refused the user name, password or key',
    host_key: "The server's host key is not the pinned one: not signed in",
    not_found: 'A folder or file is missing on the mailbox',
    too_large: 'A file is over the size limit',
    unsafe_name: 'A file name is not safe to use',
    exists: 'A file of that name is already there',
    io: 'The mailbox connection failed part-way',
  };
  return `${lead[error.kind]}: ${error.message}`;
}

/** `POST /api/clearinghouse/mailbox/test`: connects with the stored settings and lists the inbound folder. */
export async function testMailbox(
  mailbox: StoredMailbox,
  options: { timeoutMs?: number } = {},
): Promise<{ ok: boolean; message: string; hostKeySha256: string | null; inboundFiles: number | null }> {
  if (mailbox.host === '' || mailbox.username === '') {
    return { ok: false, message: 'Save the host and user name first.', hostKeySha256: null, inboundFiles: null };
  }
  if (mailbox.secretProblem !== null) {
    return { ok: false, message: mailbox.secretProblem, hostKeySha256: null, inboundFiles: null };
  }
  if (mailbox.secret === null) {
    return { ok: false, message: 'Save the password or key first.', hostKeySha256: null, inboundFiles: null };
  }
  let connection: Mailbox | undefined;
  try {
    connection = await connectMailbox(mailboxConfig(mailbox, options.timeoutMs));
    const listing = await connection.listInbound();
    return {
      ok: true,
      message: `Connected to ${mailbox.host} as ${mailbox.username}: ${countOf(listing.files.length, 'file')} waiting in ${mailbox.inboundDir}.`,
      hostKeySha256: connection.hostKeySha256,
      inboundFiles: listing.files.length,
    };
  } catch (error) {
    if (!(error instanceof MailboxError)) throw error;
    return { ok: false, message: plainWords(error), hostKeySha256: null, inboundFiles: null };
  } finally {
    await connection?.close();
  }
}
