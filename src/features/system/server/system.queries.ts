/**
 * Whole-system operations of the admin: the health check, re-seeding the demo
 * clinic and the global reset. Both writes run in ONE transaction with their audit entry: users, their
 * settings, the practice's settings, the compliance lists and the audit trail stay.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { today } from '@/shared/api';
import { timeInZone } from '@/shared/practice-zone';
import { getPracticeHours } from '@/features/settings/server/settings.queries';
import { actorOf, record } from '@/features/audit/server/audit.queries';
import { users } from '@/features/auth/server/auth.table';
import { detachPatientAccounts, reattachPatientAccounts } from '@/features/users/server/users.queries';
import type { RequestContext } from '@/server/context';
import type { Db, Tx } from '@/server/db/types';
import {
  CLINIC_RECORD_TABLES,
  DEFAULT_SEED,
  DEMO_PATIENT_ACCOUNT_EMAIL,
  deleteClinicRecords,
  seedClinicData,
  type ClinicStaff,
} from '@/server/db/seed/demo-seed';
import type { ResetResponse, SeedResponse } from '../system.schema';

/** Any fixed number: one seed or reset at a time. */
const SYSTEM_LOCK = 7_346_002;

export async function databaseIsUp(db: Db): Promise<boolean> {
  await db.execute(sql`select 1`);
  return true;
}

function describeCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/** The staff the seeded records name (authorization decisions, appeals): the oldest active account of each role. */
async function clinicStaff(tx: Tx): Promise<ClinicStaff> {
  const oldest = async (role: string) => {
    const [row] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, role), eq(users.active, true)))
      .orderBy(asc(users.id))
      .limit(1);
    return row?.id ?? null;
  };
  return { nurseManagerId: await oldest('nurse_manager'), billingAdminId: await oldest('billing_admin') };
}

/**
 * Replaces the clinic's records with the deterministic demo clinic for today. The seed's demo patient
 * account gets the new demo record; every other patient account is left without a record (theirs is gone)
 * until staff link it. No synthetic audit history is added: the trail records what really happened, this
 * re-seed included.
 */
export async function reseedDemoClinic(db: Db, ctx: RequestContext): Promise<SeedResponse> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SYSTEM_LOCK})`);
    const accounts = await detachPatientAccounts(tx);
    const removed = await deleteClinicRecords(tx);
    const staff = await clinicStaff(tx);
    let demoPatientId = 0;
    const seeded = await seedClinicData(tx, {
      today: today(ctx.now),
      time: timeInZone(ctx.now),
      hours: await getPracticeHours(tx),
      seed: DEFAULT_SEED,
      linkAccounts: async (id) => {
        demoPatientId = id;
        return staff;
      },
    });
    const links = await reattachPatientAccounts(tx, accounts, {
      accountEmail: DEMO_PATIENT_ACCOUNT_EMAIL,
      patientId: demoPatientId,
    });
    const summary = {
      ...seeded.summary,
      patientAccountsRelinked: links.relinked,
      patientAccountsDeactivated: links.deactivated,
    };
    await record(tx, {
      ...actorOf(ctx),
      action: 'system.seed',
      resource: 'system',
      detail: `re-seeded the demo clinic for ${today(ctx.now)}: ${describeCounts(summary)} (replaced ${describeCounts(removed)})`,
    });
    return { summary };
  });
}

/**
 * Clears the clinic's records. Staff accounts, settings, compliance lists and the audit trail stay; patient
 * accounts lose their records, so they are deactivated and signed out.
 */
export async function resetSystem(db: Db, ctx: RequestContext): Promise<ResetResponse> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SYSTEM_LOCK})`);
    const accounts = await detachPatientAccounts(tx);
    const removed = await deleteClinicRecords(tx);
    const links = await reattachPatientAccounts(tx, accounts, null);
    await record(tx, {
      ...actorOf(ctx),
      action: 'system.reset',
      resource: 'system',
      detail: `cleared ${describeCounts(removed)}; patient accounts deactivated=${links.deactivated}`,
    });
    return { cleared: [...CLINIC_RECORD_TABLES] };
  });
}
