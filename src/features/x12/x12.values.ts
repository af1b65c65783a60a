/**
 * The values every X12 reader and writer of this layer parses or writes the same way: a date (data type DT,
 * CCYYMMDD), an amount (data type R) in integer cents, and a person's NM1. Pure functions that return a result
 * rather than throw, so each reader wraps a problem into its own error class and code (EraError, ClaimStatusError,
 * EligibilityError) with the element and segment it knows. A problem text reads after the quoted value:
 * `BPR16: "20260230" is not a calendar date … (segment 3)`.
 */
import type { X12SegmentInput } from './x12.serialize';

export type ValueResult<T, Reason extends string> =
  { ok: true; value: T } | { ok: false; reason: Reason; problem: string };

/** The years a date may fall in: wider than any real claim or coverage, and every one a PostgreSQL date. */
export const FIRST_YEAR = 1900;
export const LAST_YEAR = 2999;

export function isCalendarDay(year: number, month: number, day: number): boolean {
  if (year < FIRST_YEAR || year > LAST_YEAR || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export const NOT_A_DATE = 'is not a date CCYYMMDD';
export const NOT_A_CALENDAR_DATE = `is not a calendar date CCYYMMDD between ${FIRST_YEAR} and ${LAST_YEAR}`;
export const NOT_A_CALENDAR_DAY = `is not a calendar date YYYY-MM-DD between ${FIRST_YEAR} and ${LAST_YEAR}`;

/**
 * An X12 date (CCYYMMDD) as an ISO day, checked to be a day of the calendar: 20261301 or 20260230 is the
 * sender's error, not a value for the database to refuse. FORMAT: not 8 digits; CALENDAR: no such day.
 */
export function parseX12Date(value: string): ValueResult<string, 'FORMAT' | 'CALENDAR'> {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (!match) return { ok: false, reason: 'FORMAT', problem: NOT_A_DATE };
  if (!isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]))) {
    return { ok: false, reason: 'CALENDAR', problem: NOT_A_CALENDAR_DATE };
  }
  return { ok: true, value: `${match[1]}-${match[2]}-${match[3]}` };
}

/** An ISO day (YYYY-MM-DD) as the CCYYMMDD a writer sends, checked to be a day of the calendar. */
export function formatX12Date(day: string): ValueResult<string, 'CALENDAR'> {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match || !isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]))) {
    return { ok: false, reason: 'CALENDAR', problem: NOT_A_CALENDAR_DAY };
  }
  return { ok: true, value: `${match[1]}${match[2]}${match[3]}` };
}

/** Cents as the dollars a message or a CSV shows: -1234 → "-12.34", 1000000000 → "10000000.00". */
export function dollars(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** More digits than this (cents included) are not counted: beyond 15, a double no longer holds every integer. */
const MAX_DIGITS = 15;

export type AmountReason = 'NOT_AMOUNT' | 'FRACTION_OF_CENT' | 'NEGATIVE' | 'TOO_MANY_DIGITS' | 'ABOVE_LIMIT';

export interface AmountRules {
  /** The largest amount accepted, in cents (its magnitude, for a negative amount). */
  maxCents: number;
  /**
   * What a minus sign means: `allowed` (a payment taken back), `refused` (no benefit is negative; '-0' is still
   * 0) or `unsigned` (the element takes no sign, so '-10' is not an amount at all).
   */
  sign?: 'allowed' | 'refused' | 'unsigned';
  /** The element's maximum length (X12 counts the sign and point): a longer value is not an amount. */
  maxLength?: number;
  /** What the limit is called in the problem: 'amount' gives "the largest amount accepted". */
  limitName?: string;
  /**
   * More than 15 digits: `too-large` says so ("is too large"), `limit` reports it as above maxCents (right when
   * maxCents has fewer digits, as it then is over the limit too).
   */
  overlong?: 'too-large' | 'limit';
}

/**
 * A decimal amount (X12 data type R: optional sign, digits, optional point and decimals) as integer cents,
 * exactly: the digits are read as text, never through a float, so 0.1 + 0.2 never happens. A fraction of a cent
 * is refused unless its digits are 0. Checked in this order: the syntax, the fraction, the sign, the digits,
 * the limit.
 */
export function parseX12Amount(value: string, rules: AmountRules): ValueResult<number, AmountReason> {
  const { maxCents, sign: signRule = 'allowed', maxLength, limitName = 'amount', overlong = 'too-large' } = rules;
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(value);
  if (
    (maxLength !== undefined && value.length > maxLength) ||
    !match ||
    (match[2] === '' && (match[3] ?? '') === '') ||
    (match[1] === '-' && signRule === 'unsigned')
  ) {
    return { ok: false, reason: 'NOT_AMOUNT', problem: 'is not an amount' };
  }
  const [, sign, whole = '', fraction = ''] = match;
  if (/[1-9]/.test(fraction.slice(2))) {
    return { ok: false, reason: 'FRACTION_OF_CENT', problem: 'has a fraction of a cent' };
  }
  const digits = (whole.replace(/^0+/, '') || '0') + fraction.slice(0, 2).padEnd(2, '0');
  const negative = sign === '-' && /[1-9]/.test(digits);
  if (negative && signRule === 'refused') return { ok: false, reason: 'NEGATIVE', problem: 'is negative' };
  const aboveLimit: ValueResult<number, AmountReason> = {
    ok: false,
    reason: 'ABOVE_LIMIT',
    problem: `is more than ${dollars(maxCents)}, the largest ${limitName} accepted`,
  };
  if (digits.length > MAX_DIGITS) {
    return overlong === 'limit' ? aboveLimit : { ok: false, reason: 'TOO_MANY_DIGITS', problem: 'is too large' };
  }
  const cents = Number(digits);
  if (cents > maxCents) return aboveLimit;
  return { ok: true, value: negative ? -cents : cents };
}

/**
 * Cents as an X12 decimal (R type), the shortest way: no trailing zeros after the point, no point for whole
 * dollars, no leading zero (15000 → '150', 15050 → '150.5', 15025 → '150.25', 5 → '.05', 0 → '0', -5 → '-.05'
 * when negative amounts are allowed). Refused: what is not whole cents, a negative amount unless `signed`, and
 * a magnitude above maxCents.
 */
export function formatX12Amount(
  cents: number,
  rules: { maxCents?: number; signed?: boolean } = {},
): ValueResult<string, 'NOT_WHOLE_CENTS'> {
  const { maxCents = Number.MAX_SAFE_INTEGER, signed = false } = rules;
  if (!Number.isSafeInteger(cents) || (cents < 0 && !signed) || Math.abs(cents) > maxCents) {
    const range = signed ? `from -${maxCents} to ${maxCents}` : `from 0 to ${maxCents}`;
    return { ok: false, reason: 'NOT_WHOLE_CENTS', problem: `${cents} is not whole cents ${range}` };
  }
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const rest = abs % 100;
  const sign = cents < 0 ? '-' : '';
  if (rest === 0) return { ok: true, value: `${sign}${whole}` };
  return { ok: true, value: `${sign}${whole === 0 ? '' : whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}` };
}

/** A person's name in the parts NM1 carries (NM103 last, NM104 first, NM105 middle, NM107 suffix). */
export interface Nm1PersonName {
  lastName: string;
  firstName: string;
  middleName: string;
  suffix: string;
}

/**
 * NM1 of a person (NM102 = 1), in the order every 005010 guide gives it: NM106 (prefix) is never sent, and the
 * id qualifier and id (NM108/NM109) only when given. The parts are written as given: checking and cleaning
 * them is the caller's, as what a name may hold differs by guide and loop.
 */
export function personNm1(entity: string, name: Nm1PersonName, idQualifier = '', id = ''): X12SegmentInput {
  return {
    id: 'NM1',
    elements: [entity, '1', name.lastName, name.firstName, name.middleName, '', name.suffix, idQualifier, id],
  };
}
