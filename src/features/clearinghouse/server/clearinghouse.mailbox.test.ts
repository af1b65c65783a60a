import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedClaimBatches } from '@/features/submission/submission.schema';
import { pendingClaimBatches } from '@/features/submission/server/submission.batches.queries';
import { ack999 } from '@/testing/x12-acknowledgements';
import { amt, eraFile, eraHeader } from '@/testing/era-files';
import { startSftpServer, type SftpTestServer } from '@/testing/sftp-server';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { RequestContext } from '@/server/context';
import type { MailboxSettingsInput } from '../clearinghouse.schema';
import { fetchInbound, INBOUND_READERS, runMailbox, sendOutbound } from './clearinghouse.mailbox';
import { loadMailbox } from './clearinghouse.queries';
import { connectMailbox } from './clearinghouse.sftp';
import { runSyncJob } from './clearinghouse.jobs';

const PASSWORD = 'mailbox password 7';
const key = randomBytes(32);
let t: TestApp;
let root: string;
let server: SftpTestServer;
let admin: SignedIn;
let biller: SignedIn;

const sql = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await t.database.pool.query(text, values)).rows as T[];

beforeAll(async () => {
  t = await createTestApp({ mfaEncryptionKey: key });
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'mailbox-run-'));
  server = await startSftpServer({ root, users: [{ username: 'clinic', password: PASSWORD }] });
  admin = await signInAs(t.app, 'admin');
  biller = await signInAs(t.app, 'billing_admin');
  await save({});
});

afterAll(async () => {
  await server?.close();
  await t?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

beforeEach(async () => {
  for (const folder of ['outbound', 'inbound']) {
    await fs.rm(path.join(root, folder), { recursive: true, force: true });
    await fs.mkdir(path.join(root, folder));
  }
});

function settings(overrides: Partial<MailboxSettingsInput>): MailboxSettingsInput {
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
    eveningTime: '19:00',
    maxFailures: 3,
    ...overrides,
  };
}

async function save(overrides: Partial<MailboxSettingsInput>) {
  const res = await admin.request({ method: 'PUT', url: '/api/clearinghouse/mailbox', payload: settings(overrides) });
  expect(res.statusCode, res.body).toBe(200);
}

async function context(): Promise<RequestContext> {
  const [user] = await sql<{ id: number; email: string; name: string }>(
    `select id, email, name from users where role = 'admin' order by id limit 1`,
  );
  return { user: { ...user!, role: 'admin', patientId: null }, now: t.clock() };
}

async function run(options: { maxBytes?: number } = {}) {
  const mailbox = await loadMailbox(t.database.db, key);
  return runMailbox(t.database.db, await context(), mailbox, { key, timeoutMs: 5_000, ...options });
}

async function makeBatch(payer: string): Promise<CreatedClaimBatches['batches'][number]> {
  const rows = await sql<{ id: number }>(
    `update claims set status = 'Ready' where id in (
       select c.id from claims c where c.payer = $1 and c.voided_at is null and c.status not in ('Ready', 'Submitted')
         and not exists (select 1 from claim_batch_claims bc where bc.claim_id = c.id)
       order by c.id limit 2)
     returning id`,
    [payer],
  );
  expect(rows.length).toBe(2);
  const res = await biller.request({
    method: 'POST',
    url: '/api/claim-batches',
    payload: { claimIds: rows.map((r) => r.id) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreatedClaimBatches>().batches[0]!;
}

const inbound = (name: string, content: string | Buffer) => fs.writeFile(path.join(root, 'inbound', name), content);
const listed = async (folder: string) => (await fs.readdir(path.join(root, folder))).sort();
const acknowledgements = async () =>
  Number((await sql<{ n: string }>('select count(*) as n from claim_acknowledgements'))[0]!.n);
const inboundRows = () =>
  sql<{ remote_name: string; status: string; detail: string; kind: string; attempts: number }>(
    `select remote_name, status, detail, kind, attempts from mailbox_files where direction = 'in' order by id`,
  );

describe('the mailbox run', () => {
  let batch: CreatedClaimBatches['batches'][number];

  it('puts a new claim batch once across two runs, and never one made before the mailbox was enabled', async () => {
    const old = await makeBatch('Aetna');
    const [{ send_from: sendFrom }] = (await sql<{ send_from: Date }>(
      'select send_from from clearinghouse_mailbox',
    )) as [{ send_from: Date }];
    await sql(`update claim_batches set created_at = $2::timestamptz - interval '1 minute' where id = $1`, [
      old.id,
      sendFrom,
    ]);
    batch = await makeBatch('Blue Cross Blue Shield');

    const first = await run();
    expect(first).toMatchObject({ ok: true, sent: 1, posted: 0, failed: 0 });
    const names = await listed('outbound');
    expect(names).toEqual([expect.stringMatching(/^837P_\d{9}_\d{12}\.x12$/) as string]);
    expect(names[0]).toContain(`_${String(batch.interchangeControlNumber).padStart(9, '0')}_`);
    const download = await biller.request({ method: 'GET', url: `/api/claim-batches/${batch.id}/837` });
    expect(await fs.readFile(path.join(root, 'outbound', names[0]!), 'utf8')).toBe(download.body);

    const second = await run();
    expect(second).toMatchObject({ ok: true, sent: 0 });
    expect(await listed('outbound')).toEqual(names);
    const rows = await sql<{ status: string; source_id: number }>(
      `select status, source_id from mailbox_files where direction = 'out'`,
    );
    expect(rows).toEqual([{ status: 'sent', source_id: batch.id }]);
    const mailed = await sql<{ id: number; mailed: boolean }>(
      'select id, mailed_at is not null as mailed from claim_batches where id = any($1) order by id',
      [[old.id, batch.id]],
    );
    expect(mailed).toEqual([
      { id: old.id, mailed: false },
      { id: batch.id, mailed: true },
    ]);
  });

  it('takes a file already in the outbound folder under its name as its own earlier, cut-off put', async () => {
    const next = await makeBatch('Blue Cross Blue Shield');
    const mailbox = await loadMailbox(t.database.db, key);
    const connection = await connectMailbox({
      host: server.host,
      port: server.port,
      username: 'clinic',
      password: PASSWORD,
      hostKeySha256: server.hostKeySha256,
      outboundDir: '/outbound',
      inboundDir: '/inbound',
      timeoutMs: 5_000,
    });
    try {
      // The put landed, then the server died before the run recorded it.
      const [pending] = await pendingClaimBatches(t.database.db, mailbox.sendFromDate!);
      expect(pending?.sourceId).toBe(next.id);
      await connection.put(pending!.fileName, pending!.text);
      const counts = await sendOutbound(t.database.db, await context(), connection, { since: mailbox.sendFromDate });
      expect(counts).toMatchObject({ sent: 1, failed: 0 });
      const [row] = await sql<{ status: string; detail: string }>(
        `select status, detail from mailbox_files where source_id = $1 and direction = 'out'`,
        [next.id],
      );
      expect(row).toMatchObject({
        status: 'sent',
        detail: expect.stringMatching(/already in the outbound folder/) as string,
      });
    } finally {
      await connection.close();
    }
  });

  it('posts a 999 once, even when the same file comes again under another name and on a later run', async () => {
    const [st] = await sql<{ n: number }>('select first_set_control_number as n from claim_batches where id = $1', [
      batch.id,
    ]);
    const file = ack999({
      interchangeControlNumber: 7001,
      groupControlNumber: batch.groupControlNumber,
      sets: [{ controlNumber: String(st!.n).padStart(4, '0'), code: 'A' }],
    });
    const before = await acknowledgements();
    await inbound('ack-7001.999', file);
    expect(await run()).toMatchObject({ ok: true, posted: 1, refused: 0 });
    expect(await acknowledgements()).toBe(before + 1);
    expect(await listed('inbound')).toEqual(['processed']);
    expect(await listed('inbound/processed')).toEqual(['ack-7001.999']);

    // Delivered again under another name, and the first copy moved back (the archive failed after the commit).
    await inbound('resent.txt', file);
    await fs.rename(path.join(root, 'inbound/processed/ack-7001.999'), path.join(root, 'inbound/ack-7001.999'));
    expect(await run()).toMatchObject({ ok: true, posted: 0, skipped: 2 });
    expect(await acknowledgements()).toBe(before + 1);
    expect(await listed('inbound')).toEqual(['processed']);
    const rows = (await inboundRows()).filter((r) => r.kind === '999');
    expect(rows).toEqual([
      expect.objectContaining({
        remote_name: 'ack-7001.999',
        status: 'posted',
        detail: expect.stringMatching(/^999: /) as string,
      }),
    ]);
    const [{ status }] = (await sql<{ status: string }>('select status from claim_batches where id = $1', [
      batch.id,
    ])) as [{ status: string }];
    expect(status).toBe('Accepted');
  });

  it('imports an 835 through the remittances feature, and refuses a re-delivery of its payments', async () => {
    // One payment for a claim we never sent: posted as an unmatched claim, for the work queue.
    const body = [
      ...eraHeader({ paid: amt(5000), trace: 'MBX-835-1' }),
      'CLP*NOT-OURS-1*1*100.00*50.00**12*PAYER-ICN-1',
      'CAS*CO*45*50.00',
    ];
    await inbound('era-1.835', eraFile(body, { controlNumber: 8001 }));
    const first = await run();
    expect(first).toMatchObject({ ok: true, posted: 1, refused: 0 });
    const [row] = (await inboundRows()).filter((r) => r.remote_name === 'era-1.835');
    expect(row).toMatchObject({ kind: '835', status: 'posted', detail: '835: 1 remittance imported' });
    const imported = await sql<{ n: string }>(`select count(*) as n from remittances where trace_number = 'MBX-835-1'`);
    expect(Number(imported[0]!.n)).toBe(1);

    // The same payment in another interchange: other bytes, so another hash, but the payer's trace was posted.
    await inbound('era-1-again.835', eraFile(body, { controlNumber: 8002 }));
    expect(await run()).toMatchObject({ ok: true, posted: 0, refused: 1 });
    const [again] = (await inboundRows()).filter((r) => r.remote_name === 'era-1-again.835');
    expect(again).toMatchObject({ status: 'refused', detail: 'every remittance in this 835 was imported before' });
    expect(
      Number(
        (await sql<{ n: string }>(`select count(*) as n from remittances where trace_number = 'MBX-835-1'`))[0]!.n,
      ),
    ).toBe(1);
  });

  it('refuses what it cannot read, each logged once with its reason, and posts nothing', async () => {
    const before = await acknowledgements();
    const good = ack999({
      interchangeControlNumber: 7002,
      groupControlNumber: 1,
      sets: [{ controlNumber: '0001', code: 'A' }],
    });
    // ISA11 (the repetition separator) the same character as the segment terminator: no reader could split it.
    await inbound('letters.999', good.replace('*^*', '*~*'));
    await inbound('big.835', `ISA${'*'.repeat(6000)}`);
    await inbound('binary.999', Buffer.from([0x49, 0x53, 0x41, 0x00, 0xff, 0x10]));
    const an837 = await biller.request({ method: 'GET', url: `/api/claim-batches/${batch.id}/837` });
    await inbound('claims.x12', an837.body);
    await inbound('..\\outbound\\x.999', good);
    await inbound('line\nbreak.999', good);
    const result = await run({ maxBytes: 5_000 });
    expect(result).toMatchObject({ ok: true, posted: 0, refused: 6 });
    const rows = Object.fromEntries(
      (await inboundRows()).filter((r) => r.status === 'refused').map((r) => [r.remote_name, r.detail]),
    );
    expect(rows['letters.999']).toMatch(/^refused: its delimiters are unusable: .*'~' repeat/);
    expect(rows['big.835']).toMatch(/over the limit of 5000 bytes; not read; moved to the archive folder$/);
    expect(rows['binary.999']).toMatch(/binary/);
    expect(rows['claims.x12']).toMatch(/does not read: 837 \(005010X222A1\)/);
    expect(rows['"..\\\\outbound\\\\x.999"']).toMatch(
      /^unsafe file name .*: it contains a path separator .*; not read; left on the server/,
    );
    expect(rows['"line\\nbreak.999"']).toMatch(/control character/);
    expect(await acknowledgements()).toBe(before);
    // Moved aside, except the two whose names cannot be used in a request; those stay, logged once.
    expect(await listed('inbound')).toEqual(['..\\outbound\\x.999', 'line\nbreak.999', 'processed']);
    const count = (await inboundRows()).length;
    expect(await run({ maxBytes: 5_000 })).toMatchObject({ ok: true, refused: 2, posted: 0 });
    expect((await inboundRows()).length).toBe(count);
    await fs.rm(path.join(root, 'inbound', '..\\outbound\\x.999'));
    await fs.rm(path.join(root, 'inbound', 'line\nbreak.999'));
  });

  it("makes a reader's refusal a 'refused' row and any other error a 'failed' row that the next run retries", async () => {
    const mailbox = await loadMailbox(t.database.db, key);
    const connection = await connectMailbox({
      host: server.host,
      port: server.port,
      username: 'clinic',
      password: PASSWORD,
      hostKeySha256: mailbox.hostKeySha256,
      outboundDir: '/outbound',
      inboundDir: '/inbound',
      timeoutMs: 5_000,
    });
    const a999 = ack999({
      interchangeControlNumber: 7003,
      groupControlNumber: 99_999,
      sets: [{ controlNumber: '0001', code: 'A' }],
    });
    const other = ack999({
      interchangeControlNumber: 7004,
      groupControlNumber: 99_998,
      sets: [{ controlNumber: '0001', code: 'A' }],
    });
    let calls = 0;
    const flaky = {
      ...INBOUND_READERS,
      '999': async () => {
        calls++;
        if (calls === 1) throw new Error('the database went away');
        return { summary: 'posted by the flaky reader' };
      },
    };
    try {
      // The real reader refuses a group control number no batch has (409/422 HttpError).
      await inbound('unknown-group.999', a999);
      expect(await fetchInbound(t.database.db, await context(), connection)).toMatchObject({ refused: 1 });
      await inbound('flaky.999', other);
      expect(await fetchInbound(t.database.db, await context(), connection, { readers: flaky })).toMatchObject({
        failed: 1,
      });
      expect(await listed('inbound')).toEqual(['flaky.999', 'processed']);
      expect(await fetchInbound(t.database.db, await context(), connection, { readers: flaky })).toMatchObject({
        posted: 1,
      });
      const rows = Object.fromEntries((await inboundRows()).map((r) => [r.remote_name, r]));
      expect(rows['unknown-group.999']).toMatchObject({
        status: 'refused',
        detail: 'body: AK1-02 group control number 99999 matches no batch sent',
      });
      expect(rows['flaky.999']).toMatchObject({ status: 'posted', attempts: 2, detail: 'posted by the flaky reader' });
    } finally {
      await connection.close();
    }
  });

  it('counts connection failures, opens one work item after the limit and resolves it on the next success', async () => {
    await save({ secret: 'wrong password', maxFailures: 2 });
    const items = () =>
      sql<{ resolved: boolean; outcome: string | null; reason: string }>(
        `select resolved_at is not null as resolved, outcome, reason from work_items where source = 'mailbox' order by id`,
      );
    const first = await run();
    expect(first).toMatchObject({
      ok: false,
      message: expect.stringMatching(
        /^The mailbox refused the user name, password or key: .*\(1 failure in a row\)$/,
      ) as string,
    });
    expect(await items()).toEqual([]);
    expect((await run()).message).toMatch(/2 failures in a row/);
    expect((await run()).message).toMatch(/3 failures in a row/);
    const open = await items();
    expect(open).toEqual([
      { resolved: false, outcome: null, reason: expect.stringMatching(/failed 2 times in a row/) as string },
    ]);
    await save({ maxFailures: 2 });
    expect(await run()).toMatchObject({ ok: true });
    expect(await items()).toEqual([{ resolved: true, outcome: 'fixed', reason: open[0]!.reason }]);
    const [state] = await sql<{ consecutive_failures: number; last_error: string | null }>(
      'select consecutive_failures, last_error from clearinghouse_mailbox',
    );
    expect(state).toEqual({ consecutive_failures: 0, last_error: null });
  });

  it('runs a scheduled sync only when the poll interval is due', async () => {
    const deps = { db: t.database.db, clock: t.clock, key };
    t.clock.advance(60_000);
    expect(await runSyncJob(deps, { timeoutMs: 5_000 })).toBeNull();
    t.clock.advance(15 * 60_000);
    expect(await runSyncJob(deps, { timeoutMs: 5_000 })).toMatchObject({ ok: true });
    expect(await runSyncJob(deps, { timeoutMs: 5_000 })).toBeNull();
    expect(await runSyncJob(deps, { timeoutMs: 5_000, force: true })).toMatchObject({ ok: true });
  });
});
