import { describe, expect, it } from 'vitest';
import { neutraliseCell, safeFileNamePart } from './csv';

describe('neutraliseCell', () => {
  it.each(['=SUM(A1)', '+1', '-2+3', '@cmd', '\tx', '\rx'])('prefixes a quote to %j', (cell) => {
    expect(neutraliseCell(cell)).toBe(`'${cell}`);
  });

  it.each([' =1+1', '  @SUM(A1)', '\n-2', '\u00a0+1'])(
    'prefixes a quote when a blank precedes a trigger: %j',
    (cell) => {
      expect(neutraliseCell(cell)).toBe(`'${cell}`);
    },
  );

  it('leaves ordinary text, numbers and empty values alone', () => {
    expect(neutraliseCell('Maria Lopez')).toBe('Maria Lopez');
    expect(neutraliseCell(12.5)).toBe('12.5');
    expect(neutraliseCell(null)).toBe('');
    expect(neutraliseCell(undefined)).toBe('');
    expect(neutraliseCell('a=b')).toBe('a=b');
    expect(neutraliseCell(' Maria')).toBe(' Maria');
  });

  it('neutralises negative numbers given as numbers too', () => {
    expect(neutraliseCell(-5)).toBe("'-5");
  });
});

describe('safeFileNamePart', () => {
  it('keeps dates and replaces path characters', () => {
    expect(safeFileNamePart('2026-11-22')).toBe('2026-11-22');
    expect(safeFileNamePart('../etc/passwd')).toBe('.._etc_passwd');
  });
});
