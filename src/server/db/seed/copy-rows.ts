import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Tx } from '../types';

/**
 * The pg client under a Drizzle transaction, for COPY (which Drizzle does not speak). It is the client
 * the transaction runs on, so the COPY commits or rolls back with everything else.
 */
export function clientOf(tx: Tx): pg.PoolClient {
  const client = (tx as unknown as { session?: { client?: pg.PoolClient } }).session?.client;
  if (!client || typeof client.query !== 'function') throw new Error('no pg client under this transaction');
  return client;
}

/** A value in COPY's text format: `\N` for null, and the characters COPY treats specially escaped. */
export function copyText(value: string | number | boolean | null): string {
  if (value === null) return '\\N';
  if (typeof value !== 'string') return String(value);
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : value;
}

/** Joins lines into chunks of about 256 KB: one stream write per chunk instead of one per row. */
function* chunks(lines: Iterable<string>): Generator<string> {
  let buffer: string[] = [];
  let size = 0;
  for (const line of lines) {
    buffer.push(line);
    size += line.length;
    if (size >= 262_144) {
      yield buffer.join('');
      buffer = [];
      size = 0;
    }
  }
  if (buffer.length > 0) yield buffer.join('');
}

/** Streams rows (each a COPY text line ending in \n) into `table` with COPY FROM STDIN; returns the row count. */
export async function copyRows(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  lines: Iterable<string>,
  options: { freeze?: boolean } = {},
): Promise<number> {
  const freeze = options.freeze ? ' with (freeze)' : '';
  const stream = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin${freeze}`));
  await pipeline(Readable.from(chunks(lines)), stream);
  return Number(stream.rowCount);
}
