import { describe, expect, it } from 'vitest';
import { countOf } from './plural';

describe('countOf', () => {
  it('puts the noun in the singular for one only', () => {
    expect(countOf(1, 'attempt')).toBe('1 attempt');
    expect(countOf(0, 'attempt')).toBe('0 attempts');
    expect(countOf(4, 'attempt')).toBe('4 attempts');
    expect(countOf(1200, 'entry', 'entries')).toBe('1,200 entries');
    expect(countOf(1, 'entry', 'entries')).toBe('1 entry');
  });
});
