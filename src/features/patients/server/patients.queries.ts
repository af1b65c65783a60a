import { asc, ilike, or } from 'drizzle-orm';
import { maskText } from '@/shared/access';
import type { RequestContext } from '@/server/context';
import type { Db } from '@/server/db/types';
import { containsPattern } from '@/server/db/like';
import { patients } from './patients.table';

/** Global search: patients whose name or MRN contains the text; MRN masked for the caller's role. */
export async function searchPatientsBrief(db: Db, ctx: RequestContext, text: string, limit: number) {
  const pattern = containsPattern(text);
  const rows = await db
    .select({ id: patients.id, name: patients.name, mrn: patients.mrn })
    .from(patients)
    .where(or(ilike(patients.name, pattern), ilike(patients.mrn, pattern)))
    .orderBy(asc(patients.name), asc(patients.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, mrn: maskText('mrn', r.mrn, ctx.user.role) }));
}
