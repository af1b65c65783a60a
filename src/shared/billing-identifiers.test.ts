import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidEin, isValidMbi, isValidNpi, makeNpi, npiCheckDigit } from './billing-identifiers';

/** 9 leading NPI digits as the CMS NPI standard issues them: the first 1 (individual) or 2 (organization). */
const first9 = fc
  .tuple(fc.constantFrom('1', '2'), fc.stringMatching(/^\d{8}$/))
  .map(([head, rest]) => `${head}${rest}`);

describe('CMS NPI', () => {
  it('computes the check digit over 80840 and the 9 leading digits', () => {
    expect(npiCheckDigit('123456789')).toBe(3);
    expect(makeNpi('123456789')).toBe('1234567893');
  });

  it.each(['1234567893', makeNpi('298765432'), makeNpi('100000000')])('accepts %s', (npi) => {
    expect(isValidNpi(npi)).toBe(true);
  });

  it.each([
    ['a wrong check digit', '1234567890'],
    ['9 digits', '123456789'],
    ['11 digits', '12345678931'],
    ['letters', '12345678A3'],
    ['a first digit other than 1 or 2', `3${makeNpi('123456789').slice(1)}`],
    ['spaces', ' 1234567893'],
    ['nothing', ''],
  ])('refuses %s', (_label, npi) => {
    expect(isValidNpi(npi)).toBe(false);
  });

  it('refuses to make an NPI from anything but 9 digits starting with 1 or 2', () => {
    expect(() => npiCheckDigit('12345678')).toThrow(RangeError);
    expect(() => makeNpi('12345678X')).toThrow(RangeError);
    expect(() => makeNpi('323456789')).toThrow(RangeError);
  });

  it('makeNpi always gives a valid NPI', () => {
    fc.assert(fc.property(first9, (digits) => isValidNpi(makeNpi(digits))));
  });

  it('changing any single digit of a valid NPI makes it invalid', () => {
    fc.assert(
      fc.property(first9, fc.nat(9), fc.integer({ min: 1, max: 9 }), (digits, position, delta) => {
        const npi = makeNpi(digits);
        const changed = (Number(npi[position]) + delta) % 10;
        const altered = `${npi.slice(0, position)}${changed}${npi.slice(position + 1)}`;
        return !isValidNpi(altered);
      }),
    );
  });
});

describe('CMS MBI', () => {
  it.each(['1EG4TE5MK73', '9AA0AA0AA00', '1A99A99AA99'])('accepts %s', (mbi) => {
    expect(isValidMbi(mbi)).toBe(true);
  });

  it.each([
    ['an S', '1SG4TE5MK73'],
    ['an L', '1EL4TE5MK73'],
    ['an O', '1EG4OE5MK73'],
    ['an I', '1EG4TI5MK73'],
    ['a B', '1EG4TE5BK73'],
    ['a Z', '1EG4TE5MZ73'],
    ['10 characters', '1EG4TE5MK7'],
    ['12 characters', '1EG4TE5MK733'],
    ['lower case', '1eg4te5mk73'],
    ['dashes', '1EG4-TE5-MK73'],
    ['a leading 0', '0EG4TE5MK73'],
    ['a digit where a letter belongs', '12G4TE5MK73'],
    ['a letter where a digit belongs', '1EGATE5MK73'],
  ])('refuses one with %s', (_label, mbi) => {
    expect(isValidMbi(mbi)).toBe(false);
  });
});

describe('IRS EIN', () => {
  it.each(['123456789', '12-3456789', '01-0000001', '99-9999999'])('accepts %s', (ein) => {
    expect(isValidEin(ein)).toBe(true);
  });

  it.each<[string, string]>([
    ['8 digits', '12345678'],
    ['10 digits', '1234567890'],
    ['a dash elsewhere', '123-456789'],
    ['letters', '12-34567A9'],
    ['nothing', ''],
    ...['00', '07', '08', '09', '17', '18', '19', '28', '29', '49', '69', '70', '78', '79', '89', '96', '97'].map(
      (prefix): [string, string] => [`the unassigned prefix ${prefix}`, `${prefix}-1234567`],
    ),
  ])('refuses %s', (_label, ein) => {
    expect(isValidEin(ein)).toBe(false);
  });
});
