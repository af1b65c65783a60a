import { getTableColumns, getTableName, is, SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../types';
import { clientOf } from './copy-rows';

/** PostgreSQL takes at most 65,535 parameters in one statement. */
const MAX_PARAMETERS = 60_000;

/**
 * Inserts the demo clinic's rows as Drizzle's `insert(table).values(rows)` would (a key a row leaves out takes
 * the column's `$defaultFn` value, else the database default; each value goes through its column's mapping to
 * the driver), in statements of as many rows as the parameter limit allows, and, asked, gives the new rows' ids
 * in the rows' order. Drizzle's query builder
 * spent about a second of CPU per re-seed building the statements of a few thousand rows (its entity checks
 * run for every value); these are written directly, on the transaction's own connection.
 */
export async function insertRows<T extends PgTable>(
  tx: Tx,
  table: T,
  rows: readonly T['$inferInsert'][],
  options: { returningIds?: boolean } = {},
): Promise<number[]> {
  if (rows.length === 0) return [];
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const records = rows as readonly Record<string, unknown>[];
  const keys = Object.keys(columns).filter(
    (key) => columns[key]!.defaultFn !== undefined || records.some((row) => row[key] !== undefined),
  );
  const names = keys.map((key) => `"${columns[key]!.name}"`).join(', ');
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, keys.length)));
  const client = clientOf(tx);
  const ids: number[] = [];
  for (let start = 0; start < records.length; start += perStatement) {
    const params: unknown[] = [];
    const tuples = records.slice(start, start + perStatement).map((row) => {
      const values = keys.map((key) => {
        const column = columns[key]!;
        let value = row[key];
        if (value === undefined && column.defaultFn) {
          value = column.defaultFn();
          // A default made of SQL would have to be written into the statement: no seeded table has one.
          if (is(value, SQL)) throw new Error(`insertRows: ${getTableName(table)}.${column.name}'s $defaultFn is SQL`);
        }
        if (value === undefined) return 'default';
        params.push(value === null ? null : column.mapToDriverValue(value));
        return `$${params.length}`;
      });
      return `(${values.join(', ')})`;
    });
    const text = `insert into "${getTableName(table)}" (${names}) values ${tuples.join(', ')}${
      options.returningIds ? ' returning id' : ''
    }`;
    const result = await client.query<{ id: number }>(text, params);
    if (options.returningIds) for (const row of result.rows) ids.push(Number(row.id));
  }
  return ids;
}
