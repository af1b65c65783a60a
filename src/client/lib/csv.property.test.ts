import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { toCsv, type CsvColumn } from './csv';

/**
 * OWASP CSV injection + RFC 4180, as properties of `toCsv` (docs/security.md; ASVS V1.2 injection,
 * V1.3 output encoding). Chosen rule (src/shared/csv.ts): a cell is neutralised when it starts with
 * = + - @ TAB or CR, or when its first non-blank character is = + - @; negative numbers included.
 */
const TRIGGERS = ['=', '+', '-', '@', '\t', '\r'];
const BLANKS = [' ', '\t', '\r', '\n', '\u00a0'];

type Cell = string | number | null | undefined;
type Row = Cell[];

/** Text a spreadsheet would run: TAB or CR first, or = + - @ first or after leading blanks; then anything. */
const formulaText = fc.oneof(
  fc
    .tuple(fc.constantFrom(...TRIGGERS), fc.string({ unit: 'grapheme', maxLength: 30 }))
    .map(([trigger, rest]) => trigger + rest),
  fc
    .tuple(
      fc.array(fc.constantFrom(...BLANKS), { minLength: 1, maxLength: 3 }),
      fc.constantFrom('=', '+', '-', '@'),
      fc.string({ unit: 'grapheme', maxLength: 30 }),
    )
    .map(([blanks, trigger, rest]) => blanks.join('') + trigger + rest),
);

/** Text with CSV metacharacters in the middle: quotes, commas, line breaks. */
const trickyText = fc.string({
  unit: fc.constantFrom('a', 'Z', '1', ',', '"', "'", '\n', '\r', ' ', ';', 'é', '😀', '\u2028'),
  maxLength: 20,
});

const anyCell: fc.Arbitrary<Cell> = fc.oneof(
  formulaText,
  trickyText,
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.integer({ min: -10_000_000, max: 10_000_000 }).map((cents) => (cents / 100).toFixed(2)),
  fc.constant(null),
  fc.constant(undefined),
);

function columnsFor(width: number): CsvColumn<Row>[] {
  return Array.from({ length: width }, (_, i) => ({ header: `Column ${i + 1}`, value: (row: Row) => row[i] }));
}

function parse(csv: string): string[][] {
  // RFC 4180 allows a line break after the last record (papaparse writes one after a header-only file).
  const text = csv.endsWith('\r\n') ? csv.slice(0, -2) : csv;
  const parsed = Papa.parse<string[]>(text, { delimiter: ',', newline: '\r\n', skipEmptyLines: false });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

/** What a spreadsheet would treat as a formula once it has trimmed leading blanks (the strict reading). */
function runsAsFormula(cell: string): boolean {
  return /^[\t\r]/.test(cell) || /^\s*[=+\-@]/.test(cell);
}

/** Splits the raw CSV text of one data line into its raw cells (no line breaks in the cells used here). */
function rawCells(line: string): string[] {
  return line.match(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)?.map((c) => c.replace(/,$/, '')) ?? [];
}

const table = fc.integer({ min: 1, max: 6 }).chain((width) =>
  fc.record({
    width: fc.constant(width),
    rows: fc.array(fc.array(anyCell, { minLength: width, maxLength: width }), { maxLength: 8 }),
  }),
);

describe('toCsv (property)', () => {
  it('parses back (RFC 4180) to exactly the cells, with every formula-like cell prefixed by a quote', () => {
    fc.assert(
      fc.property(table, ({ width, rows }) => {
        const columns = columnsFor(width);
        const csv = toCsv(rows, columns);
        // A header-only file and one empty cell in a one-column table are the same text; skip that corner.
        fc.pre(!(width === 1 && rows.some((r) => r[0] === null || r[0] === undefined || r[0] === '')));
        const parsed = parse(csv);
        expect(parsed[0]).toEqual(columns.map((c) => c.header));
        expect(parsed.length - 1).toBe(rows.length);
        rows.forEach((row, r) => {
          row.forEach((value, c) => {
            const text = value === null || value === undefined ? '' : String(value);
            const cell = parsed[r + 1]?.[c];
            if (runsAsFormula(text)) {
              expect(cell).toBe(`'${text}`);
            } else {
              expect(cell).toBe(text);
            }
            // Whatever came in, nothing that comes out runs as a formula.
            expect(runsAsFormula(cell ?? '')).toBe(false);
          });
        });
      }),
      { numRuns: 500 },
    );
  });

  it('quotes every neutralised cell in the file text (OWASP: prefix with a quote and wrap in double quotes)', () => {
    const noLineBreak = formulaText.filter((t) => !/[\r\n]/.test(t));
    fc.assert(
      fc.property(fc.array(noLineBreak, { minLength: 1, maxLength: 5 }), (cells) => {
        const csv = toCsv([cells], columnsFor(cells.length));
        const dataLine = csv.split('\r\n')[1] ?? '';
        const raw = rawCells(dataLine).slice(0, cells.length);
        raw.forEach((cell, i) => {
          expect(cell.startsWith(`"'`), `${JSON.stringify(cells[i])} → ${cell}`).toBe(true);
          expect(cell.endsWith('"')).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('leaves ordinary values unchanged and unquoted unless RFC 4180 needs quotes', () => {
    const plain = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .:/()]{0,20}[A-Za-z0-9]$/),
      fc.nat({ max: 10_000_000 }),
      fc.nat({ max: 10_000_000 }).map((cents) => (cents / 100).toFixed(2)),
    );
    fc.assert(
      fc.property(fc.array(plain, { minLength: 1, maxLength: 5 }), (cells) => {
        const csv = toCsv([cells], columnsFor(cells.length));
        expect(csv.split('\r\n')[1]).toBe(cells.map(String).join(','));
      }),
      { numRuns: 300 },
    );
  });

  it('neutralises negative money amounts like any other cell starting with -', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000, max: -1 }), (cents) => {
        const amount = (cents / 100).toFixed(2);
        const csv = toCsv([[amount, cents]], columnsFor(2));
        expect(csv.split('\r\n')[1]).toBe(`"'${amount}","'${cents}"`);
        expect(parse(csv)[1]).toEqual([`'${amount}`, `'${cents}`]);
      }),
      { numRuns: 200 },
    );
  });
});
