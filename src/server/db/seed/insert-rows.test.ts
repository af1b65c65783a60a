import { sql } from 'drizzle-orm';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coverages } from '@/features/coverage/server/coverage.table';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';
import { insertRows } from './insert-rows';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
});

describe('insertRows', () => {
  it('writes what Drizzle would: defaults for left-out keys, nulls, dates, and the ids in the rows’ order', async () => {
    const [patient] = (await database.db.execute<{ id: number }>(sql`select id from patients order by id desc limit 1`))
      .rows;
    const patientId = Number(patient?.id);
    const base = {
      patientId,
      payer: 'Aetna',
      memberId: 'W123456789',
      relationship: 'self' as const,
      effectiveOn: '2026-01-01',
    };
    // The second row leaves priority and the end date out: the column defaults apply to it alone.
    const rows = [
      { ...base, priority: 3, endOn: '2026-12-31', groupNumber: null },
      { ...base, memberId: 'W987654321' },
    ];
    const ids = await database.db.transaction((tx) => insertRows(tx, coverages, rows, { returningIds: true }));
    expect(ids).toHaveLength(2);
    const stored = (
      await database.db.execute<{ id: number; member_id: string; priority: number; end_on: string | null }>(
        sql`select id, member_id, priority, end_on::text from coverages where id = any(${`{${ids.join(',')}}`}::int[])
          order by id`,
      )
    ).rows.map((r) => ({ ...r, id: Number(r.id) }));
    expect(stored).toEqual([
      { id: ids[0], member_id: 'W123456789', priority: 3, end_on: '2026-12-31' },
      { id: ids[1], member_id: 'W987654321', priority: 1, end_on: null },
    ]);
  });

  it('splits rows over statements under PostgreSQL’s parameter limit and rolls back with the transaction', async () => {
    const count = async () =>
      Number((await database.db.execute<{ n: number }>(sql`select count(*)::int as n from coverages`)).rows[0]?.n);
    const before = await count();
    const [patient] = (await database.db.execute<{ id: number }>(sql`select min(id) as id from patients`)).rows;
    // 7 columns a row: 9,000 rows are 63,000 values, more than one statement takes (60,000), so two statements.
    const rows = Array.from({ length: 9000 }, (_, i) => ({
      patientId: Number(patient?.id),
      payer: 'Cigna',
      memberId: `M${String(i).padStart(9, '0')}`,
      relationship: 'self' as const,
      effectiveOn: '2026-01-01',
      priority: 1 + (i % 3),
      groupNumber: 'G-1',
    }));
    let inTransaction = 0;
    await database.db
      .transaction(async (tx) => {
        const ids = await insertRows(tx, coverages, rows, { returningIds: true });
        expect(new Set(ids).size).toBe(9000);
        expect([...ids].sort((a, b) => a - b)).toEqual(ids);
        inTransaction = Number(
          (await tx.execute<{ n: number }>(sql`select count(*)::int as n from coverages`)).rows[0]?.n,
        );
        throw new Error('roll back');
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error) || error.message !== 'roll back') throw error;
      });
    expect(inTransaction).toBe(before + 9000);
    expect(await count()).toBe(before);
  });
});

describe('insertRows and a $defaultFn', () => {
  // A table of the test's own (none of the seeded tables has a $defaultFn today): Drizzle fills a key a row
  // leaves out from its $defaultFn, and so must insertRows, even when no row gives that key.
  const tagged = pgTable('insert_rows_tagged', {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    label: text('label').notNull(),
    tag: text('tag')
      .notNull()
      .$defaultFn(() => 'from-defaultFn'),
  });

  it('fills a left-out key from it, and keeps a value a row gives', async () => {
    await database.db
      .transaction(async (tx) => {
        await tx.execute(
          sql`create temp table insert_rows_tagged (id int generated always as identity primary key, label text not null, tag text not null)`,
        );
        await insertRows(tx, tagged, [{ label: 'a' }, { label: 'b', tag: 'given' }]);
        await insertRows(tx, tagged, [{ label: 'c' }]);
        const rows = (
          await tx.execute<{ label: string; tag: string }>(sql`select label, tag from insert_rows_tagged order by id`)
        ).rows;
        expect(rows).toEqual([
          { label: 'a', tag: 'from-defaultFn' },
          { label: 'b', tag: 'given' },
          { label: 'c', tag: 'from-defaultFn' },
        ]);
        throw new Error('roll back');
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error) || error.message !== 'roll back') throw error;
      });
  });
});
