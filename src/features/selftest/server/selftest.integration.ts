/**
 * Integration checks: HTTP calls through the running app (`app.inject`, the same routing,
 * access gate, session resolution and serialisation as a browser's call) and checks of the database.
 *
 * To call as each role, short-lived sessions are created for the seeded demo accounts and deleted when
 * the run ends (selftest.queries.ts#withRoleSessions). The checks only read clinic data: the one POST is
 * a cross-site request the CSRF gate must refuse before validation, with an empty body that could never
 * create anything. What the calls leave behind is what any such call leaves: audit entries (denied
 * access, the patient's own portal read) that record the self-test's calls honestly.
 */
import { inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { can, maskPatient, ROLES, seesField } from '@/shared/access';
import { verifyChain } from '@/features/audit/server/audit.queries';
import { createSession, destroySession, resolveSession, sha256 } from '@/features/auth/server/auth.queries';
import { appointments } from '@/features/appointments/server/appointments.table';
import { claims } from '@/features/claims/server/claims.table';
import { patients } from '@/features/patients/server/patients.table';
import type { AppDeps } from '@/server/context';
import { SESSION_COOKIE } from '@/server/plugins/access';
import { demoUser, sameValue, withRoleSessions, type RoleSession } from './selftest.queries';
import { expectThat, mismatches, type SelfCheck } from './selftest.runner';

/** Read endpoints behind each kind of data; the permission each one needs is read from the app's route registry. */
const PROBED_ENDPOINTS = [
  '/api/patients',
  '/api/appointments',
  '/api/claims',
  '/api/authorizations',
  '/api/claims/analytics/kpis',
  '/api/billing/patients',
  '/api/portal/claims',
  '/api/settings',
] as const;

/** Endpoints that serve PHI: nobody without a session may read them. */
const PHI_ENDPOINTS = [
  '/api/patients',
  '/api/appointments',
  '/api/claims',
  '/api/authorizations',
  '/api/portal/claims',
];

function call(app: FastifyInstance, session: RoleSession | null, options: InjectOptions) {
  if (!session) return app.inject(options);
  return app.inject({
    ...options,
    cookies: { [SESSION_COOKIE]: session.sessionId },
    headers: { 'x-csrf-token': session.csrfToken, 'x-user-role': session.user.role, ...(options.headers ?? {}) },
  });
}

function describeResponse(response: LightMyRequestResponse): string {
  return `${response.statusCode} ${response.body.slice(0, 120)}`;
}

export function integrationChecks(app: FastifyInstance, deps: AppDeps): SelfCheck[] {
  const { db } = deps;
  const permissionOf = (url: string) => app.routeRegistry.find((r) => r.method === 'GET' && r.url === url)?.permission;

  return [
    {
      testId: 'IT-001',
      module: 'database',
      description: 'The database answers and holds the clinic tables',
      run: async () => {
        const result = await db.execute<{ ok: number; tables: number }>(sql`select 1 as ok,
          (select count(*)::int from information_schema.tables where table_schema = 'public'
             and table_name in ('patients', 'appointments', 'claims', 'audit_log', 'users', 'sessions')) as tables`);
        const row = result.rows[0];
        expectThat(row?.ok === 1, 'the database did not answer select 1');
        expectThat(row.tables === 6, `only ${row.tables} of the 6 core tables exist`);
      },
    },
    {
      testId: 'IT-002',
      module: 'access',
      description: 'Calls to PHI endpoints without a session answer 401',
      run: async () => {
        const problems: string[] = [];
        for (const url of PHI_ENDPOINTS) {
          const response = await app.inject({ method: 'GET', url });
          if (response.statusCode !== 401) problems.push(`${url}: ${describeResponse(response)}`);
        }
        mismatches(problems);
      },
    },
    {
      testId: 'IT-003',
      module: 'access',
      description: "Each role's calls are allowed or refused (403) exactly as the policy says",
      run: async () => {
        const problems: string[] = [];
        await withRoleSessions(db, ROLES, deps.clock(), async (sessions) => {
          for (const url of PROBED_ENDPOINTS) {
            const permission = permissionOf(url);
            if (!permission || permission === 'public' || permission === 'authenticated') {
              problems.push(`${url} is not guarded by a permission (${String(permission)})`);
              continue;
            }
            for (const role of ROLES) {
              const response = await call(app, sessions.get(role) ?? null, { method: 'GET', url });
              const expected = can(role, permission) ? 200 : 403;
              if (response.statusCode !== expected) {
                problems.push(`${role} ${url}: expected ${expected}, got ${describeResponse(response)}`);
              }
            }
          }
        });
        mismatches(problems);
      },
    },
    {
      testId: 'IT-004',
      module: 'masking',
      description: 'The patient list each role receives is masked as the policy says, never the stored value',
      run: async () => {
        const problems: string[] = [];
        const roles = ROLES.filter((r) => can(r, 'patients:read'));
        expectThat(roles.length > 0, 'no role may read patients');
        await withRoleSessions(db, roles, deps.clock(), async (sessions) => {
          for (const role of roles) {
            const response = await call(app, sessions.get(role) ?? null, {
              method: 'GET',
              url: '/api/patients?limit=50',
            });
            if (response.statusCode !== 200) {
              problems.push(`${role}: ${describeResponse(response)}`);
              continue;
            }
            const items = response.json<{ items: ({ id: number } & Record<string, unknown>)[] }>().items;
            if (items.length === 0) problems.push(`${role}: the list is empty, nothing to check`);
            const stored = await db
              .select({
                id: patients.id,
                dob: sql<string>`${patients.dob}::text`,
                phone: patients.phone,
                mrn: patients.mrn,
                notes: patients.notes,
                allergies: patients.allergies,
                meds: patients.meds,
              })
              .from(patients)
              .where(
                inArray(
                  patients.id,
                  items.map((i) => i.id),
                ),
              );
            for (const raw of stored) {
              const sent = items.find((i) => i.id === raw.id);
              const expected = maskPatient(raw, role);
              for (const field of ['dob', 'phone', 'mrn', 'notes', 'allergies', 'meds'] as const) {
                const leaked = !seesField(role, field) && sameValue(sent?.[field], raw[field]) && raw[field].length > 0;
                if (leaked || !sameValue(sent?.[field], expected[field])) {
                  problems.push(`${role} patient ${raw.id} ${field}: ${JSON.stringify(sent?.[field])}`);
                }
              }
            }
          }
        });
        mismatches(problems);
      },
    },
    {
      testId: 'IT-005',
      module: 'security',
      description: 'A cross-site POST and a POST without the CSRF token are refused (403)',
      run: async () => {
        const problems: string[] = [];
        await withRoleSessions(db, ['admin'], deps.clock(), async (sessions) => {
          const admin = sessions.get('admin') ?? null;
          // An empty body: even a broken gate could not create a patient from it (validation refuses it).
          const crossSite = await call(app, admin, {
            method: 'POST',
            url: '/api/patients',
            headers: { origin: 'https://attacker.example' },
            payload: {},
          });
          if (crossSite.statusCode !== 403) problems.push(`cross-site POST: ${describeResponse(crossSite)}`);
          const noToken = await call(app, admin, {
            method: 'POST',
            url: '/api/patients',
            headers: { 'x-csrf-token': '' },
            payload: {},
          });
          if (noToken.statusCode !== 403) problems.push(`POST without CSRF token: ${describeResponse(noToken)}`);
        });
        mismatches(problems);
      },
    },
    {
      testId: 'IT-006',
      module: 'security',
      description: 'A forged X-User-Role header grants nothing: the role comes from the session',
      run: async () => {
        await withRoleSessions(db, ['nurse_manager'], deps.clock(), async (sessions) => {
          const response = await call(app, sessions.get('nurse_manager') ?? null, {
            method: 'GET',
            url: '/api/claims',
            headers: { 'x-user-role': 'admin' },
          });
          expectThat(response.statusCode === 403, `nurse claiming admin on /api/claims: ${describeResponse(response)}`);
        });
      },
    },
    {
      testId: 'IT-007',
      module: 'data scope',
      description: "The demo patient's portal returns only that patient's own claims and appointments",
      run: async () => {
        const problems: string[] = [];
        await withRoleSessions(db, ['patient'], deps.clock(), async (sessions) => {
          const session = sessions.get('patient') ?? null;
          const ownId = session?.user.patientId ?? null;
          expectThat(ownId !== null, 'the demo patient account is not linked to a patient record');
          for (const [url, table] of [
            ['/api/portal/claims', claims],
            ['/api/portal/appointments', appointments],
          ] as const) {
            const response = await call(app, session, { method: 'GET', url });
            if (response.statusCode !== 200) {
              problems.push(`${url}: ${describeResponse(response)}`);
              continue;
            }
            const ids = response.json<{ id: number }[]>().map((r) => r.id);
            if (ids.length === 0) {
              problems.push(`${url} returned nothing to check`);
              continue;
            }
            const owners = await db
              .selectDistinct({ patientId: table.patientId })
              .from(table)
              .where(inArray(table.id, ids));
            const foreign = owners.filter((o) => o.patientId !== ownId);
            if (foreign.length > 0) problems.push(`${url} returned rows of ${foreign.length} other patient(s)`);
          }
        });
        mismatches(problems);
      },
    },
    {
      testId: 'IT-008',
      module: 'sessions',
      description: 'A session expires after the configured inactivity (at most 15 minutes) and is renewed by use',
      run: async () => {
        const idle = deps.config.sessionIdleMinutes;
        expectThat(idle > 0 && idle <= 15, `the idle timeout is ${idle} minutes`);
        const user = await demoUser(db, 'admin');
        const now = deps.clock();
        const { sessionId } = await createSession(db, { userId: user.id, now, absoluteHours: 1 });
        try {
          const used = new Date(now.getTime() + (idle - 1) * 60_000);
          expectThat(
            (await resolveSession(db, sessionId, used, idle)) !== null,
            'a session used within the timeout ended',
          );
          const idleAfterUse = new Date(used.getTime() + idle * 60_000);
          expectThat(
            (await resolveSession(db, sessionId, idleAfterUse, idle)) === null,
            `a session idle for ${idle} minutes still resolved`,
          );
        } finally {
          await destroySession(db, sha256(sessionId));
        }
      },
    },
    {
      testId: 'IT-009',
      module: 'audit',
      description: 'The audit trail verifies: every entry matches its hash and links to the one before',
      run: async () => {
        const result = await verifyChain(db);
        expectThat(result.checked > 0, 'the audit trail is empty');
        expectThat(
          result.ok,
          `the audit chain breaks at entry #${result.firstBreak?.id} (position ${result.firstBreak?.position}): ${result.firstBreak?.problem}`,
        );
      },
    },
  ];
}
