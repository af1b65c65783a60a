import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Failed Pay as Guest lookups per account number (docs/security.md): a birth date must not be guessable by
 * trying the dates of a few decades on one account. Kept in the database, not in a server's memory, so
 * every app server counts the same failures. One row per account number typed (known or not, so a lock
 * says nothing of whether the account exists); the window starts at its first failure and lasts an hour.
 */
export const guestLookupFailures = pgTable(
  'guest_lookup_failures',
  {
    accountNumber: text('account_number').primaryKey(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true, mode: 'string' }).notNull(),
    failures: integer('failures').notNull().default(0),
  },
  (t) => [index('guest_lookup_failures_window_idx').on(t.windowStartedAt)],
);
