import { hash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_AUDIT_HMAC_KEY } from '@/testing/api-setup';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';
import {
  anchorAuditChain,
  hashedRest,
  record,
  recordMany,
  recordNow,
  useAuditHmacKey,
  verifyChain,
} from './audit.queries';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  useAuditHmacKey(TEST_AUDIT_HMAC_KEY);
  await database.drop();
});

/** As the database owner: the append-only trigger is lifted for the statements. */
async function asOwner(statements: (client: import('pg').PoolClient) => Promise<void>) {
  const client = await database.ownerPool.connect();
  try {
    await client.query('begin');
    await client.query('alter table audit_log disable trigger audit_log_no_update_delete');
    await statements(client);
    await client.query('alter table audit_log enable trigger audit_log_no_update_delete');
    await client.query('commit');
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
}

interface Row {
  id: string;
  ms: string;
  actor: string;
  actor_user_id: number | null;
  actor_role: string | null;
  action: string;
  resource: string;
  detail: string | null;
  patient_id: number | null;
  client_addr: string | null;
  user_agent: string | null;
  prev_hash: string;
  hash_version: number;
}

async function rows(): Promise<Row[]> {
  const result = await database.pool.query<Row>(
    `select id, round(extract(epoch from occurred_at) * 1000)::bigint as ms, actor, actor_user_id, actor_role, action,
            resource, detail, patient_id, client_addr, user_agent, prev_hash, hash_version
       from audit_log order by id`,
  );
  return result.rows;
}

/** What someone with SQL access but without the key can compute: the plain SHA-256 formula. */
function plainHash(prevHash: string, row: Row, detail: string | null): string {
  const rest = hashedRest({
    occurredAtMs: Number(row.ms),
    actor: row.actor,
    actorUserId: row.actor_user_id,
    actorRole: row.actor_role,
    action: row.action,
    resource: row.resource,
    detail,
    patientId: row.patient_id,
    clientAddr: row.client_addr,
    userAgent: row.user_agent,
  });
  return hash('sha256', `[${JSON.stringify(prevHash)},${rest}`);
}

const at = new Date('2026-11-22T15:00:00Z');

describe('the audit chain is anchored with an HMAC whose key is not in the database', () => {
  it('keeps entries written before the HMAC verifiable, anchored by the first HMAC entry after them', async () => {
    await asOwner((c) => c.query('delete from audit_log').then(() => undefined));
    useAuditHmacKey(null);
    for (let i = 0; i < 5; i += 1) {
      await recordNow(database.db, { actor: 'legacy', action: 'test.legacy', resource: `r${i}`, detail: 'old', at });
    }
    useAuditHmacKey(TEST_AUDIT_HMAC_KEY);
    // A plain tail with a key configured is what a rewrite without the key looks like: anchoring seals it.
    expect((await verifyChain(database.db)).ok).toBe(false);
    await anchorAuditChain(database.db, at);
    for (let i = 0; i < 2; i += 1) {
      await recordNow(database.db, { actor: 'now', action: 'test.hmac', resource: `r${i}`, detail: 'new', at });
    }
    // Staged outside a transaction of the caller's (its own statement's transaction commits it).
    await record(database.db, { actor: 'now', action: 'test.hmac', resource: 'r2', detail: 'alone', at });
    // A write's entries, chained as its transaction commits, get the HMAC too.
    await database.db.transaction(async (tx) => {
      await record(tx, { actor: 'now', action: 'test.hmac', resource: 'r3', detail: 'with a change', at });
      await recordMany(tx, [{ actor: 'now', action: 'test.hmac', resource: 'r4', detail: 'with a change', at }]);
    });
    expect((await rows()).map((r) => r.hash_version)).toEqual([1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
    expect(await verifyChain(database.db)).toEqual({ ok: true, checked: 11, firstBreak: null });
  });

  it('a tampered entry whose hash is recomputed with the plain SHA-256 formula still fails', async () => {
    const all = await rows();
    const target = all[7]!;
    await asOwner(async (c) => {
      await c.query(`update audit_log set detail = 'forged', hash = $2 where id = $1`, [
        target.id,
        plainHash(target.prev_hash, target, 'forged'),
      ]);
    });
    expect((await verifyChain(database.db)).firstBreak).toEqual({
      position: 8,
      id: Number(target.id),
      problem: 'modified',
    });
  });

  it('so does rewriting it and every entry after it as plain entries, links and all', async () => {
    const all = await rows();
    await asOwner(async (c) => {
      let prev = all[7]!.prev_hash;
      for (const row of all.slice(7)) {
        const detail = row === all[7] ? 'forged' : row.detail;
        const forged = plainHash(prev, row, detail);
        await c.query(`update audit_log set detail = $2, prev_hash = $3, hash = $4, hash_version = 1 where id = $1`, [
          row.id,
          detail,
          prev,
          forged,
        ]);
        prev = forged;
      }
    });
    const result = await verifyChain(database.db);
    expect(result.ok).toBe(false);
    expect(result.firstBreak).toEqual({ position: 8, id: Number(all[7]!.id), problem: 'modified' });
  });

  it('and so does rewriting the whole chain as plain entries', async () => {
    const all = await rows();
    await asOwner(async (c) => {
      let prev = '0'.repeat(64);
      for (const row of all) {
        const forged = plainHash(prev, row, row.detail);
        await c.query(`update audit_log set prev_hash = $2, hash = $3, hash_version = 1 where id = $1`, [
          row.id,
          prev,
          forged,
        ]);
        prev = forged;
      }
    });
    expect((await verifyChain(database.db)).ok).toBe(false);
  });
});
