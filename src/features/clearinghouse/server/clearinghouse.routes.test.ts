import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sshFingerprint, sshKeyPair, startSftpServer, type SftpTestServer } from '@/testing/sftp-server';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { openSecret, sealSecret } from '@/server/secret-box';
import type {
  MailboxFilePage,
  MailboxRunResult,
  MailboxSettings,
  MailboxSettingsInput,
  MailboxTestResult,
} from '../clearinghouse.schema';

const PASSWORD = 'route test password 3';
const key = randomBytes(32);
const clientKey = sshKeyPair();
let t: TestApp;
let root: string;
let server: SftpTestServer;
let admin: SignedIn;

const sql = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await t.database.pool.query(text, values)).rows as T[];

beforeAll(async () => {
  t = await createTestApp({ mfaEncryptionKey: key });
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'mailbox-routes-'));
  await fs.mkdir(path.join(root, 'outbound'));
  await fs.mkdir(path.join(root, 'inbound'));
  server = await startSftpServer({
    root,
    users: [{ username: 'clinic', password: PASSWORD, publicKey: clientKey.publicKey }],
  });
  admin = await signInAs(t.app, 'admin');
});

afterAll(async () => {
  await server?.close();
  await t?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

function input(overrides: Partial<MailboxSettingsInput> = {}): MailboxSettingsInput {
  return {
    enabled: true,
    host: server.host,
    port: server.port,
    username: 'clinic',
    auth: 'password',
    secret: PASSWORD,
    hostKeySha256: server.hostKeySha256,
    outboundDir: '/outbound',
    inboundDir: '/inbound',
    pollMinutes: 15,
    eveningTime: '19:30',
    maxFailures: 5,
    ...overrides,
  };
}

const put = (body: unknown, as: SignedIn = admin) =>
  as.request({ method: 'PUT', url: '/api/clearinghouse/mailbox', payload: body as object });

describe('the mailbox settings', () => {
  it('refuses bad settings naming the field and the rule, and saves nothing', async () => {
    const cases: [Partial<MailboxSettingsInput>, string, RegExp][] = [
      [{ host: 'bad host!' }, 'host', /host name or an IP address/],
      [{ port: 70000 }, 'port', /between 1 and 65535/],
      [{ outboundDir: '/out/../etc' }, 'outboundDir', /must not contain '\.\.'/],
      [{ inboundDir: 'inbound' }, 'inboundDir', /absolute path/],
      [{ inboundDir: '/outbound' }, 'inboundDir', /must differ from the outbound folder/],
      [{ hostKeySha256: 'SHA256:short' }, 'hostKeySha256', /ssh-keygen -lf/],
      [{ pollMinutes: 4 }, 'pollMinutes', /between 5 and 1440 minutes/],
      [{ pollMinutes: 1441 }, 'pollMinutes', /between 5 and 1440 minutes/],
      [{ eveningTime: '24:00' }, 'eveningTime', /HH:MM/],
      [{ maxFailures: 0 }, 'maxFailures', /between 1 and 100/],
      [{ secret: '' }, 'secret', /is required to enable the mailbox/],
      [{ auth: 'key', secret: 'not a key' }, 'secret', /private key in PEM or OpenSSH format/],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await put(input(overrides));
      expect(res.statusCode, field).toBe(400);
      const error = res.json<{ error: { fields: { field: string; message: string }[] } }>().error;
      expect(error.fields.find((f) => f.field === field)?.message, field).toMatch(message);
    }
    expect(await sql('select * from clearinghouse_mailbox')).toEqual([]);
    const fresh = (await admin.request({ method: 'GET', url: '/api/clearinghouse/mailbox' })).json<MailboxSettings>();
    expect(fresh).toMatchObject({ enabled: false, hasSecret: false, port: 22, pollMinutes: 15, sendFrom: null });
  });

  it('stores the secret sealed with the install key, never answers it and audits without it', async () => {
    const saved = await put(input());
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain(PASSWORD);
    expect(saved.json<MailboxSettings>()).toMatchObject({ enabled: true, hasSecret: true, eveningTime: '19:30' });
    const [row] = await sql<{ secret_sealed: string; send_from: Date }>(
      'select secret_sealed, send_from from clearinghouse_mailbox',
    );
    expect(row!.secret_sealed).not.toContain(PASSWORD);
    expect(row!.secret_sealed).toMatch(/^v1\./);
    expect(openSecret(key, row!.secret_sealed, 'clearinghouse-mailbox')).toBe(PASSWORD);
    // Bound to its use: the same ciphertext does not open as a TOTP secret.
    expect(() => openSecret(key, row!.secret_sealed, 'user:1')).toThrow();
    expect(() => openSecret(randomBytes(32), row!.secret_sealed, 'clearinghouse-mailbox')).toThrow();

    const got = await admin.request({ method: 'GET', url: '/api/clearinghouse/mailbox' });
    expect(got.body).not.toContain(PASSWORD);
    expect(got.body).not.toContain(row!.secret_sealed);
    expect(got.json<MailboxSettings>().sendFrom).toBe(new Date(row!.send_from).toISOString());

    // An empty secret keeps the stored one, and a second enabling keeps the first send_from.
    t.clock.advance(60_000);
    await put(input({ secret: '', enabled: false }));
    await put(input({ secret: '' }));
    const [after] = await sql<{ secret_sealed: string; send_from: Date }>(
      'select secret_sealed, send_from from clearinghouse_mailbox',
    );
    expect(after).toEqual(row);

    const audit = await sql<{ detail: string }>(
      `select detail from audit_log where action = 'clearinghouse_mailbox.update' order by id`,
    );
    expect(audit.length).toBe(3);
    expect(audit[0]!.detail).toMatch(/secret replaced/);
    expect(audit[2]!.detail).toMatch(/secret kept/);
    expect(audit.some((a) => a.detail.includes(PASSWORD) || a.detail.includes(row!.secret_sealed))).toBe(false);
  });

  it('tests the connection: ok with the pinned key, the reason in words otherwise', async () => {
    await fs.writeFile(path.join(root, 'inbound', 'waiting.835'), 'x');
    const ok = await admin.request({ method: 'POST', url: '/api/clearinghouse/mailbox/test' });
    expect(ok.json<MailboxTestResult>()).toEqual({
      ok: true,
      message: `Connected to 127.0.0.1 as clinic: 1 file waiting in /inbound.`,
      hostKeySha256: server.hostKeySha256,
      inboundFiles: 1,
    });
    await fs.rm(path.join(root, 'inbound', 'waiting.835'));

    await put(input({ secret: '', hostKeySha256: sshFingerprint(clientKey.publicKey) }));
    const wrongKey = (
      await admin.request({ method: 'POST', url: '/api/clearinghouse/mailbox/test' })
    ).json<MailboxTestResult>();
    expect(wrongKey).toMatchObject({ ok: false, inboundFiles: null });
    expect(wrongKey.message).toMatch(/^The server's host key is not the pinned one: not signed in: /);

    // A secret sealed under another key (the install's key was replaced) is reported, not a crash.
    const [{ secret_sealed: sealed }] = (await sql<{ secret_sealed: string }>(
      'select secret_sealed from clearinghouse_mailbox',
    )) as [{ secret_sealed: string }];
    await sql(`update clearinghouse_mailbox set secret_sealed = $1`, [
      sealSecret(randomBytes(32), PASSWORD, 'clearinghouse-mailbox'),
    ]);
    const unreadable = (
      await admin.request({ method: 'POST', url: '/api/clearinghouse/mailbox/test' })
    ).json<MailboxTestResult>();
    expect(unreadable).toMatchObject({
      ok: false,
      message: expect.stringMatching(/does not open with this server's encryption key/) as string,
    });
    await sql(`update clearinghouse_mailbox set secret_sealed = $1`, [sealed]);

    // Signing in by key: the key is sealed like the password.
    await put(input({ auth: 'key', secret: clientKey.privateKey }));
    const byKey = (
      await admin.request({ method: 'POST', url: '/api/clearinghouse/mailbox/test' })
    ).json<MailboxTestResult>();
    expect(byKey.ok).toBe(true);
  });

  it('runs a send and fetch now and lists what moved, newest first, filtered and paged', async () => {
    await fs.writeFile(path.join(root, 'inbound', 'hello.txt'), 'hello, not X12');
    await fs.writeFile(path.join(root, 'inbound', 'other.txt'), 'another, not X12');
    const run = await admin.request({ method: 'POST', url: '/api/clearinghouse/mailbox/run' });
    expect(run.json<MailboxRunResult>()).toMatchObject({ ok: true, refused: 2, message: '2 files refused' });

    const biller = await signInAs(t.app, 'billing_admin');
    const page = (
      await biller.request({ method: 'GET', url: '/api/clearinghouse/files?direction=in&limit=1' })
    ).json<MailboxFilePage>();
    expect(page.total).toBe(2);
    expect(page.items).toEqual([
      expect.objectContaining({ remoteName: 'other.txt', status: 'refused', kind: 'unknown', direction: 'in' }),
    ]);
    expect(page.items[0]!.detail).toMatch(/^refused: not X12/);
    const next = (
      await biller.request({
        method: 'GET',
        url: `/api/clearinghouse/files?direction=in&limit=1&cursor=${page.nextCursor}`,
      })
    ).json<MailboxFilePage>();
    expect(next.items.map((f) => f.remoteName)).toEqual(['hello.txt']);
    expect(next.nextCursor).toBeNull();
    const sent = (
      await biller.request({ method: 'GET', url: '/api/clearinghouse/files?status=sent' })
    ).json<MailboxFilePage>();
    expect(sent).toEqual({ items: [], nextCursor: null, total: 0 });
    const bad = await biller.request({ method: 'GET', url: '/api/clearinghouse/files?status=lost' });
    expect(bad.statusCode).toBe(400);

    // Billing reads the log but not the settings.
    expect((await biller.request({ method: 'GET', url: '/api/clearinghouse/mailbox' })).statusCode).toBe(403);
    expect((await put(input(), biller)).statusCode).toBe(403);
  });
});
