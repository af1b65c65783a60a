import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dollars,
  FIRST_YEAR,
  formatX12Amount,
  formatX12Date,
  LAST_YEAR,
  parseX12Amount,
  parseX12Date,
  personNm1,
} from './x12.values';

const MAX = 1_000_000_000;

/** The day as JavaScript's own calendar sees it: the oracle the parser is checked against. */
function realDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe('amounts (property)', () => {
  it('writes every whole number of cents so that it reads back the same', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX }), (cents) => {
        const text = formatX12Amount(cents, { maxCents: MAX });
        expect(text.ok).toBe(true);
        if (!text.ok) return;
        expect(text.value).toMatch(/^(0|[1-9]\d*|[1-9]\d*\.\d{1,2}|\.\d{1,2})$/);
        expect(text.value).not.toMatch(/\.\d?0$/);
        expect(parseX12Amount(text.value, { maxCents: MAX, sign: 'unsigned' })).toEqual({ ok: true, value: cents });
      }),
    );
  });

  it('round-trips negative amounts when a sign is allowed, and refuses them when it is not', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX, max: -1 }), (cents) => {
        expect(formatX12Amount(cents).ok).toBe(false);
        const text = formatX12Amount(cents, { signed: true, maxCents: MAX });
        expect(text.ok).toBe(true);
        if (!text.ok) return;
        expect(parseX12Amount(text.value, { maxCents: MAX })).toEqual({ ok: true, value: cents });
        expect(parseX12Amount(text.value, { maxCents: MAX, sign: 'refused' })).toMatchObject({ reason: 'NEGATIVE' });
        expect(parseX12Amount(text.value, { maxCents: MAX, sign: 'unsigned' })).toMatchObject({ reason: 'NOT_AMOUNT' });
      }),
    );
  });

  it('reads the same cents whatever the leading and trailing zeros', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX, max: MAX }), fc.nat(4), fc.nat(3), (cents, zeros, leading) => {
        const text = dollars(cents);
        const sign = text.startsWith('-') ? '-' : '';
        const written = `${sign}${'0'.repeat(leading)}${text.replace('-', '')}${'0'.repeat(zeros)}`;
        expect(parseX12Amount(written, { maxCents: MAX })).toEqual({ ok: true, value: cents });
      }),
    );
  });

  it('refuses a fraction of a cent, and an amount over the limit, naming the limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX }), fc.integer({ min: 1, max: 9 }), (cents, extra) => {
        expect(parseX12Amount(`${dollars(cents)}${extra}`, { maxCents: MAX })).toMatchObject({
          ok: false,
          reason: 'FRACTION_OF_CENT',
        });
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: MAX + 1, max: 99_999_999_999_999 }), (cents) => {
        expect(parseX12Amount(dollars(cents), { maxCents: MAX })).toEqual({
          ok: false,
          reason: 'ABOVE_LIMIT',
          problem: 'is more than 10000000.00, the largest amount accepted',
        });
      }),
    );
  });

  it('never reads text that is not a decimal number', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        const result = parseX12Amount(text, { maxCents: Number.MAX_SAFE_INTEGER });
        if (result.ok) expect(text).toMatch(/^-?(\d+\.?\d*|\.\d+)$/);
        else if (!/^-?(\d+\.?\d*|\.\d+)$/.test(text)) expect(result.reason).toBe('NOT_AMOUNT');
      }),
    );
  });

  it('gives each refusal its reason', () => {
    const rules = { maxCents: MAX };
    expect(parseX12Amount('', rules)).toMatchObject({ reason: 'NOT_AMOUNT', problem: 'is not an amount' });
    expect(parseX12Amount('.', rules)).toMatchObject({ reason: 'NOT_AMOUNT' });
    expect(parseX12Amount('-', rules)).toMatchObject({ reason: 'NOT_AMOUNT' });
    expect(parseX12Amount('1,5', rules)).toMatchObject({ reason: 'NOT_AMOUNT' });
    expect(parseX12Amount('+1', rules)).toMatchObject({ reason: 'NOT_AMOUNT' });
    expect(parseX12Amount('1e3', rules)).toMatchObject({ reason: 'NOT_AMOUNT' });
    expect(parseX12Amount('1234567890123456', rules)).toMatchObject({
      reason: 'TOO_MANY_DIGITS',
      problem: 'is too large',
    });
    expect(parseX12Amount('1234567890123456', { ...rules, overlong: 'limit' })).toMatchObject({
      reason: 'ABOVE_LIMIT',
    });
    expect(parseX12Amount('123', { ...rules, maxLength: 2 })).toMatchObject({ reason: 'NOT_AMOUNT' });
    expect(parseX12Amount('-0.00', { ...rules, sign: 'refused' })).toEqual({ ok: true, value: 0 });
    expect(parseX12Amount('-0', { ...rules, sign: 'unsigned' })).toMatchObject({ reason: 'NOT_AMOUNT' });
    expect(parseX12Amount('1000000000.01', { maxCents: 100_000_000_000, limitName: 'benefit amount' })).toEqual({
      ok: false,
      reason: 'ABOVE_LIMIT',
      problem: 'is more than 1000000000.00, the largest benefit amount accepted',
    });
    expect(formatX12Amount(19.5)).toMatchObject({
      ok: false,
      problem: '19.5 is not whole cents from 0 to 9007199254740991',
    });
    expect(formatX12Amount(MAX + 1, { maxCents: MAX })).toMatchObject({ ok: false });
    expect(formatX12Amount(Number.NaN).ok).toBe(false);
    expect([0, 5, 50, 100, 15025, -5].map((c) => formatX12Amount(c, { signed: true }))).toEqual(
      ['0', '.05', '.5', '1', '150.25', '-.05'].map((value) => ({ ok: true, value })),
    );
  });
});

describe('dates (property)', () => {
  it('reads CCYYMMDD if and only if it is a day of the calendar between 1900 and 2999', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 9999 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 99 }),
        (year, month, day) => {
          const text = `${year}${pad(month, 2)}${pad(day, 2)}`;
          const valid = year >= FIRST_YEAR && year <= LAST_YEAR && realDay(year, month, day);
          const result = parseX12Date(text);
          expect(result.ok).toBe(valid);
          if (result.ok) expect(result.value).toBe(`${year}-${pad(month, 2)}-${pad(day, 2)}`);
          else expect(result.reason).toBe('CALENDAR');
        },
      ),
    );
  });

  it('round-trips every calendar day: ISO day → CCYYMMDD → the same ISO day', () => {
    const first = Date.UTC(FIRST_YEAR, 0, 1);
    const last = Date.UTC(LAST_YEAR, 11, 31);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: (last - first) / 86_400_000 }), (offset) => {
        const iso = new Date(first + offset * 86_400_000).toISOString().slice(0, 10);
        const written = formatX12Date(iso);
        expect(written).toEqual({ ok: true, value: iso.replaceAll('-', '') });
        if (written.ok) expect(parseX12Date(written.value)).toEqual({ ok: true, value: iso });
      }),
    );
  });

  it('tells a value that is not 8 digits from a day that does not exist', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), (text) => {
        const result = parseX12Date(text);
        if (!/^\d{8}$/.test(text))
          expect(result).toEqual({ ok: false, reason: 'FORMAT', problem: 'is not a date CCYYMMDD' });
      }),
    );
    expect(parseX12Date('20240229')).toEqual({ ok: true, value: '2024-02-29' });
    expect(parseX12Date('19000229')).toMatchObject({ reason: 'CALENDAR' });
    expect(parseX12Date('20000229')).toEqual({ ok: true, value: '2000-02-29' });
    expect(parseX12Date('18991231')).toMatchObject({
      reason: 'CALENDAR',
      problem: 'is not a calendar date CCYYMMDD between 1900 and 2999',
    });
    expect(formatX12Date('2026-02-30')).toMatchObject({ ok: false });
    expect(formatX12Date('20260101')).toMatchObject({ ok: false });
  });
});

describe('personNm1', () => {
  it('writes NM1 of a person with NM106 left empty', () => {
    expect(
      personNm1('IL', { lastName: 'RUIZ', firstName: 'ANA', middleName: 'M', suffix: 'JR' }, 'MI', 'W123'),
    ).toEqual({ id: 'NM1', elements: ['IL', '1', 'RUIZ', 'ANA', 'M', '', 'JR', 'MI', 'W123'] });
  });
});
