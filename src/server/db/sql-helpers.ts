import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './types';

/** A CHECK constraint body restricting a text column to a fixed list (enums stay plain text + CHECK). */
export function oneOf(column: AnyPgColumn, values: readonly string[]): SQL {
  return sql`${column} in (${sql.join(
    values.map((v) => sql.raw(`'${v.replace(/'/g, "''")}'`)),
    sql`, `,
  )})`;
}

/**
 * The constraint a PostgreSQL unique violation (23505) names, or null when `err` is another error.
 * Drizzle wraps driver errors, so the cause is looked at too.
 */
export function uniqueViolationOf(err: unknown): string | null {
  for (const e of [err, (err as { cause?: unknown } | null)?.cause]) {
    if (typeof e === 'object' && e !== null && 'code' in e && e.code === '23505') {
      return 'constraint' in e && typeof e.constraint === 'string' ? e.constraint : '';
    }
  }
  return null;
}

/**
 * A column written with its table's name. In a one-table select Drizzle writes a column bare ("id"), which
 * inside a correlated subquery would name the subquery's own column: outer columns go through this.
 */
export function qualified(column: AnyPgColumn): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}

/** A row of a raw query, its columns as the driver gives them. */
export type RawRow = Record<string, unknown>;

/** The rows of a raw query (one that reads several tables' columns at once). */
export async function rawRows(db: DbOrTx, query: SQL): Promise<RawRow[]> {
  return (await db.execute(query)).rows;
}

/** A text column of a raw row: '' when null. */
export const rowText = (v: unknown): string => (typeof v === 'string' ? v : '');
/** A nullable text column of a raw row. */
export const rowTextOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);
