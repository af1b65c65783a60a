import { sql, type SQL } from 'drizzle-orm';
import { HttpError } from '@/server/plugins/errors';

/**
 * Keyset (cursor) paging shared by the paged lists (claims, patients, authorizations; the audit log has
 * its own older cursor). A cursor is opaque to the client: base64url of [sort, dir, key values…, id] of
 * the last row shown. The next page is the rows strictly after that tuple in the list's order, which an
 * index on (sort key…, id) finds directly, so page 10,000 costs what page 1 does, and rows written in the
 * meantime neither shift nor repeat a page.
 */

/** How one key value is checked when a cursor comes back (it becomes an SQL parameter of that type). */
export type KeyKind = 'text' | 'int' | 'date';

export type KeyValue = string | number;

export interface Keyset {
  values: KeyValue[];
  id: number;
}

const DATE = /^(\d{4}-\d{2}-\d{2}|infinity|-infinity)$/;

function fits(kind: KeyKind, value: unknown): value is KeyValue {
  switch (kind) {
    case 'text':
      return typeof value === 'string' && value.length <= 500;
    case 'int':
      return Number.isSafeInteger(value);
    case 'date':
      return typeof value === 'string' && DATE.test(value);
  }
}

export function encodeCursor(sort: string, dir: 'asc' | 'desc', keyset: Keyset): string {
  return Buffer.from(JSON.stringify([sort, dir, ...keyset.values, keyset.id])).toString('base64url');
}

export function badCursor(): HttpError {
  return new HttpError(400, 'VALIDATION_FAILED', 'cursor: is not a cursor this server issued for this sort', {
    fields: [{ field: 'cursor', message: 'is not a cursor this server issued for this sort' }],
  });
}

/**
 * The key values of a cursor issued for this sort and direction, each checked against its kind; anything
 * else (forged, truncated, or from another sort) is a 400 naming `cursor`.
 */
export function decodeCursor(text: string, sort: string, dir: 'asc' | 'desc', kinds: readonly KeyKind[]): Keyset {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(value) || value.length !== kinds.length + 3 || value[0] !== sort || value[1] !== dir) {
    throw badCursor();
  }
  const values = value.slice(2, 2 + kinds.length) as unknown[];
  const id: unknown = value[value.length - 1];
  if (!values.every((v, i) => fits(kinds[i] as KeyKind, v)) || !Number.isSafeInteger(id) || (id as number) <= 0) {
    throw badCursor();
  }
  return { values: values, id: id as number };
}

/** A key value as a typed SQL parameter, so the comparison uses the column's type (and its index). */
export function keyParam(kind: KeyKind, value: KeyValue): SQL {
  switch (kind) {
    case 'text':
      return sql`${value}::text`;
    case 'int':
      return sql`${value}::int`;
    case 'date':
      return sql`${value}::date`;
  }
}

/**
 * Rows strictly after the cursor in (keys…, id) order, every column in the same direction: one row
 * comparison, which a btree index on the same columns serves as a range (forwards or backwards).
 */
export function afterCursor(
  keys: readonly SQL[],
  idColumn: SQL,
  kinds: readonly KeyKind[],
  dir: 'asc' | 'desc',
  cursor: Keyset,
): SQL {
  const left = sql.join([...keys, idColumn], sql`, `);
  const right = sql.join(
    [...cursor.values.map((v, i) => keyParam(kinds[i] as KeyKind, v)), sql`${cursor.id}::int`],
    sql`, `,
  );
  return dir === 'asc' ? sql`(${left}) > (${right})` : sql`(${left}) < (${right})`;
}

/** `asc` or `desc` as SQL. */
export function direction(dir: 'asc' | 'desc'): SQL {
  return sql.raw(dir);
}
