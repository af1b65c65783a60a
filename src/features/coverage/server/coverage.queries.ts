import { and, asc, eq } from 'drizzle-orm';
import { recordRead } from '@/features/audit/server/audit.queries';
import { maskMemberId } from '@/shared/access';
import type { RequestContext } from '@/server/context';
import type { Db, DbOrTx } from '@/server/db/types';
import type { Coverage } from '../coverage.schema';
import { coverages } from './coverage.table';

const columns = {
  id: coverages.id,
  patientId: coverages.patientId,
  payer: coverages.payer,
  priority: coverages.priority,
  memberId: coverages.memberId,
  groupNumber: coverages.groupNumber,
  relationship: coverages.relationship,
  subscriberName: coverages.subscriberName,
  subscriberDob: coverages.subscriberDob,
  effectiveOn: coverages.effectiveOn,
  endOn: coverages.endOn,
};

/** A patient's policies, primary first (the claim form offers them); an audited PHI read. */
export async function listPatientCoverages(db: Db, ctx: RequestContext, patientId: number): Promise<Coverage[]> {
  const found = await db
    .select(columns)
    .from(coverages)
    .where(eq(coverages.patientId, patientId))
    .orderBy(asc(coverages.priority), asc(coverages.effectiveOn), asc(coverages.id));
  await recordRead(db, ctx, {
    action: 'coverage.list.view',
    resource: `patient/${patientId}`,
    detail: `listed ${found.length} coverage${found.length === 1 ? '' : 's'}`,
    patientId,
  });
  return found.map((c) => ({ ...c, memberId: maskMemberId(c.memberId, ctx.user.role) }));
}

/** The coverage if it is this patient's, else null (a claim may only bill the patient's own policy). */
export async function patientCoverage(db: DbOrTx, patientId: number, coverageId: number) {
  const [found] = await db
    .select(columns)
    .from(coverages)
    .where(and(eq(coverages.id, coverageId), eq(coverages.patientId, patientId)))
    .limit(1);
  return found ?? null;
}
