import { asc, desc, eq, ilike, or } from 'drizzle-orm';
import type { RequestContext } from '@/server/context';
import type { Db } from '@/server/db/types';
import { containsPattern } from '@/server/db/like';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';
import { appointments } from './appointments.table';

/** Global search: appointments whose patient or provider name contains the text, newest first. */
export async function searchAppointmentsBrief(db: Db, _ctx: RequestContext, text: string, limit: number) {
  const pattern = containsPattern(text);
  return db
    .select({
      id: appointments.id,
      patient: patients.name,
      provider: providers.name,
      date: appointments.date,
      time: appointments.time,
    })
    .from(appointments)
    .innerJoin(patients, eq(patients.id, appointments.patientId))
    .innerJoin(providers, eq(providers.id, appointments.providerId))
    .where(or(ilike(patients.name, pattern), ilike(providers.name, pattern)))
    .orderBy(desc(appointments.date), asc(appointments.time), asc(appointments.id))
    .limit(limit);
}
