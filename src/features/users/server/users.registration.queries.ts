import type { RequestClient } from '@/server/request-client';
import { eq } from 'drizzle-orm';
import { record } from '@/features/audit/server/audit.queries';
import {
  assertPlausibleDob,
  insertSelfRegisteredPatient,
  patientRecordHasEmail,
} from '@/features/patients/server/patients.queries';
import { createDefaultUserSettings } from '@/features/settings/server/settings.queries';
import type { Db } from '@/server/db/types';
import { uniqueViolationOf } from '@/server/db/sql-helpers';
import { HttpError } from '@/server/plugins/errors';
import type { Registration } from '@/features/auth/auth.schema';
import { hashPassword } from '@/features/auth/server/auth.passwords';
import { users } from '@/features/auth/server/auth.table';

/** The same neutral answer whoever holds the address: it does not say whose account it is. */
function emailUnavailable() {
  return new HttpError(409, 'EMAIL_UNAVAILABLE', 'email: cannot be used to create an account', {
    fields: [{ field: 'email', message: 'cannot be used to create an account; if it is yours, sign in instead' }],
  });
}

/**
 * Self-registration from the guest landing: in ONE transaction a patient record (with a generated MRN),
 * a patient user linked to it, that user's settings row and an audit entry. Nothing is written when any
 * step fails. Emails are stored lower-cased, so uniqueness is case-insensitive. An address already on a
 * patient record is refused like a taken one: the new account would otherwise share it with that record.
 */
export async function registerPatientAccount(
  db: Db,
  input: Registration,
  now: Date,
  caller: { id: number; email: string; role: string } | null,
  client: RequestClient | null,
): Promise<{ userId: number; email: string }> {
  assertPlausibleDob(input.dob, now);
  const email = input.email.toLowerCase();
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
      if (taken) throw emailUnavailable();
      // A record already holding this address belongs to someone the clinic knows: an account for it is
      // linked by staff, never by whoever types the address here (same answer, so no record is revealed).
      if (await patientRecordHasEmail(tx, email)) throw emailUnavailable();
      const patient = await insertSelfRegisteredPatient(tx, {
        name: input.name,
        dob: input.dob,
        phone: input.phone,
        email,
      });
      const [user] = await tx
        .insert(users)
        .values({ email, name: input.name, passwordHash, role: 'patient', patientId: patient.id })
        .returning({ id: users.id });
      if (!user) throw new Error('user insert returned nothing');
      await createDefaultUserSettings(tx, user.id);
      await record(tx, {
        actor: email,
        actorUserId: user.id,
        actorRole: 'patient',
        action: 'auth.register',
        resource: `user/${user.id}`,
        detail: `patient account self-registered${caller ? ` from the ${caller.role} session of ${caller.email}` : ''}`,
        patientId: patient.id,
        at: now,
        ...client,
      });
      return { userId: user.id, email };
    });
  } catch (err) {
    // Two registrations racing for one address: the unique index refuses the second.
    if (uniqueViolationOf(err) === 'users_email_unique') throw emailUnavailable();
    throw err;
  }
}
