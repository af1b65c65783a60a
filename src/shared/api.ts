import { dayInZone, practiceNow } from './practice-zone';
/** Contracts shared by every feature: the error envelope, paging, and common value schemas. */
import { z } from 'zod';
import { ROLES } from './access';

export const roleSchema = z.enum(ROLES);

export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** Every non-2xx answer of the API has this shape. */
export const errorEnvelopeSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.array(fieldErrorSchema).optional(),
    retryAfterSeconds: z.number().int().optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine(
    // Year 0000 parses in JavaScript but is no date in PostgreSQL (there is no year zero).
    (s) =>
      !s.startsWith('0000') &&
      !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
      new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    {
      message: 'must be a real calendar date',
    },
  );

export const timeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time as HH:mm (24-hour)');

/** Row ids are PostgreSQL integers: a larger number names no row and must be refused before a query fails on it. */
export const MAX_ROW_ID = 2_147_483_647;
/** A row id in a path: digits only, so "1e2", "0x10" or " 7" name no row (Number() would read 100, 16 and 7). */
export const idSchema = z
  .string()
  .regex(/^[0-9]{1,10}$/, 'must be a row id in digits only')
  .transform(Number)
  .pipe(z.number().int().positive('must be a row id from 1 up').max(MAX_ROW_ID, 'is not a known id'));
export const idParamsSchema = z.object({ id: idSchema });
/** A row id in a JSON body: a whole number from 1 up to PostgreSQL's integer maximum. */
export const bodyIdSchema = z
  .number({ error: 'must be a row id' })
  .int('must be a row id')
  .min(1, 'must be a row id from 1 up')
  .max(MAX_ROW_ID, 'is not a known id');

/** Money travels as integer cents; the UI formats it with 2 decimals. */
export const centsSchema = z.number().int().min(0);

/**
 * One formatter for every amount: Number#toLocaleString with options builds a new Intl.NumberFormat on each
 * call, which showed in the Claims screen's render profile (three amounts a row, fifty rows a page).
 */
const CENTS_AS_DOLLARS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatCents(cents: number): string {
  return CENTS_AS_DOLLARS.format(cents / 100);
}

/** Money on screen: '$1,234.50', a negative amount (a reversal, a credit) as '-$12.34'. */
export function formatDollars(cents: number): string {
  return `${cents < 0 ? '-' : ''}$${formatCents(Math.abs(cents))}`;
}

/**
 * Dollars as typed or as a file carries them ('$1,234.50', '1234.5', '25') to cents; null when the text is not
 * an amount with at most 2 decimals, or is too large to count in cents exactly. The one reading of typed money
 * (claims, payments, ceilings, appeal outcomes).
 */
export function dollarsToCents(text: string): number | null {
  const match = /^\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const dollars = Number((match[1] ?? '').replace(/,/g, ''));
  const cents = dollars * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});

export function pageSchema<T extends z.ZodTypeAny>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int() });
}

/**
 * Query parameters of a paged, searchable, sortable list; `sort` is checked against the list's own keys.
 * Paging is by keyset: `cursor` is the previous page's `nextCursor` (opaque; the server rejects one it did
 * not issue for this sort with a 400 naming `cursor`). `offset` skips rows after the cursor (or from the
 * start) for a small jump; a deep offset costs what it skips, a cursor does not.
 */
export function listQuerySchema<const K extends readonly [string, ...string[]]>(sortKeys: K, defaultSort: K[number]) {
  return z.object({
    search: z.string().trim().max(100).default(''),
    sort: z.enum(sortKeys).default(defaultSort as never),
    dir: z.enum(['asc', 'desc']).default('asc'),
    limit: z.coerce.number().int().min(1).max(500).default(50),
    offset: z.coerce.number().int().min(0).max(10_000).default(0),
    cursor: z.string().max(2000).optional(),
    /** `false` skips counting the matches on a first page (`total` is then null). */
    count: z.enum(['true', 'false']).default('true'),
  });
}

/**
 * What a keyset-paged list answers besides its rows: `nextCursor` for the next page (null on the last),
 * and `total` (how many rows match) only on a first page, i.e. a request without a cursor — counting a
 * million rows costs ~100 ms, so a page turn does not recount; the client keeps the first page's total.
 */
export const cursorPageShape = {
  nextCursor: z.string().nullable(),
  total: z.number().int().nullable(),
};

/** The clinic's calendar day at `now`, in the practice's time zone (shared/practice-zone.ts). */
export const today = (now: Date = practiceNow()): string => dayInZone(now);

/** The same calendar day `years` later (earlier when negative), as YYYY-MM-DD text for comparing with dates. */
export function yearsFrom(day: string, years: number): string {
  // 29 February may land on a day that does not exist (2030-02-29): as a bound it still compares correctly.
  return `${String(Number(day.slice(0, 4)) + years).padStart(4, '0')}${day.slice(4)}`;
}

/** How far back a date of birth may be. */
export const MAX_AGE_YEARS = 150;
/** The earliest date of birth on a record: an earlier one is a typing slip, not a patient. */
export const EARLIEST_DOB = '1900-01-01';

/**
 * Why a date of birth cannot be right on the day `today`: in the future, before 1900, or longer ago than
 * anyone lives.
 * The server checks it on its own clock (the request's), the forms on the browser's day.
 */
export function dobProblem(dob: string, today: string): string | null {
  if (dob > today) return 'cannot be in the future';
  if (dob < EARLIEST_DOB) return 'cannot be before Jan 1, 1900';
  if (dob < yearsFrom(today, -MAX_AGE_YEARS)) return `must be within the last ${MAX_AGE_YEARS} years`;
  return null;
}
