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
 *
 * While one of them is being streamed into a COPY, the others wait: the COPY gets a chunk from this process
 * only between two slices of generation, and PostgreSQL takes a chunk in a few milliseconds, so a slice of
 * the next table's rows made meanwhile left it idle more than half the time (the scale seed's claims COPY
 * took 6.6 s with the audit entries made beside it, docs/performance.md).
 */
export class PrefetchedLines implements AsyncIterable<string | Buffer> {
  /** How many PrefetchedLines are being streamed right now. */
  private static streaming = 0;
  private readonly ready: (string | Buffer | undefined)[] = [];
  private streamed = false;
  private finished = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  /** Settles when every line is made (or the generator threw). */
  readonly done: Promise<void>;

  /** `lines`: COPY text lines, or chunks of binary COPY data (binaryCopyChunks), which are passed on as they are. */
  constructor(lines: Iterable<string | Buffer>, sliceMs = 8) {
    const source = lines[Symbol.iterator]();
    let settle: () => void = () => {};
    this.done = new Promise((resolve) => (settle = resolve));
    let pending: string[] = [];
    let pendingSize = 0;
    let binary = false;
    const step = () => {
      if (PrefetchedLines.streaming > 0 && !this.streamed) {
        setTimeout(step, 2);
        return;
      }
      try {
        const until = performance.now() + sliceMs;
        for (let made = 0; ; made += 1) {
          // Reading the clock costs too: every 16 lines is often enough for slices of a few milliseconds. A
          // binary chunk is a thousand rows' work: the clock is read after each (every 16 held the event loop,
          // and the statements run meanwhile, for ~0.2 s at a time).
          if ((made % 16 === 15 || binary) && performance.now() >= until) break;
          const next = source.next();
          if (next.done) {
            this.finished = true;
            break;
          }
          if (typeof next.value !== 'string') {
            binary = true;
            if (pending.length > 0) this.ready.push(pending.join(''));
            pending = [];
            pendingSize = 0;
            this.ready.push(next.value);
            continue;
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

  async *[Symbol.asyncIterator](): AsyncGenerator<string | Buffer> {
    this.streamed = true;
    PrefetchedLines.streaming += 1;
    try {
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
    } finally {
      this.streamed = false;
      PrefetchedLines.streaming -= 1;
    }
  }
}

/**
 * Streams rows into `table` with COPY FROM STDIN; returns the row count. The rows are COPY text lines (each
 * ending in \n), or with `binary` the chunks binaryCopyChunks makes.
 */
export async function copyRows(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  lines: Iterable<string> | Iterable<Buffer> | PrefetchedLines,
  options: { freeze?: boolean; binary?: boolean } = {},
): Promise<number> {
  const settings = [...(options.binary ? ['format binary'] : []), ...(options.freeze ? ['freeze'] : [])];
  const using = settings.length > 0 ? ` with (${settings.join(', ')})` : '';
  const stream = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin${using}`));
  // Binary chunks go as they are: joining them as text lines would garble them.
  const source = lines instanceof PrefetchedLines || options.binary ? lines : chunks(lines as Iterable<string>);
  await pipeline(Readable.from(source), stream);
  return Number(stream.rowCount);
}

/** The column types the seeds COPY in binary, each written in the form its type's binary input reads. */
export type CopyType = 'int4' | 'text' | 'date' | 'bool' | 'text[]' | 'int4[]';
/** A field of a row for binaryCopyChunks: a date is a day number (days since 1970-01-01); null is SQL NULL. */
export type CopyValue = number | string | boolean | null | readonly string[] | readonly number[];

// Made only when a value is refused: a closure made for every field (as the error's message once was) cost
// more than writing the field, under tsx, which names every function it makes.
function refused(type: CopyType, value: CopyValue, column: number): Error {
  return new Error(`column ${column + 1} (${type}) cannot take ${JSON.stringify(value)}`);
}

/** 2000-01-01, PostgreSQL's epoch for dates, in days since 1970-01-01. */
const PG_EPOCH_DAY = 10_957;
const ELEMENT_OID = { 'text[]': 25, 'int4[]': 23 } as const;
/** The binary format's signature, flags (none) and header extension length (none). */
const BINARY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);

/**
 * Rows in COPY's binary format (PostgreSQL documentation, COPY, "Binary Format"): the header, then for each row
 * its number of fields and each field as a 32-bit length (-1 for null) and its bytes in the type's binary form
 * (big-endian integers, a date as days since 2000-01-01, a one-dimensional array as its dimension, element type
 * and elements), then a trailer. PostgreSQL reads these without parsing text: loading the scale seed's claims
 * from a file took 1.7 s in binary against 3.2 s in text (docs/performance.md). Yields chunks of about 256 KB.
 */
export function* binaryCopyChunks(types: readonly CopyType[], rows: Iterable<readonly CopyValue[]>): Generator<Buffer> {
  let buffer = Buffer.allocUnsafe(CHUNK_SIZE * 2);
  let at = 0;
  const room = (bytes: number) => {
    if (at + bytes <= buffer.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(buffer.length * 2, at + bytes));
    buffer.copy(bigger, 0, 0, at);
    buffer = bigger;
  };
  const int32 = (value: number) => {
    room(4);
    at = buffer.writeInt32BE(value, at);
  };
  const text = (value: string) => {
    const length = Buffer.byteLength(value);
    room(4 + length);
    at = buffer.writeInt32BE(length, at);
    at += buffer.write(value, at, 'utf8');
  };
  const field = (type: CopyType, value: CopyValue, column: number) => {
    if (value === null) return int32(-1);
    switch (type) {
      case 'int4':
        if (typeof value !== 'number' || !Number.isInteger(value)) throw refused(type, value, column);
        int32(4);
        return int32(value);
      case 'date':
        if (typeof value !== 'number' || !Number.isInteger(value)) throw refused(type, value, column);
        int32(4);
        return int32(value - PG_EPOCH_DAY);
      case 'bool':
        if (typeof value !== 'boolean') throw refused(type, value, column);
        room(5);
        at = buffer.writeInt32BE(1, at);
        at = buffer.writeUInt8(value ? 1 : 0, at);
        return;
      case 'text':
        if (typeof value !== 'string') throw refused(type, value, column);
        return text(value);
      case 'text[]':
      case 'int4[]': {
        if (!Array.isArray(value)) throw refused(type, value, column);
        const items = value as readonly (string | number)[];
        const isText = type === 'text[]';
        // The field's length is known once its elements are written: a placeholder, filled in after.
        int32(0);
        const start = at;
        if (items.length === 0) {
          // An empty array has no dimensions.
          int32(0);
          int32(0);
          int32(ELEMENT_OID[type]);
        } else {
          int32(1); // one dimension
          int32(0); // no null elements
          int32(ELEMENT_OID[type]);
          int32(items.length);
          int32(1); // lower bound
          for (const item of items) {
            if (isText ? typeof item !== 'string' : !Number.isInteger(item)) throw refused(type, value, column);
            if (isText) text(item as string);
            else {
              int32(4);
              int32(item as number);
            }
          }
        }
        buffer.writeInt32BE(at - start, start - 4);
        return;
      }
    }
  };
  room(BINARY_HEADER.length);
  at += BINARY_HEADER.copy(buffer, at);
  for (const row of rows) {
    if (row.length !== types.length) throw new Error(`a row has ${row.length} fields, not ${types.length}`);
    room(2);
    at = buffer.writeInt16BE(types.length, at);
    for (let column = 0; column < types.length; column += 1) field(types[column]!, row[column]!, column);
    if (at >= CHUNK_SIZE) {
      yield Buffer.from(buffer.subarray(0, at));
      at = 0;
    }
  }
  room(2);
  at = buffer.writeInt16BE(-1, at);
  yield Buffer.from(buffer.subarray(0, at));
}
