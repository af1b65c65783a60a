import { promises as fs } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sshFingerprint, sshKeyPair, startSftpServer, type SftpTestServer } from '@/testing/sftp-server';
import {
  connectMailbox,
  DEFAULT_MAX_BYTES,
  MailboxError,
  type Mailbox,
  type MailboxConfig,
  type MailboxErrorKind,
} from './clearinghouse.sftp';

const PASSWORD = 'correct horse battery staple';
const PASSPHRASE = 'key passphrase 42';
const clientKey = sshKeyPair(PASSPHRASE);

let root: string;
let server: SftpTestServer;
const opened: Mailbox[] = [];

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'sftp-mailbox-'));
  await fs.mkdir(path.join(root, 'outbound'));
  await fs.mkdir(path.join(root, 'inbound'));
  server = await startSftpServer({
    root,
    users: [{ username: 'clinic', password: PASSWORD, publicKey: clientKey.publicKey }],
  });
});

afterEach(async () => {
  server.beforeRequest = undefined;
  await Promise.all(opened.splice(0).map((mailbox) => mailbox.close()));
  for (const folder of ['outbound', 'inbound']) {
    await fs.rm(path.join(root, folder), { recursive: true, force: true });
    await fs.mkdir(path.join(root, folder));
  }
  server.requests.length = 0;
});

afterAll(async () => {
  await server?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

function config(overrides: Partial<MailboxConfig> = {}): MailboxConfig {
  return {
    host: server.host,
    port: server.port,
    username: 'clinic',
    password: PASSWORD,
    hostKeySha256: server.hostKeySha256,
    outboundDir: '/outbound',
    inboundDir: '/inbound',
    timeoutMs: 5_000,
    ...overrides,
  };
}

async function open(overrides: Partial<MailboxConfig> = {}): Promise<Mailbox> {
  const mailbox = await connectMailbox(config(overrides));
  opened.push(mailbox);
  return mailbox;
}

/** The MailboxError `work` fails with (and that it fails). */
async function failure(work: Promise<unknown>, kind: MailboxErrorKind): Promise<MailboxError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MailboxError);
  const mailboxError = error as MailboxError;
  expect({ kind: mailboxError.kind, message: mailboxError.message }).toMatchObject({ kind });
  return mailboxError;
}

/** A loopback port that was free a moment ago: nothing listens on it. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const inbound = (name: string) => path.join(root, 'inbound', name);
const outbound = (name: string) => path.join(root, 'outbound', name);

describe('connecting', () => {
  it('signs in with a password and pins the host key', async () => {
    const mailbox = await open();
    expect(mailbox.hostKeySha256).toBe(server.hostKeySha256);
    expect(await mailbox.listInbound()).toEqual({ files: [], skipped: [] });
    // The pin may be written in hex too, with or without colons.
    const hex = Buffer.from(server.hostKeySha256.slice('SHA256:'.length), 'base64').toString('hex');
    await open({ hostKeySha256: hex.match(/../g)!.join(':') });
    await failure(connectMailbox(config({ hostKeySha256: 'SHA256:not-a-fingerprint' })), 'host_key');
  });

  it('signs in with an encrypted private key, and reports the key it met when none is pinned', async () => {
    const mailbox = await open({
      password: undefined,
      privateKey: clientKey.privateKey,
      passphrase: PASSPHRASE,
      hostKeySha256: undefined,
    });
    expect(mailbox.hostKeySha256).toBe(server.hostKeySha256);
    await mailbox.put('837P-0001.x12', 'ISA*00~');
    expect(await fs.readFile(outbound('837P-0001.x12'), 'utf8')).toBe('ISA*00~');
  });

  it('refuses a wrong password, or a key it cannot read, as auth, without the secret in the message', async () => {
    const wrongPassword = await failure(connectMailbox(config({ password: 'not the password' })), 'auth');
    expect(wrongPassword.message).toBe(
      `clinic@127.0.0.1:${server.port} was refused at sign-in: wrong user name, password or key`,
    );
    const wrongPassphrase = await failure(
      connectMailbox(config({ password: undefined, privateKey: clientKey.privateKey, passphrase: 'wrong' })),
      'auth',
    );
    expect(wrongPassphrase.message).toMatch(/private key .* could not be read/);
    const otherKey = await failure(
      connectMailbox(config({ password: undefined, privateKey: sshKeyPair().privateKey })),
      'auth',
    );
    for (const error of [wrongPassword, wrongPassphrase, otherKey]) {
      expect(error.message).not.toContain('not the password');
      expect(error.message).not.toContain(PASSWORD);
      expect(error.message).not.toContain('PRIVATE KEY');
    }
  });

  it('refuses a server whose host key is not the pinned one', async () => {
    const otherFingerprint = sshFingerprint(sshKeyPair().publicKey);
    const error = await failure(connectMailbox(config({ hostKeySha256: otherFingerprint })), 'host_key');
    expect(error.message).toContain(server.hostKeySha256);
    expect(error.message).toContain(otherFingerprint);
    // Nothing was asked of the server: the check comes before sign-in.
    expect(server.requests).toEqual([]);
  });

  it('reports nothing listening, and a server that never speaks SSH, as connect', async () => {
    const port = await closedPort();
    const refused = await failure(connectMailbox(config({ port })), 'connect');
    expect(refused.message).toBe(`127.0.0.1:${port} refused the connection: no SSH server listens there`);

    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const silentPort = (silent.address() as AddressInfo).port;
      const timedOut = await failure(connectMailbox(config({ port: silentPort, timeoutMs: 300 })), 'connect');
      expect(timedOut.message).toBe(`no SSH handshake with 127.0.0.1:${silentPort} within 300 ms`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('refuses every operation once closed; closing twice is fine', async () => {
    const mailbox = await connectMailbox(config());
    await mailbox.close();
    await mailbox.close();
    const error = await failure(mailbox.listInbound(), 'connect');
    expect(error.message).toBe(`list /inbound: the connection to 127.0.0.1:${server.port} is closed`);
  });
});

describe('putting a file', () => {
  it('uploads under .<name>.part and renames it, so the other side sees the whole file or none', async () => {
    const content = Buffer.alloc(600 * 1024, 'ISA*00*~');
    let seenBeforeRename = true;
    server.beforeRequest = async (request) => {
      if (request.kind === 'WRITE') {
        seenBeforeRename &&= await fs.access(outbound('837P-0002.x12')).then(
          () => true,
          () => false,
        );
      }
    };
    const mailbox = await open();
    expect(await mailbox.put('837P-0002.x12', content)).toEqual({ name: '837P-0002.x12', size: content.length });

    expect(seenBeforeRename).toBe(false);
    expect((await fs.readFile(outbound('837P-0002.x12'))).equals(content)).toBe(true);
    expect(await fs.readdir(path.join(root, 'outbound'))).toEqual(['837P-0002.x12']);
    const upload = server.requests.filter((r) => r.path.startsWith('/outbound/') && r.kind !== 'LSTAT');
    expect(upload[0]).toEqual({ kind: 'OPEN', path: '/outbound/.837P-0002.x12.part', flags: 'w' });
    const writes = upload.filter((r) => r.kind === 'WRITE');
    expect(writes.length).toBeGreaterThan(1);
    expect(writes.every((r) => r.path === '/outbound/.837P-0002.x12.part')).toBe(true);
    expect(upload.at(-1)).toEqual({
      kind: 'RENAME',
      path: '/outbound/.837P-0002.x12.part',
      to: '/outbound/837P-0002.x12',
    });
    expect(upload.some((r) => r.kind === 'OPEN' && r.path === '/outbound/837P-0002.x12')).toBe(false);
  });

  it('round-trips: what is put is listed and fetched by the side that reads that folder', async () => {
    const mailbox = await open();
    await mailbox.put('270-0003.x12', 'ISA*00*270~');
    // The clearinghouse's view of our outbound folder: its inbound.
    const theirs = await open({ inboundDir: '/outbound' });
    const listing = await theirs.listInbound();
    expect(listing.files.map((f) => ({ name: f.name, size: f.size }))).toEqual([{ name: '270-0003.x12', size: 11 }]);
    expect(Math.abs(listing.files[0]!.modifyTime.getTime() - Date.now())).toBeLessThan(60_000);
    expect((await theirs.fetch('270-0003.x12')).toString('utf8')).toBe('ISA*00*270~');
  });

  it('refuses a name that is already there, and one that appears during the upload', async () => {
    const mailbox = await open();
    await mailbox.put('276-0004.x12', 'first');
    const again = await failure(mailbox.put('276-0004.x12', 'second'), 'exists');
    expect(again.message).toBe(
      'put "276-0004.x12" into /outbound: a file of that name is already there; it was not replaced',
    );
    expect(again.fileName).toBe('276-0004.x12');
    expect(await fs.readFile(outbound('276-0004.x12'), 'utf8')).toBe('first');

    // Another writer takes the name after the check: the rename fails instead of replacing its file.
    server.beforeRequest = async (request) => {
      if (request.kind === 'RENAME') await fs.writeFile(outbound('276-0005.x12'), 'theirs');
    };
    await failure(mailbox.put('276-0005.x12', 'ours'), 'exists');
    expect(await fs.readFile(outbound('276-0005.x12'), 'utf8')).toBe('theirs');
    expect((await fs.readdir(path.join(root, 'outbound'))).sort()).toEqual(['276-0004.x12', '276-0005.x12']);
  });

  it('refuses a name that is not a plain file name before asking the server anything', async () => {
    const mailbox = await open();
    server.requests.length = 0;
    const cases: Array<[string, string]> = [
      ['../escape.x12', 'contains a path separator'],
      ['sub/file.x12', 'contains a path separator'],
      ['back\\slash.x12', 'contains a path separator'],
      ['nul\0.x12', 'contains a NUL character'],
      ['line\nbreak.x12', 'contains a control character'],
      ['bidi\u202Eenil.x12', 'contains a control character'],
      ['..', 'is a path segment'],
      ['.hidden.x12', 'starts with a dot'],
      ['', 'is empty'],
      [`${'x'.repeat(252)}.x12`, 'is longer than 255 bytes'],
    ];
    for (const [name, reason] of cases) {
      const error = await failure(mailbox.put(name, 'x'), 'unsafe_name');
      expect(error.message).toContain(reason);
      expect(error.message).not.toMatch(/[\n\0\u202E]/);
      expect(error.fileName).toBe(name);
    }
    // 250 bytes is a fine name, but its upload name (.<name>.part) would pass 255.
    const long = await failure(mailbox.put(`${'y'.repeat(246)}.x12`, 'x'), 'unsafe_name');
    expect(long.message).toContain('upload name');
    expect(server.requests).toEqual([]);
  });
});

describe('reading the inbound folder', () => {
  it('lists regular files oldest first, leaves out folders and dot-files, and reports unsafe names', async () => {
    await fs.writeFile(inbound('835-b.x12'), 'ERA B');
    await fs.utimes(inbound('835-b.x12'), new Date('2026-01-02'), new Date('2026-01-02'));
    await fs.writeFile(inbound('999-a.x12'), 'ACK A');
    await fs.utimes(inbound('999-a.x12'), new Date('2026-01-01'), new Date('2026-01-01'));
    await fs.writeFile(inbound('..evil'), 'x');
    await fs.writeFile(inbound('bad\nname.835'), 'x');
    await fs.writeFile(inbound('esc\u001b[31m.835'), 'x');
    await fs.writeFile(inbound('back\\slash.835'), 'x');
    await fs.writeFile(inbound('.upload-under-way.x12.part'), 'x');
    await fs.writeFile(inbound('.profile'), 'x');
    await fs.symlink('/etc/hostname', inbound('link.835'));
    await fs.mkdir(inbound('sub'));

    const mailbox = await open();
    const { files, skipped } = await mailbox.listInbound();
    expect(files).toEqual([
      { name: '999-a.x12', size: 5, modifyTime: new Date('2026-01-01') },
      { name: '835-b.x12', size: 5, modifyTime: new Date('2026-01-02') },
    ]);
    expect(Object.fromEntries(skipped.map((s) => [s.name, s.reason]))).toEqual({
      '..evil': 'unsafe file name "..evil": it starts with a dot; not read',
      'bad\nname.835': 'unsafe file name "bad\\nname.835": it contains a control character; not read',
      'esc\u001b[31m.835': 'unsafe file name "esc\\u001b[31m.835": it contains a control character; not read',
      'back\\slash.835': 'unsafe file name "back\\\\slash.835": it contains a path separator (/ or \\); not read',
      'link.835': '"link.835" is not a regular file (a link or device); not read',
    });

    // Named by a caller, the same names are refused too, and a link is not followed.
    await failure(mailbox.fetch('..evil'), 'unsafe_name');
    await failure(mailbox.fetch('bad\nname.835'), 'unsafe_name');
    await failure(mailbox.fetch('../outbound/x'), 'unsafe_name');
    const link = await failure(mailbox.fetch('link.835'), 'not_found');
    expect(link.message).toBe('fetch "link.835" from /inbound: not a regular file');
    expect(server.requests.some((r) => r.kind === 'OPEN')).toBe(false);
    await failure(mailbox.fetch('missing.835'), 'not_found');
  });

  it('refuses a file over maxBytes without reading a byte of it', async () => {
    await fs.writeFile(inbound('big.835'), Buffer.alloc(2_000, 'A'));
    const mailbox = await open();
    const error = await failure(mailbox.fetch('big.835', { maxBytes: 1_000 }), 'too_large');
    expect(error.message).toBe('fetch "big.835" from /inbound: 2000 bytes, over the limit of 1000 bytes; not read');
    expect(server.requests.some((r) => r.kind === 'OPEN')).toBe(false);
    expect(server.bytesRead('/inbound/big.835')).toBe(0);
    expect((await mailbox.fetch('big.835', { maxBytes: 2_000 })).length).toBe(2_000);

    // The default cap is 50 MB (a sparse file: nothing written to the disk).
    await fs.truncate(inbound('big.835'), DEFAULT_MAX_BYTES + 1);
    server.requests.length = 0;
    await failure(mailbox.fetch('big.835'), 'too_large');
    expect(server.requests.some((r) => r.kind === 'OPEN')).toBe(false);
  });

  it('stops reading a file that grows past maxBytes once opened', async () => {
    await fs.writeFile(inbound('growing.835'), Buffer.alloc(500, 'A'));
    server.beforeRequest = async (request) => {
      if (request.kind === 'OPEN' && request.path === '/inbound/growing.835') {
        await fs.appendFile(inbound('growing.835'), Buffer.alloc(1_000_000, 'B'));
      }
    };
    const mailbox = await open();
    const error = await failure(mailbox.fetch('growing.835', { maxBytes: 1_000 }), 'too_large');
    expect(error.message).toContain('it grew while being read');
    expect(server.bytesRead('/inbound/growing.835')).toBe(1_001);
    expect(server.requests.at(-1)).toMatchObject({ kind: 'CLOSE', path: '/inbound/growing.835' });
  });

  it('archives a read file into processed/, so it is not listed again', async () => {
    await fs.writeFile(inbound('277CA-1.x12'), 'ACK');
    const mailbox = await open();
    expect((await mailbox.listInbound()).files.map((f) => f.name)).toEqual(['277CA-1.x12']);
    expect((await mailbox.fetch('277CA-1.x12')).toString()).toBe('ACK');
    expect(await mailbox.archive('277CA-1.x12')).toBe('processed/277CA-1.x12');
    expect(await mailbox.listInbound()).toEqual({ files: [], skipped: [] });
    expect(await fs.readFile(inbound('processed/277CA-1.x12'), 'utf8')).toBe('ACK');

    // The same name delivered again: archived beside the first, which keeps its place.
    await fs.writeFile(inbound('277CA-1.x12'), 'ACK again');
    const second = await mailbox.archive('277CA-1.x12');
    expect(second).toMatch(/^processed\/277CA-1\.x12\.\d{8}T\d{9}Z$/);
    expect(await fs.readFile(inbound(second), 'utf8')).toBe('ACK again');
    expect(await fs.readFile(inbound('processed/277CA-1.x12'), 'utf8')).toBe('ACK');

    await failure(mailbox.archive('277CA-1.x12'), 'not_found');
  });

  it('removes a read file, for a mailbox without a folder of ours', async () => {
    await fs.writeFile(inbound('271-1.x12'), 'ELIG');
    const mailbox = await open();
    await mailbox.remove('271-1.x12');
    expect(await fs.readdir(path.join(root, 'inbound'))).toEqual([]);
    await failure(mailbox.remove('271-1.x12'), 'not_found');
  });
});

describe('the test server', () => {
  it('answers a path that leaves its root with permission denied, through .. or a link', async () => {
    await fs.symlink(os.tmpdir(), path.join(root, 'escape'));
    try {
      const above = await open({ inboundDir: '/../..' });
      const error = await failure(above.listInbound(), 'io');
      expect(error.message).toBe(`list /../..: permission denied by 127.0.0.1:${server.port}`);
      const throughLink = await open({ inboundDir: '/escape' });
      await failure(throughLink.listInbound(), 'io');
    } finally {
      await fs.unlink(path.join(root, 'escape'));
    }
  });
});
