import type pg from 'pg';

type TamperableColumn = 'actor' | 'detail' | 'client_addr' | 'user_agent';

async function setColumn(pool: pg.Pool, id: number, column: TamperableColumn, value: string): Promise<string> {
  // The append-only trigger refuses every change, even the test superuser's; a tamperer with the
  // database owner's rights lifts it for one statement, as this does.
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('alter table audit_log disable trigger audit_log_no_update_delete');
    const { rows } = await client.query<{ old: string }>(
      `update audit_log a set ${column} = $2 from audit_log before
        where a.id = $1 and before.id = a.id returning before.${column} as old`,
      [id, value],
    );
    await client.query('alter table audit_log enable trigger audit_log_no_update_delete');
    await client.query('commit');
    const old = rows[0]?.old;
    if (old === undefined) throw new Error(`no audit entry ${id} to tamper with`);
    return old;
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
}

/**
 * Runs `work` while one audit entry's column holds `value`, as if someone had edited it in SQL, and puts
 * the original back afterwards, whatever happened: the file's later tests see an intact chain again.
 */
export async function withAuditEntryTampered<T>(
  pool: pg.Pool,
  id: number,
  change: { column: TamperableColumn; value: string },
  work: () => Promise<T>,
): Promise<T> {
  const original = await setColumn(pool, id, change.column, change.value);
  try {
    return await work();
  } finally {
    await setColumn(pool, id, change.column, original);
  }
}
