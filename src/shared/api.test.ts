import { describe, expect, it } from 'vitest';
import { dollarsToCents, formatCents, formatDollars } from './api';

describe('money on screen', () => {
  it('writes cents as dollars with thousands separators and 2 decimals', () => {
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(123_456_789)).toBe('1,234,567.89');
    expect(formatDollars(138_350)).toBe('$1,383.50');
  });

  it('puts the minus sign before the dollar sign (a reversal, a credit)', () => {
    expect(formatDollars(-1_234)).toBe('-$12.34');
    expect(formatDollars(-100_000)).toBe('-$1,000.00');
    expect(formatDollars(0)).toBe('$0.00');
  });
});

describe('dollarsToCents', () => {
  it('reads dollars with up to 2 decimals, a $ and thousands commas', () => {
    expect(dollarsToCents('149')).toBe(14_900);
    expect(dollarsToCents('149.5')).toBe(14_950);
    expect(dollarsToCents('149.05')).toBe(14_905);
    expect(dollarsToCents('$1,234.50')).toBe(123_450);
    expect(dollarsToCents('$1200')).toBe(120_000);
    expect(dollarsToCents(' 0.99 ')).toBe(99);
  });

  it('refuses anything else, and an amount too large to count in cents exactly', () => {
    for (const text of ['', '12.345', '-5', '1,23', '12,34.00', 'abc', '1e3', '.5', '99999999999999999']) {
      expect(dollarsToCents(text), text).toBeNull();
    }
  });
});
