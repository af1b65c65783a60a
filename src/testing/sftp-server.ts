/**
 * A real SFTP server on loopback for tests (ssh2's Server, docs/adr/0009-sftp-mailbox.md): it serves one
 * directory as its whole file system, with a host key made for it, password or public-key users, and a log of
 * the requests it answered, so that a test sees what the client asked for (a `.part` upload, no READ of a file
 * refused by its size). Every path a client sends is confined to the root: `..` above it, or a symbolic link
 * leading out of it, is answered PERMISSION_DENIED.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { promises as fs, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import ssh2 from 'ssh2';
import type { Attributes, AuthContext, Connection, FileEntry, ParsedKey, SFTPWrapper } from 'ssh2';

const { Server, utils } = ssh2;
const { STATUS_CODE } = utils.sftp;

export interface SftpTestUser {
  username: string;
  password?: string;
  /** An OpenSSH public key line (`ssh-ed25519 AAAA…`), as sshKeyPair() gives. */
  publicKey?: string;
}

export type SftpRequestKind =
  | 'OPEN'
  | 'READ'
  | 'WRITE'
  | 'CLOSE'
  | 'FSTAT'
  | 'STAT'
  | 'LSTAT'
  | 'OPENDIR'
  | 'READDIR'
  | 'RENAME'
  | 'REMOVE'
  | 'MKDIR'
  | 'RMDIR'
  | 'REALPATH'
  | 'SETSTAT'
  | 'FSETSTAT';

/** One request as the server received it; paths as the client sent them (for a handle, the path it opened). */
export interface SftpRequest {
  kind: SftpRequestKind;
  path: string;
  /** RENAME: the new path. */
  to?: string;
  /** OPEN: the flags as fs.open takes them ('r', 'w', 'wx'…). */
  flags?: string;
  /** READ: the bytes sent; WRITE: the bytes received. */
  bytes?: number;
}

export interface SftpTestServer {
  host: '127.0.0.1';
  port: number;
  /** The directory served as `/`. */
  root: string;
  /** The host key's fingerprint as `ssh-keygen -lf` prints it: `SHA256:` and unpadded base64. */
  hostKeySha256: string;
  /** Every request answered, in order; a test may empty it (`requests.length = 0`). */
  requests: SftpRequest[];
  /**
   * Called after a request is logged and before it is answered (awaited): lets a test change the files in
   * between, as another party would (a file that grows once opened, a name taken during an upload).
   */
  beforeRequest: ((request: SftpRequest) => void | Promise<void>) | undefined;
  /** Bytes sent by READ for `remotePath` (as the client named it when opening). */
  bytesRead(remotePath: string): number;
  /** Ends every connection and stops listening. */
  close(): Promise<void>;
}

/** A key pair for a test user (ed25519, OpenSSH format); `passphrase` encrypts the private key. */
export function sshKeyPair(passphrase?: string): { privateKey: string; publicKey: string } {
  // Two bcrypt rounds: the key is encrypted as OpenSSH does, without the seconds that its default 16 cost.
  const pair =
    passphrase === undefined
      ? utils.generateKeyPairSync('ed25519')
      : utils.generateKeyPairSync('ed25519', { passphrase, cipher: 'aes256-ctr', rounds: 2 });
  return { privateKey: pair.private, publicKey: pair.public };
}

/** The fingerprint of a public key (OpenSSH line or PEM) as `ssh-keygen -lf` prints it. */
export function sshFingerprint(publicKey: string): string {
  const digest = createHash('sha256').update(parsedKey(publicKey).getPublicSSH()).digest('base64');
  return `SHA256:${digest.replace(/=+$/, '')}`;
}

export async function startSftpServer(options: { root: string; users: SftpTestUser[] }): Promise<SftpTestServer> {
  const root = await fs.realpath(options.root);
  const hostKey = sshKeyPair();
  const connections = new Set<Connection>();
  const requests: SftpRequest[] = [];
  const users = options.users.map((user) => ({
    ...user,
    key: user.publicKey === undefined ? undefined : parsedKey(user.publicKey),
  }));
  const server = new Server({ hostKeys: [hostKey.privateKey] }, (client) => {
    connections.add(client);
    // No Nagle delay on the server's answers either (see clearinghouse.sftp.ts); ssh2 has the method on its
    // server connections, its types only on the client.
    (client as Connection & { setNoDelay(noDelay: boolean): void }).setNoDelay(true);
    client.on('close', () => connections.delete(client));
    // A client that drops its socket is an ordinary end for a test server, not a failure of the test.
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => authenticate(ctx, users));
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        const session = acceptSession();
        session.on('sftp', (acceptSftp) => serveSftp(acceptSftp(), root, api));
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const api: SftpTestServer = {
    host: '127.0.0.1',
    port: (server.address() as AddressInfo).port,
    root,
    hostKeySha256: sshFingerprint(hostKey.publicKey),
    requests,
    beforeRequest: undefined,
    bytesRead: (remotePath) =>
      requests.filter((r) => r.kind === 'READ' && r.path === remotePath).reduce((sum, r) => sum + (r.bytes ?? 0), 0),
    close: async () => {
      for (const connection of connections) connection.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return api;
}

function parsedKey(text: string): ParsedKey {
  const key = utils.parseKey(text);
  if (key instanceof Error) throw key;
  return key;
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function authenticate(ctx: AuthContext, users: Array<SftpTestUser & { key: ParsedKey | undefined }>): void {
  const user = users.find((u) => u.username === ctx.username);
  const methods: Array<'password' | 'publickey'> = ['password', 'publickey'];
  if (user === undefined) return ctx.reject(methods);
  if (ctx.method === 'password') {
    const ok = user.password !== undefined && sameBytes(Buffer.from(ctx.password), Buffer.from(user.password));
    return ok ? ctx.accept() : ctx.reject(methods);
  }
  if (ctx.method === 'publickey') {
    const key = user.key;
    const known = key !== undefined && ctx.key.algo === key.type && sameBytes(ctx.key.data, key.getPublicSSH());
    // Without a signature the client only asks whether the key would do; with one, it must verify.
    const signed =
      ctx.signature === undefined || (ctx.blob !== undefined && key?.verify(ctx.blob, ctx.signature, ctx.hashAlgo));
    return known && signed ? ctx.accept() : ctx.reject(methods);
  }
  ctx.reject(methods);
}

class Denied extends Error {}

/** `/`-rooted path of the client's path, or Denied when it climbs above the root or holds a NUL. */
function virtualPath(clientPath: string): string {
  if (clientPath.includes('\0')) throw new Denied('NUL in path');
  const parts: string[] = [];
  for (const segment of clientPath.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) throw new Denied('path leaves the root');
      parts.pop();
    } else parts.push(segment);
  }
  return `/${parts.join('/')}`;
}

/**
 * The real path of the client's path inside the root. `follow`: the request follows a link at the end (OPEN,
 * STAT), so the path itself must resolve inside; otherwise (LSTAT, REMOVE, RENAME) its folder must.
 */
async function confine(root: string, clientPath: string, follow: boolean): Promise<string> {
  const real = path.join(root, virtualPath(clientPath));
  let probe = follow || real === root ? real : path.dirname(real);
  for (;;) {
    try {
      const resolved = await fs.realpath(probe);
      if (resolved !== root && !resolved.startsWith(root + path.sep)) throw new Denied('link leaves the root');
      return real;
    } catch (error) {
      // A path not there yet (a file to create): its nearest existing folder must be inside.
      if (errnoOf(error) === 'ENOENT' && probe !== root && probe.startsWith(root)) probe = path.dirname(probe);
      else throw error;
    }
  }
}

function errnoOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

function attrsOf(stats: Stats): Attributes {
  return {
    mode: stats.mode,
    uid: stats.uid,
    gid: stats.gid,
    size: stats.size,
    atime: Math.floor(stats.atimeMs / 1000),
    mtime: Math.floor(stats.mtimeMs / 1000),
  };
}

/** The `ls -l` line SFTP version 3 sends with each name; clients read the type from its first character. */
function longname(name: string, stats: Stats): string {
  const type = stats.isDirectory() ? 'd' : stats.isSymbolicLink() ? 'l' : stats.isFile() ? '-' : '?';
  const rwx = [6, 3, 0]
    .map((shift) => {
      const bits = (stats.mode >> shift) & 7;
      return `${bits & 4 ? 'r' : '-'}${bits & 2 ? 'w' : '-'}${bits & 1 ? 'x' : '-'}`;
    })
    .join('');
  const date = new Date(stats.mtimeMs).toISOString().slice(0, 16).replace('T', ' ');
  return `${type}${rwx} 1 ${stats.uid} ${stats.gid} ${stats.size} ${date} ${name}`;
}

type OpenHandle =
  { kind: 'file'; path: string; file: FileHandle } | { kind: 'dir'; path: string; real: string; done: boolean };

function serveSftp(sftp: SFTPWrapper, root: string, server: SftpTestServer): void {
  const handles = new Map<string, OpenHandle>();
  let nextHandle = 0;
  const newHandle = (open: OpenHandle): Buffer => {
    const id = Buffer.alloc(4);
    id.writeUInt32BE(nextHandle++);
    handles.set(id.toString('hex'), open);
    return id;
  };
  const handleOf = (id: Buffer): OpenHandle => {
    const open = handles.get(id.toString('hex'));
    if (open === undefined) throw new Error('no such handle');
    return open;
  };

  /** Logs the request, lets the test act, runs `answer`, and turns a failure into the status a server sends. */
  const serve = (reqId: number, request: SftpRequest, answer: () => Promise<void>): void => {
    server.requests.push(request);
    void (async () => {
      try {
        await server.beforeRequest?.(request);
        await answer();
      } catch (error) {
        if (error instanceof Denied) return sftp.status(reqId, STATUS_CODE.PERMISSION_DENIED, 'Permission denied');
        const code = errnoOf(error);
        if (code === 'ENOENT' || code === 'ENOTDIR')
          return sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE, 'No such file');
        if (code === 'EACCES' || code === 'EPERM') {
          return sftp.status(reqId, STATUS_CODE.PERMISSION_DENIED, 'Permission denied');
        }
        sftp.status(reqId, STATUS_CODE.FAILURE, error instanceof Error ? error.message : 'Failure');
      }
    })();
  };
  const ok = (reqId: number) => sftp.status(reqId, STATUS_CODE.OK);

  sftp.on('OPEN', (reqId, filename, flags) => {
    const mode = utils.sftp.flagsToString(flags);
    serve(reqId, { kind: 'OPEN', path: filename, flags: mode ?? String(flags) }, async () => {
      if (mode === null) return sftp.status(reqId, STATUS_CODE.OP_UNSUPPORTED, 'Unsupported open flags');
      const real = await confine(root, filename, true);
      const file = await fs.open(real, mode, 0o644);
      sftp.handle(reqId, newHandle({ kind: 'file', path: filename, file }));
    });
  });
  sftp.on('READ', (reqId, id, offset, length) => {
    const open = handles.get(id.toString('hex'));
    const request: SftpRequest = { kind: 'READ', path: open?.path ?? '?', bytes: 0 };
    serve(reqId, request, async () => {
      const handle = handleOf(id);
      if (handle.kind !== 'file') throw new Error('not a file handle');
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.file.read(buffer, 0, length, offset);
      if (bytesRead === 0) return sftp.status(reqId, STATUS_CODE.EOF);
      request.bytes = bytesRead;
      sftp.data(reqId, buffer.subarray(0, bytesRead));
    });
  });
  sftp.on('WRITE', (reqId, id, offset, data) => {
    const open = handles.get(id.toString('hex'));
    serve(reqId, { kind: 'WRITE', path: open?.path ?? '?', bytes: data.length }, async () => {
      const handle = handleOf(id);
      if (handle.kind !== 'file') throw new Error('not a file handle');
      await handle.file.write(data, 0, data.length, offset);
      ok(reqId);
    });
  });
  sftp.on('CLOSE', (reqId, id) => {
    const open = handles.get(id.toString('hex'));
    serve(reqId, { kind: 'CLOSE', path: open?.path ?? '?' }, async () => {
      const handle = handleOf(id);
      handles.delete(id.toString('hex'));
      if (handle.kind === 'file') await handle.file.close();
      ok(reqId);
    });
  });
  sftp.on('FSTAT', (reqId, id) => {
    const open = handles.get(id.toString('hex'));
    serve(reqId, { kind: 'FSTAT', path: open?.path ?? '?' }, async () => {
      const handle = handleOf(id);
      sftp.attrs(reqId, attrsOf(handle.kind === 'file' ? await handle.file.stat() : await fs.stat(handle.real)));
    });
  });
  for (const kind of ['STAT', 'LSTAT'] as const) {
    sftp.on(kind, (reqId: number, clientPath: string) => {
      serve(reqId, { kind, path: clientPath }, async () => {
        const real = await confine(root, clientPath, kind === 'STAT');
        sftp.attrs(reqId, attrsOf(kind === 'STAT' ? await fs.stat(real) : await fs.lstat(real)));
      });
    });
  }
  sftp.on('OPENDIR', (reqId, clientPath) => {
    serve(reqId, { kind: 'OPENDIR', path: clientPath }, async () => {
      const real = await confine(root, clientPath, true);
      if (!(await fs.stat(real)).isDirectory()) return sftp.status(reqId, STATUS_CODE.FAILURE, 'Not a directory');
      sftp.handle(reqId, newHandle({ kind: 'dir', path: clientPath, real, done: false }));
    });
  });
  sftp.on('READDIR', (reqId, id) => {
    const open = handles.get(id.toString('hex'));
    serve(reqId, { kind: 'READDIR', path: open?.path ?? '?' }, async () => {
      const handle = handleOf(id);
      if (handle.kind !== 'dir') throw new Error('not a directory handle');
      // The whole folder in one answer, then EOF: the folders a test serves hold a few files.
      if (handle.done) return sftp.status(reqId, STATUS_CODE.EOF);
      handle.done = true;
      const entries: FileEntry[] = [];
      for (const name of await fs.readdir(handle.real)) {
        const stats = await fs.lstat(path.join(handle.real, name));
        entries.push({ filename: name, longname: longname(name, stats), attrs: attrsOf(stats) });
      }
      if (entries.length === 0) return sftp.status(reqId, STATUS_CODE.EOF);
      sftp.name(reqId, entries);
    });
  });
  sftp.on('RENAME', (reqId, oldPath, newPath) => {
    serve(reqId, { kind: 'RENAME', path: oldPath, to: newPath }, async () => {
      const from = await confine(root, oldPath, false);
      const to = await confine(root, newPath, false);
      // As OpenSSH's server (SFTP version 3): a rename never replaces an existing file.
      const taken = await fs.lstat(to).then(
        () => true,
        () => false,
      );
      if (taken) return sftp.status(reqId, STATUS_CODE.FAILURE, 'File exists');
      await fs.rename(from, to);
      ok(reqId);
    });
  });
  sftp.on('REMOVE', (reqId, clientPath) => {
    serve(reqId, { kind: 'REMOVE', path: clientPath }, async () => {
      await fs.unlink(await confine(root, clientPath, false));
      ok(reqId);
    });
  });
  sftp.on('MKDIR', (reqId, clientPath) => {
    serve(reqId, { kind: 'MKDIR', path: clientPath }, async () => {
      await fs.mkdir(await confine(root, clientPath, false));
      ok(reqId);
    });
  });
  sftp.on('RMDIR', (reqId, clientPath) => {
    serve(reqId, { kind: 'RMDIR', path: clientPath }, async () => {
      await fs.rmdir(await confine(root, clientPath, false));
      ok(reqId);
    });
  });
  sftp.on('REALPATH', (reqId, clientPath) => {
    serve(reqId, { kind: 'REALPATH', path: clientPath }, async () => {
      const resolved = virtualPath(clientPath);
      await confine(root, resolved, true);
      sftp.name(reqId, [{ filename: resolved, longname: resolved, attrs: {} as Attributes }]);
    });
  });
  // Modes and times a client sets are accepted and ignored: the tests read contents and names.
  sftp.on('SETSTAT', (reqId, clientPath) => {
    serve(reqId, { kind: 'SETSTAT', path: clientPath }, async () => {
      await confine(root, clientPath, true);
      ok(reqId);
    });
  });
  sftp.on('FSETSTAT', (reqId, id) => {
    const open = handles.get(id.toString('hex'));
    serve(reqId, { kind: 'FSETSTAT', path: open?.path ?? '?' }, async () => {
      handleOf(id);
      ok(reqId);
    });
  });
  sftp.on('close', () => {
    for (const open of handles.values()) if (open.kind === 'file') void open.file.close().catch(() => undefined);
    handles.clear();
  });
}
