import { performance } from 'node:perf_hooks';
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

const CHUNK_SIZE = 262_144;

/** Joins lines into chunks of about 256 KB: one stream write per chunk instead of one per row. */
function* chunks(lines: Iterable<string>): Generator<string> {
  let buffer: string[] = [];
  let size = 0;
  for (const line of lines) {
    buffer.push(line);
    size += line.length;
    if (size >= CHUNK_SIZE) {
      yield buffer.join('');
      buffer = [];
      size = 0;
    }
  }
  if (buffer.length > 0) yield buffer.join('');
}

/**
 * COPY lines generated ahead, in the background: the generator runs in slices of a few milliseconds, each
 * in its own turn of the event loop, so the database connection keeps being served while the lines are
 * made. Generating rows costs this process about as much CPU as parsing them costs PostgreSQL; made while
 * the database works alone on something else (a set-based insert, an index build), the COPY later only
 * waits for PostgreSQL. The lines are kept as ~256 KB chunks (a few hundred strings, not a million) and
 * each is released once streamed.
 */
export class PrefetchedLines implements AsyncIterable<string> {
  private readonly ready: (string | undefined)[] = [];
  private finished = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  /** Settles when every line is made (or the generator threw). */
  readonly done: Promise<void>;

  constructor(lines: Iterable<string>, sliceMs = 8) {
    const source = lines[Symbol.iterator]();
    let settle: () => void = () => {};
    this.done = new Promise((resolve) => (settle = resolve));
    let pending: string[] = [];
    let pendingSize = 0;
    const step = () => {
      try {
        const until = performance.now() + sliceMs;
        for (let made = 0; ; made += 1) {
          // Reading the clock costs too: every 16 lines is often enough for slices of a few milliseconds.
          if (made % 16 === 15 && performance.now() >= until) break;
          const next = source.next();
          if (next.done) {
            this.finished = true;
            break;
          }
          pending.push(next.value);
          pendingSize += next.value.length;
          if (pendingSize >= CHUNK_SIZE) {
            this.ready.push(pending.join(''));
            pending = [];
            pendingSize = 0;
          }
        }
        if (this.finished && pending.length > 0) this.ready.push(pending.join(''));
      } catch (error) {
        this.failure = error instanceof Error ? error : new Error(String(error));
        this.finished = true;
      }
      this.wake?.();
      this.wake = null;
      if (this.finished) settle();
      else setImmediate(step);
    };
    setImmediate(step);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<string> {
    for (let at = 0; ;) {
      if (at < this.ready.length) {
        const chunk = this.ready[at] ?? '';
        this.ready[at] = undefined;
        at += 1;
        yield chunk;
        continue;
      }
      if (this.failure !== null) throw this.failure;
      if (this.finished) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

/** Streams rows (each a COPY text line ending in \n) into `table` with COPY FROM STDIN; returns the row count. */
export async function copyRows(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  lines: Iterable<string> | PrefetchedLines,
  options: { freeze?: boolean } = {},
): Promise<number> {
  const freeze = options.freeze ? ' with (freeze)' : '';
  const stream = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin${freeze}`));
  await pipeline(Readable.from(lines instanceof PrefetchedLines ? lines : chunks(lines)), stream);
  return Number(stream.rowCount);
}
