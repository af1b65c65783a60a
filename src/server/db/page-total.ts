import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from './types';

/**
 * A first page's total ("Showing 50 of 1,003,000") as one more column of the page's own rows, so opening a
 * list is one statement rather than the page and its count side by side: on this machine each statement costs
 * the server and PostgreSQL a round trip's CPU, and the count was a third of the lists' statements
 * (docs/performance.md, "A first page and its count in one statement"). The count is an uncorrelated scalar
 * subquery, which PostgreSQL runs once for the statement, not once per row.
 */
export const PAGE_TOTAL = 'pageTotal';

/** `, (<count>) as "pageTotal"` for a raw select list; nothing when no total is wanted. */
export function pageTotalColumn(count: SQL<number> | null): SQL {
  return count === null ? sql`` : sql`, (${count})::int as ${sql.identifier(PAGE_TOTAL)}`;
}

/**
 * The total the page's rows carry, or null when none was wanted. A page without rows has no row to carry it
 * (an offset past the end, or nothing matches): then it is counted on its own, the same count.
 */
export async function pageTotalOf(
  db: DbOrTx,
  rows: readonly Record<string, unknown>[],
  count: SQL<number> | null,
): Promise<number | null> {
  if (count === null) return null;
  const first = rows[0];
  if (first !== undefined) return Number(first[PAGE_TOTAL]);
  const { rows: counted } = await db.execute<{ n: number }>(sql`select (${count})::int as n`);
  return Number(counted[0]?.n ?? 0);
}
