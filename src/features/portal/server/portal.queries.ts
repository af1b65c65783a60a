import { listOwnAppointments } from '@/features/appointments/server/appointments.queries';
import { actorOf, recordNow } from '@/features/audit/server/audit.queries';
import { listOwnRecentClaims } from '@/features/claims/server/claims.portal.queries';
import type { RequestContext } from '@/server/context';
import type { Db } from '@/server/db/types';
import { PORTAL_CLAIM_LIMIT, type PortalAppointment, type PortalClaim } from '../portal.schema';

/**
 * A patient reading their own record is still a PHI read (docs/audit.md): audited after the read and before
 * the answer, in one statement (no transaction holds the audit chain's lock across a round trip).
 */
async function auditOwnRead(db: Db, ctx: RequestContext, patientId: number, what: string, count: number) {
  await recordNow(db, {
    ...actorOf(ctx),
    action: 'portal.view',
    resource: `patient/${patientId}/${what}`,
    detail: `viewed own ${what} in the patient portal (${count})`,
    patientId,
  });
}

/** Only the session's linked patient, whatever the request says; cancelled visits hidden. */
export async function getPortalAppointments(db: Db, ctx: RequestContext): Promise<PortalAppointment[]> {
  const patientId = ctx.user.patientId;
  if (patientId === null) return [];
  const rows = await listOwnAppointments(db, ctx);
  await auditOwnRead(db, ctx, patientId, 'appointments', rows.length);
  return rows.map(({ id, provider, reason, date, time, status }) => ({ id, provider, reason, date, time, status }));
}

/** The 5 most recent claims of the session's linked patient, newest service date first. */
export async function getPortalClaims(db: Db, ctx: RequestContext): Promise<PortalClaim[]> {
  const patientId = ctx.user.patientId;
  if (patientId === null) return [];
  const rows = await listOwnRecentClaims(db, ctx, PORTAL_CLAIM_LIMIT);
  await auditOwnRead(db, ctx, patientId, 'claims', rows.length);
  return rows;
}
