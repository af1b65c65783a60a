/**
 * Account management: the Users tab (list, create, change role, deactivate) and changing one's own
 * password. The users table belongs to auth (auth.table.ts); this module is the one write path for account
 * management, while auth.queries.ts keeps sign-in, MFA and sessions (whose helpers it calls here).
 */
import { randomInt } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { actorOf, record } from '@/features/audit/server/audit.queries';
import { hashPassword, verifyPassword } from '@/features/auth/server/auth.passwords';
import { clearMfaEnrolment, destroyUserSessions, voidUserChallenges } from '@/features/auth/server/auth.queries';
import { sessions, users } from '@/features/auth/server/auth.table';
import { patients } from '@/features/patients/server/patients.table';
import { createDefaultUserSettings } from '@/features/settings/server/settings.queries';
import { roleSchema } from '@/shared/api';
import type { RequestContext } from '@/server/context';
import type { Db, Tx } from '@/server/db/types';
import { uniqueViolationOf } from '@/server/db/sql-helpers';
import { HttpError } from '@/server/plugins/errors';
import type { PasswordChange } from '@/features/auth/auth.schema';
import type { CreatedUser, ManagedUser, NewUser, PatientLink, UserPatch } from '../users.schema';

function toManagedUser(row: typeof users.$inferSelect): ManagedUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: roleSchema.parse(row.role),
    status: row.active ? 'Active' : 'Deactivated',
    createdAt: row.createdAt.toISOString(),
    mfaEnrolled: row.mfaSecret !== null,
  };
}

export async function listUsers(db: Db): Promise<ManagedUser[]> {
  const rows = await db.select().from(users).orderBy(asc(users.name), asc(users.id));
  return rows.map(toManagedUser);
}

// No look-alike characters (0/O, 1/l/I), so the admin can read it out; 16 of 55 symbols is about 92 bits.
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** A temporary password in four groups of four (19 characters with the dashes), from the CSPRNG. */
export function temporaryPassword(): string {
  const chars = Array.from({ length: 16 }, () => PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)]);
  return [0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join('')).join('-');
}

function emailTaken() {
  return new HttpError(409, 'EMAIL_TAKEN', 'email: another account already uses this address', {
    fields: [{ field: 'email', message: 'is already used by another account' }],
  });
}

/** A temporary password handed over by an admin must be used (and replaced) within this time. */
export const TEMPORARY_PASSWORD_HOURS = 72;

/**
 * Creates an account with a temporary password that is returned once (only its hash is stored); the
 * person signs in with it and the usual MFA step and must then set a new one before anything else. It
 * expires after TEMPORARY_PASSWORD_HOURS.
 */
export async function createUser(db: Db, ctx: RequestContext, input: NewUser): Promise<CreatedUser> {
  return createAccount(db, actorOf(ctx), ctx.now, input);
}

/**
 * `npm run user:create` (users.cli.ts): the same account as the Users tab creates, made from the server's
 * shell, which is how the first admin of an install without demo accounts comes to exist.
 */
export async function createUserFromCommandLine(db: Db, input: NewUser, now: Date): Promise<CreatedUser> {
  return createAccount(db, { actor: 'command line (npm run user:create)', at: now }, now, input);
}

async function createAccount(
  db: Db,
  actor: ReturnType<typeof actorOf> | { actor: string; at: Date },
  now: Date,
  input: NewUser,
): Promise<CreatedUser> {
  const email = input.email.toLowerCase();
  const password = temporaryPassword();
  const passwordHash = await hashPassword(password);
  const temporaryPasswordExpiresAt = new Date(now.getTime() + TEMPORARY_PASSWORD_HOURS * 3600 * 1000);
  try {
    return await db.transaction(async (tx) => {
      const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
      if (taken) throw emailTaken();
      const [row] = await tx
        .insert(users)
        .values({ email, name: input.name, passwordHash, role: input.role, temporaryPasswordExpiresAt })
        .returning();
      if (!row) throw new Error('user insert returned nothing');
      await createDefaultUserSettings(tx, row.id);
      await record(tx, {
        ...actor,
        action: 'user.create',
        resource: `user/${row.id}`,
        detail: `created ${email} as ${input.role} with a temporary password`,
      });
      return { user: toManagedUser(row), temporaryPassword: password };
    });
  } catch (err) {
    // Two admins creating the same address at once: the unique index refuses the second.
    if (uniqueViolationOf(err) === 'users_email_unique') throw emailTaken();
    throw err;
  }
}

async function sessionCount(tx: Tx, userId: number, exceptIdHash?: string): Promise<number> {
  const rows = await tx.select({ idHash: sessions.idHash }).from(sessions).where(eq(sessions.userId, userId));
  return rows.filter((r) => r.idHash !== exceptIdHash).length;
}

/**
 * Changes an account's role or status. The account's sessions end (its permissions changed, or it may no
 * longer sign in). The last active admin can be neither demoted nor deactivated, whoever asks.
 */
export async function updateUser(db: Db, ctx: RequestContext, id: number, patch: UserPatch): Promise<ManagedUser> {
  return db.transaction(async (tx) => {
    // Locking the active admins serialises concurrent demotions: two admins cannot demote each other at once.
    const admins = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'admin'), eq(users.active, true)))
      .for('update');
    const [current] = await tx.select().from(users).where(eq(users.id, id)).limit(1).for('update');
    if (!current) throw new HttpError(404, 'NOT_FOUND', `No user with id ${id}.`);

    const role = patch.role ?? current.role;
    const active = patch.active ?? current.active;
    if (current.role === 'patient' && role !== 'patient') {
      throw new HttpError(400, 'PATIENT_ACCOUNT', 'role: a patient account keeps the patient role', {
        fields: [
          { field: 'role', message: 'cannot be changed for a patient account (it belongs to a patient record)' },
        ],
      });
    }
    if (current.role === 'patient' && active && current.patientId === null) {
      throw new HttpError(
        409,
        'NO_PATIENT_RECORD',
        'This patient account has no patient record; it cannot be reactivated.',
        {
          fields: [{ field: 'active', message: 'cannot be true: the patient record of this account was cleared' }],
        },
      );
    }
    const wasActiveAdmin = current.role === 'admin' && current.active;
    const staysActiveAdmin = role === 'admin' && active;
    if (wasActiveAdmin && !staysActiveAdmin && admins.length <= 1) {
      const field = role !== 'admin' ? 'role' : 'active';
      throw new HttpError(409, 'LAST_ADMIN', 'The last active admin cannot be demoted or deactivated.', {
        fields: [{ field, message: 'cannot change: this is the last active admin; make another admin first' }],
      });
    }

    const changes: string[] = [];
    if (role !== current.role) changes.push(`role ${current.role} -> ${role}`);
    if (active !== current.active) changes.push(active ? 'reactivated' : 'deactivated');
    if (changes.length === 0) return toManagedUser(current);

    const deactivatedByAdmin = active === current.active ? current.deactivatedByAdmin : !active;
    const [row] = await tx.update(users).set({ role, active, deactivatedByAdmin }).where(eq(users.id, id)).returning();
    if (!row) throw new Error('user update returned nothing');
    const ended = await sessionCount(tx, id);
    await destroyUserSessions(tx, id);
    await voidUserChallenges(tx, id);
    await record(tx, {
      ...actorOf(ctx),
      action: 'user.update',
      resource: `user/${id}`,
      detail: `${current.email}: ${changes.join(', ')}; ${ended} session(s) ended`,
    });
    return toManagedUser(row);
  });
}

/**
 * An admin's reset of a user's authenticator (a lost or replaced phone): the secret and recovery codes
 * go, the user's sessions and pending sign-ins end, and the next sign-in enrols again.
 */
export async function resetUserMfa(db: Db, ctx: RequestContext, id: number): Promise<ManagedUser> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(users).where(eq(users.id, id)).limit(1).for('update');
    if (!current) throw new HttpError(404, 'NOT_FOUND', `No user with id ${id}.`);
    // A stolen admin session alone must not be enough to replace that admin's second factor.
    if (id === ctx.user.id) {
      throw new HttpError(
        409,
        'OWN_ACCOUNT',
        'Another admin must reset your own authenticator (or use a recovery code).',
        {
          fields: [{ field: 'id', message: 'cannot be your own account' }],
        },
      );
    }
    const ended = await sessionCount(tx, id);
    await clearMfaEnrolment(tx, id);
    await destroyUserSessions(tx, id);
    await voidUserChallenges(tx, id);
    await record(tx, {
      ...actorOf(ctx),
      action: 'user.mfa.reset',
      resource: `user/${id}`,
      detail: `${current.email}: authenticator ${current.mfaSecret ? 'and recovery codes cleared' : 'was not enrolled'}; enrols again at next sign-in; ${ended} session(s) ended`,
    });
    return toManagedUser({ ...current, mfaSecret: null });
  });
}

/** Cheap extras on top of the password policy (12+ characters, not the current one): not the account's own email. */
function passwordPolicyProblem(newPassword: string, email: string): string | null {
  const lowered = newPassword.trim().toLowerCase();
  const localPart = email.split('@')[0] ?? '';
  if (lowered === email || lowered === localPart) return 'must not be your email address';
  return null;
}

/**
 * Changes the caller's own password after checking the current one. Every other session of the account
 * ends and pending MFA steps are voided; the session that asked stays signed in. Audited without either
 * password.
 */
export async function changeOwnPassword(
  db: Db,
  ctx: RequestContext,
  sessionIdHash: string,
  input: PasswordChange,
): Promise<{ endedSessions: number }> {
  const [account] = await db.select().from(users).where(eq(users.id, ctx.user.id)).limit(1);
  if (!account) throw new HttpError(401, 'UNAUTHENTICATED', 'Please sign in.');
  const currentOk = await verifyPassword(account.passwordHash, input.currentPassword);
  if (!currentOk) {
    await db.transaction((tx) =>
      record(tx, {
        ...actorOf(ctx),
        action: 'auth.password.change.failure',
        resource: `user/${ctx.user.id}`,
        detail: 'current password not accepted',
      }),
    );
    throw new HttpError(400, 'WRONG_PASSWORD', 'currentPassword: is not your current password', {
      fields: [{ field: 'currentPassword', message: 'is not your current password' }],
    });
  }
  const problem = passwordPolicyProblem(input.newPassword, account.email);
  if (problem) {
    throw new HttpError(400, 'VALIDATION_FAILED', `newPassword: ${problem}`, {
      fields: [{ field: 'newPassword', message: problem }],
    });
  }
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, temporaryPasswordExpiresAt: null }).where(eq(users.id, ctx.user.id));
    const endedSessions = await sessionCount(tx, ctx.user.id, sessionIdHash);
    await destroyUserSessions(tx, ctx.user.id, sessionIdHash);
    await voidUserChallenges(tx, ctx.user.id);
    await record(tx, {
      ...actorOf(ctx),
      action: 'auth.password.change',
      resource: `user/${ctx.user.id}`,
      detail: `password changed; ${endedSessions} other session(s) ended`,
    });
    return { endedSessions };
  });
}

export interface DetachedPatientAccount {
  id: number;
  email: string;
  deactivatedByAdmin: boolean;
}

/**
 * Before the clinic's records are deleted (re-seed, global reset): every patient account is unlinked from
 * its record and deactivated, inside the caller's transaction, so no patient account points at a record
 * that is gone. `reattachPatientAccounts` then links back the seed's own demo account only.
 */
export async function detachPatientAccounts(tx: Tx): Promise<DetachedPatientAccount[]> {
  const accounts = await tx
    .select({ id: users.id, email: users.email, deactivatedByAdmin: users.deactivatedByAdmin })
    .from(users)
    .where(eq(users.role, 'patient'))
    .orderBy(asc(users.id))
    .for('update');
  await tx.update(users).set({ patientId: null, active: false }).where(eq(users.role, 'patient'));
  return accounts;
}

/**
 * After the records were replaced: the seed's own demo patient account (`demo.accountEmail`) is linked to the
 * seed's demo record, and active again unless an admin deactivated it. No other account is ever linked by a
 * matching email (a self-registered account could otherwise be handed another patient's new record): each
 * stays deactivated without a record, its sessions and pending sign-ins end, and staff link it to a record
 * in Users (`linkPatientAccount`). `demo` is null for a reset, which leaves every account unlinked.
 */
export async function reattachPatientAccounts(
  tx: Tx,
  accounts: readonly DetachedPatientAccount[],
  demo: { accountEmail: string; patientId: number } | null,
): Promise<{ relinked: number; deactivated: number }> {
  let relinked = 0;
  let deactivated = 0;
  for (const account of accounts) {
    if (demo && account.email === demo.accountEmail) {
      await tx
        .update(users)
        .set({ patientId: demo.patientId, active: !account.deactivatedByAdmin })
        .where(eq(users.id, account.id));
      relinked += 1;
    } else {
      await destroyUserSessions(tx, account.id);
      await voidUserChallenges(tx, account.id);
      deactivated += 1;
    }
  }
  return { relinked, deactivated };
}

function noSuchRecord() {
  return new HttpError(404, 'NOT_FOUND', 'mrn: no patient record can be linked with this MRN', {
    fields: [{ field: 'mrn', message: 'must name a patient record that has no account' }],
  });
}

/**
 * Staff link a patient account to a patient record, named by its MRN (Users tab): the one way an account
 * gets a record besides registering and the demo seed. The record must have no account of its own; the
 * account's sessions end (they were opened on the old link) and it is active again unless an admin
 * deactivated it. Audited with the record, in the same transaction.
 */
export async function linkPatientAccount(
  db: Db,
  ctx: RequestContext,
  id: number,
  link: PatientLink,
): Promise<ManagedUser> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(users).where(eq(users.id, id)).limit(1).for('update');
    if (!current) throw new HttpError(404, 'NOT_FOUND', `No user with id ${id}.`);
    if (current.role !== 'patient') {
      throw new HttpError(400, 'NOT_PATIENT_ACCOUNT', 'role: only a patient account is linked to a patient record', {
        fields: [{ field: 'role', message: 'must be patient to link a patient record' }],
      });
    }
    const [patient] = await tx
      .select({ id: patients.id, mrn: patients.mrn })
      .from(patients)
      .where(sql`lower(${patients.mrn}) = lower(${link.mrn})`)
      .limit(1)
      .for('update');
    if (!patient) throw noSuchRecord();
    const [holder] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.patientId, patient.id), sql`${users.id} <> ${id}`))
      .limit(1);
    if (holder) throw noSuchRecord();
    const [row] = await tx
      .update(users)
      .set({ patientId: patient.id, active: !current.deactivatedByAdmin })
      .where(eq(users.id, id))
      .returning();
    if (!row) throw new Error('user update returned nothing');
    const ended = await sessionCount(tx, id);
    await destroyUserSessions(tx, id);
    await voidUserChallenges(tx, id);
    await record(tx, {
      ...actorOf(ctx),
      action: 'user.patient_link',
      resource: `user/${id}`,
      detail: `${current.email}: linked to patient ${patient.id}${
        current.patientId !== null && current.patientId !== patient.id ? ` (was patient ${current.patientId})` : ''
      }; ${ended} session(s) ended`,
      patientId: patient.id,
    });
    return toManagedUser(row);
  });
}
