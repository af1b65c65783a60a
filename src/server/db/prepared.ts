import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { QueryResult, QueryResultRow } from 'pg';
import type { DbOrTx } from './types';

/**
 * Hot list reads as named prepared statements (docs/performance.md, "Planning the hot reads once").
 *
 * `db.execute` sends every statement unnamed, so PostgreSQL plans it on every call: for the Claims list's
 * page (four tables, a correlated sum, nineteen indexes on claims to weigh) planning took longer than running,
 * ~1 ms against ~0.5. A named statement is parsed once per connection, and after five executions PostgreSQL
 * keeps its generic plan when that plan is estimated no dearer than the custom ones (plan_cache_mode auto):
 * for such a page, when its LIMIT is written into the text (`literalLimit`) rather than bound, since a bound
 * LIMIT leaves the generic plan guessing at how many rows are wanted and it then loses to the custom plans.
 * The statement's name is a hash of its text, so one text is one statement on every connection and no two
 * texts share a name. Use it only for statements whose text comes from a bounded set of shapes (values bound
 * as parameters), since each connection keeps every statement it prepared.
 */
export async function executePrepared<T extends QueryResultRow>(db: DbOrTx, statement: SQL): Promise<QueryResult<T>> {
  // Drizzle's own path for a named query (what `.prepare(name)` on a query builder uses), so rows come back
  // typed as `db.execute` types them (dates and timestamps as text). Its dialect and session are not in its
  // published types.
  const { dialect, session } = db as unknown as DrizzleInternals;
  const query = dialect.sqlToQuery(statement);
  return session.prepareQuery(query, undefined, statementName(query.sql), false).execute() as Promise<QueryResult<T>>;
}

interface DrizzleInternals {
  dialect: { sqlToQuery(statement: SQL): { sql: string; params: unknown[] } };
  session: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string,
      isResponseInArrayMode: false,
    ): { execute(): Promise<unknown> };
  };
}

const MAX_REMEMBERED_NAMES = 1000;
const names = new Map<string, string>();

/** `p_` and 27 characters of the text's SHA-256 (base64url): fits PostgreSQL's 63-byte names. */
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `p_${createHash('sha256').update(text).digest('base64url').slice(0, 27)}`;
    if (names.size < MAX_REMEMBERED_NAMES) names.set(text, name);
  }
  return name;
}

/**
 * `limit n` with n in the statement's text: a whole number from a validated query (`limit` is bounded by its
 * schema), so the few values it takes make few statements.
 */
export function literalLimit(rows: number): SQL {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new RangeError(`a LIMIT must be a whole number, not ${rows}`);
  return sql.raw(`limit ${rows}`);
}

/** No OFFSET clause for the usual 0, so a first page and a cursor's next page share their text. */
export function offsetClause(offset: number): SQL {
  return offset > 0 ? sql` offset ${offset}` : sql``;
}
