import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

describe('toCsv', () => {
  it('writes the headers and quotes cells that need it', () => {
    const csv = toCsv(
      [{ name: 'Lopez, Maria', note: 'said "hi"' }],
      [
        { header: 'Name', value: (r) => r.name },
        { header: 'Note', value: (r) => r.note },
      ],
    );
    expect(Papa.parse<string[]>(csv).data).toEqual([
      ['Name', 'Note'],
      ['Lopez, Maria', 'said "hi"'],
    ]);
  });

  it('neutralises formula cells', () => {
    const csv = toCsv([{ v: '=HYPERLINK("x")' }], [{ header: 'V', value: (r) => r.v }]);
    expect(Papa.parse<string[]>(csv).data[1]).toEqual(['\'=HYPERLINK("x")']);
  });
});
