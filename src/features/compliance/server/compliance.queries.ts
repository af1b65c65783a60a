import { asc, count, eq, sql } from 'drizzle-orm';
import { ROLES, PERMISSIONS, SCREENS, SCREENS_BY_ROLE, can, requiresMfa, type Role } from '@/shared/access';
import { percentOf } from '@/shared/percent';
import { actorOf, record } from '@/features/audit/server/audit.queries';
import { auditLog } from '@/features/audit/server/audit.table';
import { users } from '@/features/auth/server/auth.table';
import type { AppConfig, RequestContext } from '@/server/context';
import type { Db } from '@/server/db/types';
import type { RegisteredRoute } from '@/server/plugins/access';
import { HttpError } from '@/server/plugins/errors';
import {
  complianceGapSchema,
  hipaaItemSchema,
  wcagCheckSchema,
  type ComplianceOverview,
  type GapPatch,
  type GapsResponse,
  type HipaaItem,
  type WcagCheck,
} from '../compliance.schema';
import { complianceScores } from './compliance.scores';
import { complianceGaps, hipaaAuditItems, wcagChecks } from './compliance.table';

/** The registered API routes (method and path), one per method; HEAD is left out by the access plugin. */
export function apiRoutesOf(registry: readonly RegisteredRoute[]): RegisteredRoute[] {
  return registry.filter((r) => r.url.startsWith('/api/'));
}

/**
 * RBAC coverage: the share of registered API routes that need a session and a permission. Every
 * such route is decided for all six roles by the one policy, so it is also the share of route × role
 * cells under access control. The screens × roles cells are counted from the same policy.
 */
export function rbacCoverage(registry: readonly RegisteredRoute[]): ComplianceOverview['rbac'] {
  const api = apiRoutesOf(registry);
  const publicRoutes = api.filter((r) => r.permission === 'public').map((r) => `${r.method} ${r.url}`);
  const protectedRoutes = api.length - publicRoutes.length;
  const total = SCREENS.length * ROLES.length;
  const allowed = ROLES.reduce((sum, role) => sum + SCREENS_BY_ROLE[role].length, 0);
  return {
    percent: percentOf(protectedRoutes, api.length),
    apiRoutes: api.length,
    protectedRoutes,
    publicRoutes,
    screenCells: { total, allowed, denied: total - allowed },
  };
}

export async function activeAccountsByRole(db: Db): Promise<Map<Role, { active: number; enrolled: number }>> {
  const rows = await db
    .select({
      role: users.role,
      active: count(),
      enrolled: sql<number>`count(${users.mfaSecret})::int`,
    })
    .from(users)
    .where(eq(users.active, true))
    .groupBy(users.role);
  return new Map(rows.map((r) => [r.role as Role, { active: Number(r.active), enrolled: Number(r.enrolled) }]));
}

export async function countAuditEvents(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(auditLog);
  return Number(row?.n ?? 0);
}

export async function getOverview(
  db: Db,
  config: Pick<AppConfig, 'demoMode'>,
  registry: readonly RegisteredRoute[],
): Promise<ComplianceOverview> {
  const [accounts, events] = await Promise.all([activeAccountsByRole(db), countAuditEvents(db)]);
  return {
    rbac: rbacCoverage(registry),
    mfa: {
      secondFactor: config.demoMode ? 'one-time code' : 'authenticator app',
      roles: ROLES.map((role) => {
        const a = accounts.get(role) ?? { active: 0, enrolled: 0 };
        // In demo mode every sign-in gets a one-time code; otherwise an account needs an enrolled TOTP secret.
        return {
          role,
          required: requiresMfa(role),
          activeAccounts: a.active,
          enrolledAccounts: config.demoMode ? a.active : a.enrolled,
        };
      }),
    },
    audit: { events },
    matrix: {
      screens: SCREENS.map((s) => ({ path: s.path, label: s.label })),
      roles: ROLES.map((role) => ({
        role,
        screens: SCREENS.filter((s) => SCREENS_BY_ROLE[role].includes(s.path)).map((s) => s.path),
        permissions: PERMISSIONS.filter((p) => can(role, p)),
      })),
    },
  };
}

export async function listHipaaItems(db: Db): Promise<HipaaItem[]> {
  const rows = await db.select().from(hipaaAuditItems).orderBy(asc(hipaaAuditItems.id));
  return rows.map((r) => hipaaItemSchema.parse(r));
}

export async function listWcagChecks(db: Db): Promise<WcagCheck[]> {
  const rows = await db.select().from(wcagChecks).orderBy(asc(wcagChecks.id));
  return rows.map((r) => wcagCheckSchema.parse(r));
}

async function gapsAndScores(db: Db): Promise<GapsResponse> {
  const [gapRows, items] = await Promise.all([
    db.select().from(complianceGaps).orderBy(asc(complianceGaps.dueDate), asc(complianceGaps.id)),
    db.select({ safeguard: hipaaAuditItems.safeguard, status: hipaaAuditItems.status }).from(hipaaAuditItems),
  ]);
  const gaps = gapRows.map((r) => complianceGapSchema.parse(r));
  return {
    gaps,
    scores: complianceScores(
      items.map((i) => hipaaItemSchema.pick({ safeguard: true, status: true }).parse(i)),
      gaps,
    ),
  };
}

export function listGaps(db: Db): Promise<GapsResponse> {
  return gapsAndScores(db);
}

/** Sets a gap's status and audits the change in the same transaction; answers the list with the new scores. */
export async function updateGapStatus(db: Db, ctx: RequestContext, id: number, patch: GapPatch): Promise<GapsResponse> {
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(complianceGaps).where(eq(complianceGaps.id, id)).limit(1).for('update');
    if (!current) throw new HttpError(404, 'NOT_FOUND', 'No compliance gap with that id.');
    if (current.status === patch.status) return;
    await tx.update(complianceGaps).set({ status: patch.status }).where(eq(complianceGaps.id, id));
    await record(tx, {
      ...actorOf(ctx),
      action: 'compliance.gap.update',
      resource: `compliance_gap/${id}`,
      detail: `status ${current.status} → ${patch.status}`,
    });
  });
  return gapsAndScores(db);
}
