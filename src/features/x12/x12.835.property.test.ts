import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsOf, dollars, MAX_CLAIM_AMOUNT_CENTS } from './x12.835';

describe('amounts in cents (property)', () => {
  it('reads back every amount as written, with or without trailing zeros, signs and leading zeros', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -MAX_CLAIM_AMOUNT_CENTS, max: MAX_CLAIM_AMOUNT_CENTS }),
        fc.nat(3),
        fc.nat(2),
        (cents, zeros, leading) => {
          const text = dollars(cents);
          const sign = text.startsWith('-') ? '-' : '';
          const written = `${sign}${'0'.repeat(leading)}${text.replace('-', '')}${'0'.repeat(zeros)}`;
          expect(centsOf(written, 'X', 1)).toBe(cents);
        },
      ),
    );
  });
});
