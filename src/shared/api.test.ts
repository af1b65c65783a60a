import { describe, expect, it } from 'vitest';
import { formatCents, formatDollars } from './api';

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
