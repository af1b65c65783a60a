import { sql } from 'drizzle-orm';
import { pgTable, integer, text, timestamp, boolean, index, check } from 'drizzle-orm/pg-core';
import { ROLES } from '@/shared/access';
import { oneOf } from '@/server/db/sql-helpers';
import { patients } from '@/features/patients/server/patients.table';
import { practiceNow } from '@/shared/practice-zone';

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Stored lower-cased so that sign-in matches case-insensitively and stays unique. */
    email: text('email').notNull().unique(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull(),
    patientId: integer('patient_id').references(() => patients.id, { onDelete: 'set null' }),
    active: boolean('active').notNull().default(true),
    /**
     * An admin's deactivation, kept apart from the one a reset makes when a patient account loses its record:
     * re-seeds and re-links give an account back its record, never the access an admin took away.
     */
    deactivatedByAdmin: boolean('deactivated_by_admin').notNull().default(false),
    /** The TOTP secret, AES-256-GCM-encrypted (auth.mfa-crypto.ts); null until the user enrols. */
    mfaSecret: text('mfa_secret'),
    /** The last TOTP time step accepted, so a code cannot be used twice. */
    mfaLastStep: integer('mfa_last_step'),
    /** Set for an admin-created temporary password: it must be changed before anything else, and expires. */
    temporaryPasswordExpiresAt: timestamp('temporary_password_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow().$defaultFn(practiceNow),
  },
  (t) => [
    check('users_role_check', oneOf(t.role, ROLES)),
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
    // An active patient account is linked to its record; a deactivated one may have lost it (global reset).
    check('users_patient_link_check', sql`${t.role} <> 'patient' or ${t.patientId} is not null or not ${t.active}`),
  ],
);

/** Server sessions. Only a SHA-256 of the cookie value is stored, so a database leak yields no live session. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    csrfToken: text('csrf_token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** One pending MFA step: the password was right, a one-time code was issued (hashed here). */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** During enrolment: the secret shown once, encrypted, until a code from it confirms it. */
    pendingMfaSecret: text('pending_mfa_secret'),
  },
  (t) => [index('sign_in_challenges_user_idx').on(t.userId)],
);

/** MFA recovery codes, shown once at enrolment; only their SHA-256 is stored, and each works once. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('mfa_recovery_codes_user_idx').on(t.userId)],
);

/** Wrong-code counter and lock per account (the counter is not reset by a lock). */
export const signInLockouts = pgTable('sign_in_lockouts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});
