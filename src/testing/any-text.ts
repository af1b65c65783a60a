import fc from 'fast-check';

/**
 * Any Unicode scalar value as a string (one UTF-16 unit or a surrogate pair, never a lone surrogate), ASCII
 * often: what fast-check's `unit: 'binary'` draws, but that arbitrary takes about three seconds to build in
 * each test file that creates one.
 */
export const anyUnicodeChar: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)),
  fc
    .integer({ min: 0, max: 0x10ffff - 0x800 })
    // Skips the surrogate block D800–DFFF, which holds no character of its own.
    .map((n) => String.fromCodePoint(n < 0xd800 ? n : n + 0x800)),
);
