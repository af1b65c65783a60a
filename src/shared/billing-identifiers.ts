/**
 * The identifiers a professional claim (X12 837P 005010X222A1) carries for its providers and its patient,
 * checked the way their issuers define them: the CMS National Provider Identifier, the CMS Medicare
 * Beneficiary Identifier and the IRS Employer Identification Number. Pure and dependency-free, so the claim
 * form, the scrubber and the demo seed share one definition.
 */

const NINE_DIGITS = /^\d{9}$/;
/** CMS NPI standard: 10 digits, the first 1 (individual) or 2 (organization). */
const NPI_SHAPE = /^[12]\d{9}$/;
/**
 * CMS NPI standard: the check digit is the Luhn check digit of the 9 leading digits prefixed with 80840, the
 * ISO 7812 issuer prefix of health applications in the United States ('80' health, '840' United States).
 */
const NPI_LUHN_PREFIX = '80840';

/**
 * CMS MBI format: 11 characters, C A AN N A AN N A A N N (C a digit 1-9, N a digit, A a letter, AN either).
 * Letters leave out S, L, O, I, B and Z, which read like digits (5, 1, 0, 1, 8, 2).
 */
const MBI_LETTER = '[AC-HJKMNP-RT-Y]';
const MBI_LETTER_OR_DIGIT = '[AC-HJKMNP-RT-Y0-9]';
const MBI_SHAPE = new RegExp(
  `^[1-9]${MBI_LETTER}${MBI_LETTER_OR_DIGIT}\\d${MBI_LETTER}${MBI_LETTER_OR_DIGIT}\\d${MBI_LETTER}{2}\\d{2}$`,
);

/**
 * NUCC Health Care Provider Taxonomy code: 3 digits, 6 digits or capitals, and a closing X (193200000X). The
 * practice's billing identity and each provider's rendering taxonomy (X12 837P PRV03) share it.
 */
export const TAXONOMY_PATTERN = /^[0-9]{3}[0-9A-Z]{6}X$/;

/** An EIN as 9 digits, or as the IRS writes it, NN-NNNNNNN. */
const EIN_SHAPE = /^(\d{2})-?\d{7}$/;
/** IRS campus prefixes that have never been assigned: an EIN starting with one of these was made up or mistyped. */
const UNASSIGNED_EIN_PREFIXES: ReadonlySet<string> = new Set([
  '00',
  '07',
  '08',
  '09',
  '17',
  '18',
  '19',
  '28',
  '29',
  '49',
  '69',
  '70',
  '78',
  '79',
  '89',
  '96',
  '97',
]);

/** The CMS NPI check digit (Luhn over '80840' + the 9 leading digits). Throws when `first9` is not 9 digits. */
export function npiCheckDigit(first9: string): number {
  if (!NINE_DIGITS.test(first9)) throw new RangeError(`An NPI's leading part is 9 digits, not '${first9}'`);
  const payload = NPI_LUHN_PREFIX + first9;
  let sum = 0;
  // Luhn: from the right of the payload (the check digit will sit to its right), every other digit is doubled,
  // starting with the rightmost; a doubled digit above 9 counts as the sum of its digits (value - 9).
  for (let i = payload.length - 1, double = true; i >= 0; i--, double = !double) {
    const digit = payload.charCodeAt(i) - 48;
    const value = double ? digit * 2 : digit;
    sum += value > 9 ? value - 9 : value;
  }
  return (10 - (sum % 10)) % 10;
}

/** A CMS NPI: 10 digits, the first 1 or 2, the last the Luhn check digit (1234567893 is valid). */
export function isValidNpi(npi: string): boolean {
  return NPI_SHAPE.test(npi) && npiCheckDigit(npi.slice(0, 9)) === npi.charCodeAt(9) - 48;
}

/**
 * The NPI made of 9 leading digits and their check digit (the demo seed makes valid NPIs with it). Throws when
 * `first9` is not 9 digits starting with 1 or 2, since no valid NPI starts otherwise.
 */
export function makeNpi(first9: string): string {
  if (first9[0] !== '1' && first9[0] !== '2') throw new RangeError(`An NPI starts with 1 or 2, not '${first9}'`);
  return `${first9}${npiCheckDigit(first9)}`;
}

/** A CMS Medicare Beneficiary Identifier as stored: 11 upper-case characters, without dashes ('1EG4TE5MK73'). */
export function isValidMbi(mbi: string): boolean {
  return MBI_SHAPE.test(mbi);
}

/** An IRS Employer Identification Number: 9 digits (or NN-NNNNNNN) whose prefix the IRS has assigned. */
export function isValidEin(ein: string): boolean {
  const match = EIN_SHAPE.exec(ein);
  return match !== null && !UNASSIGNED_EIN_PREFIXES.has(match[1] ?? '');
}

/**
 * USPS codes of the states, the District of Columbia and the inhabited territories: what an X12 N4 segment
 * (N402) accepts as a US state, for the billing provider's address and the patient's.
 */
export const US_STATE_CODES: readonly string[] = (
  'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV ' +
  'NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC AS GU MP PR VI'
).split(' ');
const US_STATES: ReadonlySet<string> = new Set(US_STATE_CODES);

export function isUsStateCode(code: string): boolean {
  return US_STATES.has(code);
}
