/**
 * The clearinghouse mailbox over SFTP (docs/adr/0009-sftp-mailbox.md): outbound files put so that the
 * clearinghouse never sees half of one, inbound files listed, fetched under a size cap and archived once read.
 * Every name is checked before it is used, every request has a deadline, and every failure is a MailboxError
 * whose message can go on a log screen as it is (it never holds the password or the key).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { posix } from 'node:path';
import SftpClient from 'ssh2-sftp-client';
import type { Client, FileEntryWithStats, SFTPWrapper, Stats } from 'ssh2';

export interface MailboxConfig {
  host: string;
  port: number;
  username: string;
  password?: string;
  /** A private key, PEM or OpenSSH format (`-----BEGIN … PRIVATE KEY-----`). */
  privateKey?: string;
  /** Decrypts `privateKey` when it is encrypted. */
  passphrase?: string;
  /**
   * The fingerprint of the server's host key, as `ssh-keygen -lf` prints it (`SHA256:` and base64; hex is
   * taken too). A server presenting another key is refused ('host_key'). Unset, any key is taken: the
   * connected mailbox's `hostKeySha256` says which, for the settings screen to show and pin.
   */
  hostKeySha256?: string;
  /** Where our files go (837P, 270, 276), an absolute path on the server. */
  outboundDir: string;
  /** Where the clearinghouse's files come (999, 277CA, 271, 277, 835); read files move to its `processed/`. */
  inboundDir: string;
  /** The SSH handshake and sign-in, and then each request: no answer within this time fails the operation. */
  timeoutMs: number;
}

export type MailboxErrorKind =
  'connect' | 'auth' | 'host_key' | 'not_found' | 'too_large' | 'unsafe_name' | 'exists' | 'io';

/** A mailbox operation that failed; `message` is written for the log screen, `fileName` is the name as given. */
export class MailboxError extends Error {
  override readonly name = 'MailboxError';
  constructor(
    readonly kind: MailboxErrorKind,
    message: string,
    readonly fileName?: string,
  ) {
    super(message);
  }
}

export interface InboundFile {
  name: string;
  size: number;
  modifyTime: Date;
}

/** An inbound entry not offered for reading, with the reason (the name in it escaped for a log line). */
export interface SkippedEntry {
  name: string;
  reason: string;
}

export interface InboundListing {
  /** Regular files with safe names, oldest first (then by name): the order to read them in. */
  files: InboundFile[];
  /** Entries with unsafe names, and links or devices: reported, never read. Folders and dot-files are left out. */
  skipped: SkippedEntry[];
}

export interface Mailbox {
  /** The fingerprint of the host key the server presented (`SHA256:…`). */
  readonly hostKeySha256: string;
  /**
   * Writes `<outboundDir>/.<name>.part`, then renames it to `name`: the clearinghouse, which skips dot-files,
   * sees the whole file or none. Refused ('exists') when `name` is there already, even if it appears meanwhile.
   */
  put(name: string, content: Buffer | string): Promise<{ name: string; size: number }>;
  listInbound(): Promise<InboundListing>;
  /** The whole file; refused ('too_large') before its first byte when larger than `maxBytes`, or once it grows past it. */
  fetch(name: string, options?: { maxBytes?: number }): Promise<Buffer>;
  /**
   * Moves a read file into `<inboundDir>/processed/` (made when missing), so it is not listed again; a file of
   * that name already archived keeps its place and this one gets a time suffix. Returns the archived path
   * relative to the inbound folder.
   */
  archive(name: string): Promise<string>;
  /** Deletes a read file: for a mailbox that allows no folder of ours; archive() is the default. */
  remove(name: string): Promise<void>;
  /** Ends the connection; safe to call twice. */
  close(): Promise<void>;
}

/** The size cap of fetch() unless told otherwise: far above any 835 or 277 a clinic receives. */
export const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;

/** The archive folder, inside the inbound folder. */
export const PROCESSED_DIR = 'processed';

const MAX_NAME_BYTES = 255;
/** Bytes per READ or WRITE request; ssh2 splits further to the server's packet limit. */
const CHUNK_BYTES = 256 * 1024;
const KEEPALIVE_MS = 10_000;

/** A name as a log line can show it: quoted, control and invisible characters escaped, at most 80 characters. */
export function displayName(name: string): string {
  const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name;
  return JSON.stringify(shown).replace(
    /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Why `name` is not a plain file name this mailbox uses, or undefined when it is one: not empty, at most 255
 * bytes of UTF-8, no `/`, `\`, NUL or control or invisible formatting character, not `.` or `..`, not starting
 * with a dot (hidden files, and the `.part` files of uploads under way).
 */
export function unsafeNameReason(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.includes('\0')) return 'contains a NUL character';
  if (name.includes('/') || name.includes('\\')) return 'contains a path separator (/ or \\)';
  if (/[\p{Cs}\uFFFD]/u.test(name)) return 'is not valid UTF-8';
  if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(name)) return 'contains a control character';
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) return `is longer than ${MAX_NAME_BYTES} bytes`;
  if (name === '.' || name === '..') return 'is a path segment, not a file name';
  if (name.startsWith('.')) return 'starts with a dot';
  return undefined;
}

/** Throws 'unsafe_name' naming the file when `name` is not a plain file name. */
export function assertSafeName(name: string): void {
  const reason = unsafeNameReason(name);
  if (reason !== undefined) {
    throw new MailboxError('unsafe_name', `unsafe file name ${displayName(name)}: it ${reason}`, name);
  }
}

/** A dot-file whose name is otherwise plain (`.x.part`, `.profile`): left out of the listing without a report. */
function isHiddenFile(name: string): boolean {
  return name.startsWith('.') && name !== '.' && unsafeNameReason(name.slice(1)) === undefined;
}

/** A host key's fingerprint as OpenSSH prints it: `SHA256:` and the digest of the key blob, base64 without padding. */
export function hostKeyFingerprint(keyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`;
}

function parseFingerprint(text: string, where: string): Buffer {
  const body = text.trim().replace(/^SHA256:/i, '');
  if (/^[0-9a-f]{2}(?::?[0-9a-f]{2}){31}$/i.test(body)) return Buffer.from(body.replaceAll(':', ''), 'hex');
  if (/^[A-Za-z0-9+/]{43}=?$/.test(body)) return Buffer.from(body, 'base64');
  throw new MailboxError(
    'host_key',
    `the pinned host key of ${where} is not a SHA-256 fingerprint (expected SHA256:… as ssh-keygen -lf prints it)`,
  );
}

/** What ssh2 puts on its errors: `level` says which stage failed, `code` an errno or an SFTP status. */
interface SshError extends Error {
  level?: string;
  code?: unknown;
}

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

/** SFTP status codes (draft-ietf-secsh-filexfer-02). */
const NO_SUCH_FILE = 2;
const PERMISSION_DENIED = 3;

export async function connectMailbox(config: MailboxConfig): Promise<Mailbox> {
  const where = `${config.host}:${config.port}`;
  const account = `${config.username}@${where}`;
  const secrets = [config.password, config.passphrase, config.privateKey].filter(
    (s): s is string => typeof s === 'string' && s.length > 0,
  );
  /** A message from a library or the server, fit for the log: one line, no secret, not too long. */
  const sanitize = (text: string): string => {
    let clean = text;
    for (const secret of secrets) clean = clean.split(secret).join('[redacted]');
    clean = clean.replace(/-----BEGIN[^]*?(-----END[^-]*-----|$)/g, '[key]');
    clean = clean.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ').trim();
    return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
  };

  const pinned = config.hostKeySha256 === undefined ? undefined : parseFingerprint(config.hostKeySha256, where);
  if (!config.password && !config.privateKey) {
    throw new MailboxError('auth', `no password or private key is set for ${account}`);
  }
  if (!config.outboundDir.startsWith('/') || !config.inboundDir.startsWith('/')) {
    throw new MailboxError('io', `the outbound and inbound folders of ${account} must be absolute paths`);
  }

  let presented: string | undefined;
  let hostKeyRefused = false;
  let firstError: SshError | undefined;
  let closed = false;
  const client = new SftpClient('clearinghouse', {
    // The package's defaults print to the console; here the operation under way reports the failure.
    error: () => undefined,
    end: () => (closed = true),
    close: () => (closed = true),
  });
  // The package rewraps connection errors without ssh2's `level`, which tells a refused sign-in from the rest.
  client.on('error', (error: SshError) => (firstError ??= error));
  // SFTP is a request and an answer at a time: with Nagle's algorithm each small packet can wait on the
  // server's delayed ACK (40 ms on Linux), which made a listing take 0.3 s on loopback instead of 4 ms. The
  // listener's `this` is ssh2's Client, the emitter.
  client.on('connect', function (this: Client) {
    this.setNoDelay(true);
  });

  let sftp: SFTPWrapper;
  try {
    sftp = await client.connect({
      host: config.host,
      port: config.port,
      username: config.username,
      password: config.password,
      privateKey: config.privateKey,
      passphrase: config.passphrase,
      readyTimeout: config.timeoutMs,
      keepaliveInterval: KEEPALIVE_MS,
      keepaliveCountMax: 3,
      hostVerifier: (keyBlob: Buffer): boolean => {
        const digest = createHash('sha256').update(keyBlob).digest();
        presented = hostKeyFingerprint(keyBlob);
        hostKeyRefused = pinned !== undefined && !(pinned.length === digest.length && timingSafeEqual(pinned, digest));
        return !hostKeyRefused;
      },
    });
  } catch (error) {
    await client.end().catch(() => undefined);
    throw connectFailure(error);
  }
  const hostKeySha256 = presented ?? '';

  function connectFailure(error: unknown): MailboxError {
    if (hostKeyRefused) {
      return new MailboxError(
        'host_key',
        `${where} presented host key ${presented}, not the pinned ${hostKeyFingerprintOf(pinned)}: not connected. ` +
          'If the clearinghouse has changed its key, confirm the new fingerprint with them before pinning it.',
      );
    }
    const level = firstError?.level;
    const code = codeOf(firstError) ?? codeOf(error);
    const message = sanitize(error instanceof Error ? error.message : String(error));
    if (level === 'client-authentication') {
      return new MailboxError('auth', `${account} was refused at sign-in: wrong user name, password or key`);
    }
    if (/private ?key/i.test(message)) {
      return new MailboxError(
        'auth',
        `the private key for ${account} could not be read: a wrong passphrase, or not a private key`,
      );
    }
    if (level === 'client-timeout') {
      return new MailboxError('connect', `no SSH handshake with ${where} within ${config.timeoutMs} ms`);
    }
    if (code === 'ECONNREFUSED') {
      return new MailboxError('connect', `${where} refused the connection: no SSH server listens there`);
    }
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || level === 'client-dns') {
      return new MailboxError('connect', `the host ${config.host} was not found`);
    }
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
      return new MailboxError('connect', `could not reach ${where} (${code})`);
    }
    return new MailboxError('connect', `could not connect to ${where}: ${message}`);
  }

  /** Any failure of an operation as a MailboxError; `what` names the operation and file. */
  const failure = (what: string, error: unknown, fileName?: string): MailboxError => {
    if (error instanceof MailboxError) return error;
    const code = codeOf(error);
    if (code === NO_SUCH_FILE || code === 'ENOENT')
      return new MailboxError('not_found', `${what}: no such file`, fileName);
    if (code === PERMISSION_DENIED || code === 'EACCES') {
      return new MailboxError('io', `${what}: permission denied by ${where}`, fileName);
    }
    if (closed || code === 'ERR_NOT_CONNECTED' || code === 'ECONNRESET') {
      return new MailboxError('connect', `${what}: the connection to ${where} was lost`, fileName);
    }
    const message = sanitize(error instanceof Error ? error.message : String(error));
    return new MailboxError('io', `${what}: ${message || 'the server reported a failure'}`, fileName);
  };

  /** `work` with the deadline of `timeoutMs`; past it the connection, in an unknown state, is dropped. */
  const timed = <T>(what: string, work: Promise<T>, fileName?: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        closed = true;
        void client.end().catch(() => undefined);
        reject(
          new MailboxError(
            'io',
            `${what}: no answer from ${where} within ${config.timeoutMs} ms; disconnected`,
            fileName,
          ),
        );
      }, config.timeoutMs);
      work.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });

  /** A request of ssh2's SFTP API, as a promise with a deadline. */
  const request = <T>(what: string, send: (done: (err: Error | null | undefined, value: T) => void) => void) =>
    timed(what, new Promise<T>((resolve, reject) => send((err, value) => (err ? reject(err) : resolve(value)))));

  /** Runs one operation: refused on a closed connection, every failure mapped to a MailboxError. */
  const operation = async <T>(what: string, fileName: string | undefined, run: () => Promise<T>): Promise<T> => {
    if (closed) throw new MailboxError('connect', `${what}: the connection to ${where} is closed`, fileName);
    try {
      return await run();
    } catch (error) {
      throw failure(what, error, fileName);
    }
  };

  const lstat = (what: string, remotePath: string) =>
    request<Stats>(what, (done) => sftp.lstat(remotePath, (err, stats) => done(err, stats)));
  /** Whether anything (file, folder, link) has that path. */
  const taken = async (what: string, remotePath: string): Promise<boolean> => {
    try {
      await lstat(what, remotePath);
      return true;
    } catch (error) {
      if (codeOf(error) === NO_SUCH_FILE) return false;
      throw error;
    }
  };
  const open = (what: string, remotePath: string, flags: 'r' | 'w') =>
    request<Buffer>(what, (done) => sftp.open(remotePath, flags, (err, handle) => done(err, handle)));
  const closeHandle = (what: string, handle: Buffer) =>
    request<void>(what, (done) => sftp.close(handle, (err) => done(err, undefined)));

  const writeFile = async (what: string, remotePath: string, data: Buffer): Promise<void> => {
    const handle = await open(what, remotePath, 'w');
    try {
      for (let offset = 0; offset < data.length; offset += CHUNK_BYTES) {
        const length = Math.min(CHUNK_BYTES, data.length - offset);
        await request<void>(what, (done) =>
          sftp.write(handle, data, offset, length, offset, (err) => done(err, undefined)),
        );
      }
    } catch (error) {
      await closeHandle(what, handle).catch(() => undefined);
      throw error;
    }
    // A server may report a failed write (a full disk, a quota) only when the file is closed.
    await closeHandle(what, handle);
  };

  const mailbox: Mailbox = {
    hostKeySha256,

    put: async (name, content) => {
      const what = `put ${displayName(name)} into ${config.outboundDir}`;
      assertSafeName(name);
      const temporary = `.${name}.part`;
      if (Buffer.byteLength(temporary, 'utf8') > MAX_NAME_BYTES) {
        throw new MailboxError(
          'unsafe_name',
          `unsafe file name ${displayName(name)}: its upload name .<name>.part would be longer than ${MAX_NAME_BYTES} bytes`,
          name,
        );
      }
      // A string is the file's text: ssh2-sftp-client would take it for a local path.
      const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      const target = posix.join(config.outboundDir, name);
      const upload = posix.join(config.outboundDir, temporary);
      const alreadyThere = () =>
        new MailboxError('exists', `${what}: a file of that name is already there; it was not replaced`, name);
      return operation(what, name, async () => {
        if (await taken(what, target)) throw alreadyThere();
        try {
          await writeFile(what, upload, data);
          // SFTP version 3 RENAME does not replace an existing file (OpenSSH's server links, then unlinks): a
          // file of that name arriving since the check above makes it fail rather than vanish.
          await timed(what, client.rename(upload, target), name);
        } catch (error) {
          if (!closed) await timed(what, client.delete(upload, true), name).catch(() => undefined);
          if (!closed && (await taken(what, target).catch(() => false))) throw alreadyThere();
          throw error;
        }
        return { name, size: data.length };
      });
    },

    listInbound: () => {
      const what = `list ${config.inboundDir}`;
      return operation(what, undefined, async () => {
        const entries = await request<FileEntryWithStats[]>(what, (done) =>
          sftp.readdir(config.inboundDir, (err, list) => done(err, list)),
        );
        const files: InboundFile[] = [];
        const skipped: SkippedEntry[] = [];
        for (const { filename: name, attrs } of entries) {
          if (attrs.isDirectory()) continue;
          const reason = unsafeNameReason(name);
          if (reason === undefined && attrs.isFile()) {
            files.push({ name, size: attrs.size, modifyTime: new Date(attrs.mtime * 1000) });
          } else if (reason === undefined) {
            skipped.push({ name, reason: `${displayName(name)} is not a regular file (a link or device); not read` });
          } else if (!isHiddenFile(name)) {
            skipped.push({ name, reason: `unsafe file name ${displayName(name)}: it ${reason}; not read` });
          }
        }
        files.sort((a, b) => a.modifyTime.getTime() - b.modifyTime.getTime() || (a.name < b.name ? -1 : 1));
        return { files, skipped };
      });
    },

    fetch: async (name, options = {}) => {
      const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
      const what = `fetch ${displayName(name)} from ${config.inboundDir}`;
      assertSafeName(name);
      if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError('maxBytes: a whole number of bytes');
      const remotePath = posix.join(config.inboundDir, name);
      const tooLarge = (detail: string) =>
        new MailboxError('too_large', `${what}: ${detail}, over the limit of ${maxBytes} bytes; not read`, name);
      return operation(what, name, async () => {
        const stats = await lstat(what, remotePath);
        if (!stats.isFile()) throw new MailboxError('not_found', `${what}: not a regular file`, name);
        if (stats.size > maxBytes) throw tooLarge(`${stats.size} bytes`);
        const handle = await open(what, remotePath, 'r');
        const chunks: Buffer[] = [];
        let total = 0;
        try {
          // Never more than maxBytes + 1 bytes: the one past the limit is enough to know the file grew past it.
          for (;;) {
            const length = Math.min(CHUNK_BYTES, maxBytes + 1 - total);
            const buffer = Buffer.alloc(length);
            const count = await request<number>(what, (done) =>
              sftp.read(handle, buffer, 0, length, total, (err, bytesRead) => done(err, bytesRead)),
            );
            if (count === 0) break;
            chunks.push(buffer.subarray(0, count));
            total += count;
            if (total > maxBytes) throw tooLarge('it grew while being read');
          }
        } finally {
          await closeHandle(what, handle).catch(() => undefined);
        }
        return Buffer.concat(chunks, total);
      });
    },

    archive: async (name) => {
      const what = `archive ${displayName(name)} in ${config.inboundDir}`;
      assertSafeName(name);
      const folder = posix.join(config.inboundDir, PROCESSED_DIR);
      return operation(what, name, async () => {
        const source = posix.join(config.inboundDir, name);
        if (!(await taken(what, source))) throw new MailboxError('not_found', `${what}: no such file`, name);
        try {
          await timed(what, client.mkdir(folder, false), name);
        } catch (error) {
          // Made meanwhile by another app server: fine, as long as it is a folder.
          if (
            !(await lstat(what, folder)
              .then((s) => s.isDirectory())
              .catch(() => false))
          )
            throw error;
        }
        let archived = name;
        if (await taken(what, posix.join(folder, archived))) {
          archived = `${name}.${new Date().toISOString().replace(/[-:.]/g, '')}`;
          if (Buffer.byteLength(archived, 'utf8') > MAX_NAME_BYTES) {
            throw new MailboxError('exists', `${what}: already archived once, and no room for a time suffix`, name);
          }
        }
        await timed(what, client.rename(source, posix.join(folder, archived)), name);
        return `${PROCESSED_DIR}/${archived}`;
      });
    },

    remove: async (name) => {
      const what = `remove ${displayName(name)} from ${config.inboundDir}`;
      assertSafeName(name);
      await operation(what, name, async () => {
        await timed(what, client.delete(posix.join(config.inboundDir, name)), name);
      });
    },

    close: async () => {
      if (closed) return;
      closed = true;
      await timed(`close the connection to ${where}`, client.end()).catch(() => undefined);
    },
  };
  return mailbox;
}

function hostKeyFingerprintOf(digest: Buffer | undefined): string {
  return digest === undefined ? '(none)' : `SHA256:${digest.toString('base64').replace(/=+$/, '')}`;
}
