import { listOwnAppointments } from '@/features/appointments/server/appointments.queries';
import { record } from '@/features/audit/server/audit.queries';
import { listOwnRecentClaims } from '@/features/claims/server/claims.queries';
import type { RequestContext } from '@/server/context';
import type { Db, Tx } from '@/server/db/types';
import { PORTAL_CLAIM_LIMIT, type PortalAppointment, type PortalClaim } from '../portal.schema';

/** A patient reading their own record is still a PHI read (DECISIONS 6): audited with the read. */
async function auditOwnRead(tx: Tx, ctx: RequestContext, patientId: number, what: string, count: number) {
  await record(tx, {
    actor: ctx.user.email,
    actorUserId: ctx.user.id,
    actorRole: ctx.user.role,
    action: 'portal.view',
    resource: `patient/${patientId}/${what}`,
    detail: `viewed own ${what} in the patient portal (${count})`,
    patientId,
    at: ctx.now,
  });
}

/** DECISIONS 2: only the session's linked patient, whatever the request says; cancelled visits hidden. */
export async function getPortalAppointments(db: Db, ctx: RequestContext): Promise<PortalAppointment[]> {
  const patientId = ctx.user.patientId;
  if (patientId === null) return [];
  return db.transaction(async (tx) => {
    const rows = await listOwnAppointments(tx, ctx);
    await auditOwnRead(tx, ctx, patientId, 'appointments', rows.length);
    return rows.map(({ id, provider, reason, date, time, status }) => ({ id, provider, reason, date, time, status }));
  });
}

/** SPEC 9: the 5 most recent claims of the session's linked patient, newest service date first. */
export async function getPortalClaims(db: Db, ctx: RequestContext): Promise<PortalClaim[]> {
  const patientId = ctx.user.patientId;
  if (patientId === null) return [];
  return db.transaction(async (tx) => {
    const rows = await listOwnRecentClaims(tx, ctx, PORTAL_CLAIM_LIMIT);
    await auditOwnRead(tx, ctx, patientId, 'claims', rows.length);
    return rows;
  });
}
