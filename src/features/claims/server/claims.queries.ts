import { desc, eq, ilike, or } from 'drizzle-orm';
import type { RequestContext } from '@/server/context';
import type { Db } from '@/server/db/types';
import { containsPattern } from '@/server/db/like';
import { patients } from '@/features/patients/server/patients.table';
import { claims } from './claims.table';

/** Global search: claims whose patient name or account number contains the text, newest first. */
export async function searchClaimsBrief(db: Db, _ctx: RequestContext, text: string, limit: number) {
  const pattern = containsPattern(text);
  return db
    .select({ id: claims.id, patient: patients.name, accountNumber: claims.accountNumber, status: claims.status })
    .from(claims)
    .innerJoin(patients, eq(patients.id, claims.patientId))
    .where(or(ilike(patients.name, pattern), ilike(claims.accountNumber, pattern)))
    .orderBy(desc(claims.serviceDate), desc(claims.id))
    .limit(limit);
}
