import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';
import { binaryCopyChunks, copyRows, PrefetchedLines, type CopyType, type CopyValue } from './copy-rows';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
});

async function collect(lines: PrefetchedLines): Promise<string> {
  let text = '';
  for await (const chunk of lines) text += typeof chunk === 'string' ? chunk : chunk.toString('latin1');
  return text;
}

describe('PrefetchedLines', () => {
  it('gives every line, in order, whether read while it is made or after', async () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `${i}\tline ${i}\n`);
    expect(await collect(new PrefetchedLines(lines))).toBe(lines.join(''));
    const finishedFirst = new PrefetchedLines(lines);
    await finishedFirst.done;
    expect(await collect(finishedFirst)).toBe(lines.join(''));
  });

  it('makes the lines in slices: timers and I/O run while a long generator is still going', async () => {
    let made = 0;
    function* slow(): Generator<string> {
      for (let i = 0; i < 400; i += 1) {
        const until = Date.now() + 1;
        while (Date.now() < until) {
          // about a millisecond of work per line
        }
        made += 1;
        yield `${i}\n`;
      }
    }
    const lines = new PrefetchedLines(slow(), 5);
    // vi.waitFor checks on a timer: the check that sees the first lines made is a timer that ran between
    // slices, long before the ~400 ms of generation ended.
    await vi.waitFor(() => expect(made).toBeGreaterThan(0), { interval: 1 });
    expect(made).toBeLessThan(400);
    await lines.done;
    expect(made).toBe(400);
  });

  it('holds the other generators while one is being streamed, and resumes them after', async () => {
    let madeBeside = 0;
    function* counted(): Generator<string> {
      for (let i = 0; i < 200; i += 1) {
        madeBeside += 1;
        yield `${i}\n`;
      }
    }
    const streamed = new PrefetchedLines(Array.from({ length: 10 }, (_, i) => `${i}\n`));
    await streamed.done;
    const reader = streamed[Symbol.asyncIterator]();
    await reader.next();
    // The COPY has taken its first chunk and waits on the database: the next table's lines are not made now.
    const beside = new PrefetchedLines(counted());
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(madeBeside).toBe(0);
    for (let next = await reader.next(); !next.done; next = await reader.next()) {
      // read to the end
    }
    await beside.done;
    expect(madeBeside).toBe(200);
    expect(await collect(beside)).toBe(Array.from({ length: 200 }, (_, i) => `${i}\n`).join(''));
  });

  it('fails the reader when the generator throws (the COPY, and its transaction, fail with it)', async () => {
    function* broken(): Generator<string> {
      yield 'first\n';
      throw new Error('empty reference data');
    }
    const lines = new PrefetchedLines(broken());
    await lines.done;
    await expect(collect(lines)).rejects.toThrow('empty reference data');
  });
});

describe('binaryCopyChunks', () => {
  const TYPES: CopyType[] = ['int4', 'text', 'date', 'bool', 'text[]', 'int4[]'];
  const DAY_MS = 86_400_000;
  const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;

  /** COPYs the rows in binary into a temporary table of the six types and reads them back as text. */
  async function roundTrip(rows: CopyValue[][], via: 'iterable' | 'prefetched' = 'iterable') {
    const client = await database.ownerPool.connect();
    try {
      await client.query(`create temporary table copied (n int4, t text, d date, b bool, ta text[], ia int4[])`);
      const chunks = binaryCopyChunks(TYPES, rows);
      const count = await copyRows(
        client,
        'copied',
        ['n', 't', 'd', 'b', 'ta', 'ia'],
        via === 'prefetched' ? new PrefetchedLines(chunks) : chunks,
        { binary: true },
      );
      const { rows: stored } = await client.query<Record<string, unknown>>(
        `select n, t, d::text as d, b, ta, ia from copied order by n nulls last`,
      );
      return { count, stored };
    } finally {
      await client.query('drop table if exists copied');
      client.release();
    }
  }

  it("writes each type as PostgreSQL's binary input reads it: edges, nulls, empty arrays and non-ASCII text", async () => {
    const rows: CopyValue[][] = [
      [2_147_483_647, 'ACC-2026-S00000001', dayOf('2026-11-29'), true, ['E11.9', 'I10'], [1, 2, 3, 4]],
      [-2_147_483_648, 'Zoë Ñúñez — 患者 😀', dayOf('1999-12-31'), false, [], []],
      [0, '', dayOf('2000-01-01'), null, ['with, a comma', 'quote " and \\ backslash'], [-1]],
      [null, null, null, null, null, null],
    ];
    const { count, stored } = await roundTrip(rows);
    expect(count).toBe(4);
    // In the order of n (the heap need not keep the COPY's order).
    expect(stored).toEqual([
      { n: -2_147_483_648, t: 'Zoë Ñúñez — 患者 😀', d: '1999-12-31', b: false, ta: [], ia: [] },
      { n: 0, t: '', d: '2000-01-01', b: null, ta: ['with, a comma', 'quote " and \\ backslash'], ia: [-1] },
      { n: 2_147_483_647, t: 'ACC-2026-S00000001', d: '2026-11-29', b: true, ta: ['E11.9', 'I10'], ia: [1, 2, 3, 4] },
      { n: null, t: null, d: null, b: null, ta: null, ia: null },
    ]);
  });

  it('splits many rows into chunks of about 256 KB, every row arriving once and in order', async () => {
    const rows: CopyValue[][] = Array.from({ length: 20_000 }, (_, i) => [
      i,
      `row ${i} ${'x'.repeat(i % 50)}`,
      dayOf('2026-01-01') + (i % 365),
      i % 2 === 0,
      [`D${i}`],
      [i % 4],
    ]);
    const chunks = [...binaryCopyChunks(TYPES, rows)];
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(262_144);
    const { count, stored } = await roundTrip(rows, 'prefetched');
    expect(count).toBe(20_000);
    expect(stored.map((r) => r.n)).toEqual(rows.map((r) => r[0]));
    expect(stored[19_999]).toEqual({
      n: 19_999,
      t: `row 19999 ${'x'.repeat(49)}`,
      d: '2026-10-17',
      b: false,
      ta: ['D19999'],
      ia: [3],
    });
  });

  it('refuses a value its column cannot take, naming the column, and a row of the wrong width', () => {
    const one = (row: CopyValue[]) => [...binaryCopyChunks(TYPES, [row])];
    expect(() => one([1.5, 'a', 0, true, [], []])).toThrow('column 1 (int4) cannot take 1.5');
    expect(() => one([1, 2, 0, true, [], []])).toThrow('column 2 (text) cannot take 2');
    expect(() => one([1, 'a', '2026-11-29', true, [], []])).toThrow('column 3 (date) cannot take "2026-11-29"');
    expect(() => one([1, 'a', 0, 't', [], []])).toThrow('column 4 (bool) cannot take "t"');
    expect(() => one([1, 'a', 0, true, [1], []])).toThrow('column 5 (text[]) cannot take [1]');
    expect(() => one([1, 'a', 0, true, [], ['1']])).toThrow('column 6 (int4[]) cannot take ["1"]');
    expect(() => one([1, 'a', 0, true, []])).toThrow('a row has 5 fields, not 6');
  });

  it('fails the COPY, not the data, when a row is refused midway (the transaction rolls back whole)', async () => {
    const client = await database.ownerPool.connect();
    try {
      await client.query('begin');
      await client.query(`create temporary table copied (n int4, t text, d date, b bool, ta text[], ia int4[])`);
      const rows: CopyValue[][] = [
        ...Array.from({ length: 30_000 }, (_, i): CopyValue[] => [i, 'ok', 0, true, [], []]),
        ['not a number', 'bad', 0, true, [], []],
      ];
      await expect(
        copyRows(
          client,
          'copied',
          ['n', 't', 'd', 'b', 'ta', 'ia'],
          new PrefetchedLines(binaryCopyChunks(TYPES, rows)),
          {
            binary: true,
          },
        ),
      ).rejects.toThrow('column 1 (int4) cannot take "not a number"');
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
