/**
 * The clearinghouse mailbox's contract (docs/clearinghouse.md): its settings as the admin edits them (the
 * password or key is written, never read back), the log of files moved, and what a test or a run answers.
 */
import { z } from 'zod';
import { cursorPageShape } from '@/shared/api';

export const MAILBOX_AUTH_METHODS = ['password', 'key'] as const;
export type MailboxAuthMethod = (typeof MAILBOX_AUTH_METHODS)[number];

/** What moves: our 837P, 270 and 276 out; the clearinghouse's 999, 277CA, 271, 277 and 835 in. */
export const MAILBOX_FILE_KINDS = ['837P', '270', '276', '999', '277CA', '271', '277', '835', 'unknown'] as const;
export type MailboxFileKind = (typeof MAILBOX_FILE_KINDS)[number];
export const OUTBOUND_KINDS = ['837P', '270', '276'] as const satisfies readonly MailboxFileKind[];
export type OutboundKind = (typeof OUTBOUND_KINDS)[number];
export const INBOUND_KINDS = ['999', '277CA', '271', '277', '835'] as const satisfies readonly MailboxFileKind[];
export type InboundKind = (typeof INBOUND_KINDS)[number];

export const MAILBOX_DIRECTIONS = ['out', 'in'] as const;
export type MailboxDirection = (typeof MAILBOX_DIRECTIONS)[number];

/**
 * sent: put in the outbound folder. posted: read and applied. refused: not ours to apply (its reason in the
 * detail), never tried again. failed: an error on our side or the connection's, tried again on the next run.
 * skipped: seen before, not applied again.
 */
export const MAILBOX_FILE_STATUSES = ['sent', 'posted', 'refused', 'failed', 'skipped'] as const;
export type MailboxFileStatus = (typeof MAILBOX_FILE_STATUSES)[number];

export const MIN_POLL_MINUTES = 5;
export const MAX_POLL_MINUTES = 1440;

/** A host name (RFC 1123 labels) or an IPv4 or IPv6 address. */
const HOST_PATTERN =
  /^(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?))*|\[?[0-9A-Fa-f:.]+\]?)$/;
/** The fingerprint as `ssh-keygen -lf` prints it (and clearinghouse.sftp.ts hostKeyFingerprint gives). */
export const FINGERPRINT_PATTERN = /^SHA256:[A-Za-z0-9+/]{43}$/;
/** An absolute folder on the mailbox: plain segments, no `..`, `.` or hidden parts. */
const FOLDER_PATTERN = /^\/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*)?$/;

function folderSchema(what: string) {
  return z
    .string({ error: 'is required' })
    .trim()
    .max(255, 'must be at most 255 characters')
    .refine((v) => !v.split('/').includes('..'), `must not contain '..': the ${what} folder is one place`)
    .refine((v) => FOLDER_PATTERN.test(v), 'must be an absolute path such as /outbound (letters, digits, . _ -)');
}

/** `PUT /api/clearinghouse/mailbox`: an empty `secret` keeps the one stored. */
export const mailboxSettingsInputSchema = z
  .object({
    enabled: z.boolean({ error: 'must be true or false' }),
    host: z
      .string({ error: 'is required' })
      .trim()
      .min(1, 'is required')
      .max(253, 'must be at most 253 characters')
      .refine((v) => HOST_PATTERN.test(v), 'must be a host name or an IP address'),
    port: z
      .number({ error: 'must be a port number' })
      .int('must be a whole number')
      .min(1, 'must be between 1 and 65535')
      .max(65535, 'must be between 1 and 65535'),
    username: z
      .string({ error: 'is required' })
      .trim()
      .min(1, 'is required')
      .max(128, 'must be at most 128 characters')
      .refine((v) => !/[\s\p{Cc}]/u.test(v), 'must not contain spaces or control characters'),
    auth: z.enum(MAILBOX_AUTH_METHODS, { error: "must be 'password' or 'key'" }),
    secret: z.string().max(16_384, 'must be at most 16384 characters').default(''),
    hostKeySha256: z
      .string({ error: 'is required' })
      .trim()
      .refine(
        (v) => FINGERPRINT_PATTERN.test(v),
        'must be the SHA256 fingerprint as ssh-keygen -lf prints it (SHA256: and 43 characters)',
      ),
    outboundDir: folderSchema('outbound'),
    inboundDir: folderSchema('inbound'),
    pollMinutes: z
      .number({ error: 'must be a number of minutes' })
      .int('must be a whole number of minutes')
      .min(MIN_POLL_MINUTES, `must be between ${MIN_POLL_MINUTES} and ${MAX_POLL_MINUTES} minutes`)
      .max(MAX_POLL_MINUTES, `must be between ${MIN_POLL_MINUTES} and ${MAX_POLL_MINUTES} minutes`),
    eveningTime: z
      .string({ error: 'is required' })
      .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day as HH:MM (24-hour)'),
    maxFailures: z
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be between 1 and 100')
      .max(100, 'must be between 1 and 100'),
  })
  .strict()
  .refine((v) => v.inboundDir !== v.outboundDir, {
    message: 'must differ from the outbound folder',
    path: ['inboundDir'],
  });
export type MailboxSettingsInput = z.input<typeof mailboxSettingsInputSchema>;

/** `GET /api/clearinghouse/mailbox`: the settings and their state; whether a secret is stored, never the secret. */
export const mailboxSettingsSchema = z.object({
  enabled: z.boolean(),
  host: z.string(),
  port: z.number().int(),
  username: z.string(),
  auth: z.enum(MAILBOX_AUTH_METHODS),
  hasSecret: z.boolean(),
  hostKeySha256: z.string(),
  outboundDir: z.string(),
  inboundDir: z.string(),
  pollMinutes: z.number().int(),
  eveningTime: z.string(),
  maxFailures: z.number().int(),
  /** Files created before this moment are never sent: when the mailbox was first enabled. */
  sendFrom: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  lastFailureAt: z.string().nullable(),
  lastError: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  updatedAt: z.string().nullable(),
});
export type MailboxSettings = z.infer<typeof mailboxSettingsSchema>;

/** `POST /api/clearinghouse/mailbox/test`. */
export const mailboxTestResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  /** The fingerprint the server presented, to compare with the pinned one. */
  hostKeySha256: z.string().nullable(),
  inboundFiles: z.number().int().nullable(),
});
export type MailboxTestResult = z.infer<typeof mailboxTestResultSchema>;

/** `POST /api/clearinghouse/mailbox/run` and each scheduled run: what moved. */
export const mailboxRunResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  sent: z.number().int(),
  posted: z.number().int(),
  refused: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
});
export type MailboxRunResult = z.infer<typeof mailboxRunResultSchema>;

export const mailboxFileSchema = z.object({
  id: z.number().int(),
  direction: z.enum(MAILBOX_DIRECTIONS),
  remoteName: z.string(),
  kind: z.enum(MAILBOX_FILE_KINDS),
  bytes: z.number().int(),
  sha256: z.string().nullable(),
  status: z.enum(MAILBOX_FILE_STATUSES),
  detail: z.string(),
  sourceKind: z.string().nullable(),
  sourceId: z.number().int().nullable(),
  attempts: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MailboxFile = z.infer<typeof mailboxFileSchema>;

export const mailboxFilesQuerySchema = z
  .object({
    direction: z.enum(MAILBOX_DIRECTIONS, { error: "must be 'out' or 'in'" }).optional(),
    status: z.enum(MAILBOX_FILE_STATUSES, { error: `must be one of: ${MAILBOX_FILE_STATUSES.join(', ')}` }).optional(),
    limit: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be between 1 and 200')
      .max(200, 'must be between 1 and 200')
      .default(50),
    /** The id of the last row of the previous page (rows come newest first). */
    cursor: z
      .string()
      .regex(/^[1-9]\d{0,9}$/, 'must be a cursor the previous page gave')
      // A row id is a PostgreSQL integer: a larger number was never a cursor this server gave.
      .refine((v) => Number(v) <= 2_147_483_647, 'must be a cursor the previous page gave')
      .optional(),
  })
  .strict();
export type MailboxFilesQuery = z.input<typeof mailboxFilesQuerySchema>;

export const mailboxFilePageSchema = z.object({ items: z.array(mailboxFileSchema), ...cursorPageShape });
export type MailboxFilePage = z.infer<typeof mailboxFilePageSchema>;

export const MAILBOX_STATUS_LABELS: Record<MailboxFileStatus, string> = {
  sent: 'Sent',
  posted: 'Posted',
  refused: 'Refused',
  failed: 'Failed, will retry',
  skipped: 'Seen before',
};
