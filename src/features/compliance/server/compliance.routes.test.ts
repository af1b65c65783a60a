import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, SCREENS, SCREENS_BY_ROLE, can, requiresMfa } from '@/shared/access';
import { buildApp } from '@/server/app';
import { DEFAULT_CONFIG, type AppConfig } from '@/server/context';
import { HIPAA_AUDIT_ITEMS, WCAG_CHECKS } from '@/server/db/seed/compliance-data';
import { withAuditEntryTampered } from '@/testing/audit-tamper';
import { cookieFrom, createTestApp, demoAccount, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';
import { TEST_TODAY, testClock } from '@/testing/test-clock';
import { clearClinicData, seedDemoClinic } from '@/server/db/seed/demo-seed';
import {
  SECURITY_CHECK_IDS,
  type ComplianceOverview,
  type GapsResponse,
  type SecurityCheckResult,
} from '../compliance.schema';

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signInAs(t.app, 'admin');
});
afterAll(async () => {
  await t.close();
});

async function scalar(sqlText: string): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: string }>(sqlText);
  return Number(rows[0]?.n);
}

async function runCheck(session: SignedIn, checkId: string, headers: Record<string, string> = {}) {
  const res = await session.request({ method: 'POST', url: `/api/compliance/security-checks/${checkId}`, headers });
  expect(res.statusCode).toBe(200);
  return res.json<SecurityCheckResult>();
}

describe('access to the compliance API', () => {
  const reads = ['/api/compliance/overview', '/api/compliance/hipaa-items', '/api/compliance/wcag-checks'];
  const adminOnly = [
    { method: 'GET', url: '/api/compliance/gaps' },
    { method: 'PATCH', url: '/api/compliance/gaps/1', payload: { status: 'Closed' } },
    { method: 'GET', url: '/api/compliance/security-checks' },
    { method: 'POST', url: '/api/compliance/security-checks/tls' },
  ] as const;

  it('answers 401 without a session, even with a forged admin role header', async () => {
    for (const url of reads) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'x-user-role': 'admin' } });
      expect(res.statusCode, url).toBe(401);
    }
    for (const r of adminOnly) {
      const res = await t.app.inject({ ...r, headers: { 'x-user-role': 'admin' } });
      expect(res.statusCode, r.url).toBe(401);
    }
  });

  it('answers 403 to every role but admin, and writes nothing', async () => {
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      const s = await signInAs(t.app, role);
      for (const url of reads) expect((await s.request({ method: 'GET', url })).statusCode, `${role} ${url}`).toBe(403);
      for (const r of adminOnly) expect((await s.request(r)).statusCode, `${role} ${r.url}`).toBe(403);
    }
    expect(await scalar(`select count(*) n from compliance_gaps where status = 'Closed'`)).toBe(1);
  });
});

describe('overview', () => {
  it('is generated from the policy and the live data', async () => {
    const res = await admin.request({ method: 'GET', url: '/api/compliance/overview' });
    expect(res.statusCode).toBe(200);
    const o = res.json<ComplianceOverview>();

    const api = t.app.routeRegistry.filter((r) => r.url.startsWith('/api/'));
    const publicOnes = api.filter((r) => r.permission === 'public');
    expect(o.rbac.apiRoutes).toBe(api.length);
    expect(o.rbac.protectedRoutes).toBe(api.length - publicOnes.length);
    expect(o.rbac.publicRoutes.sort()).toEqual(publicOnes.map((r) => `${r.method} ${r.url}`).sort());
    expect(o.rbac.percent).toBeCloseTo((100 * o.rbac.protectedRoutes) / o.rbac.apiRoutes, 1);
    expect(o.rbac.screenCells.total).toBe(SCREENS.length * ROLES.length);
    expect(o.rbac.screenCells.allowed).toBe(ROLES.reduce((n, r) => n + SCREENS_BY_ROLE[r].length, 0));

    for (const role of ROLES) {
      const row = o.mfa.roles.find((r) => r.role === role)!;
      expect(row.required).toBe(requiresMfa(role));
      expect(row.activeAccounts).toBe(await scalar(`select count(*) n from users where active and role = '${role}'`));
    }
    expect(o.mfa.secondFactor).toBe('one-time code');

    // The count is live: it includes the entries this test's own sign-in wrote.
    expect(o.audit.events).toBe(await scalar('select count(*) n from audit_log'));

    for (const role of ROLES) {
      const row = o.matrix.roles.find((r) => r.role === role)!;
      expect(row.screens.sort()).toEqual([...SCREENS_BY_ROLE[role]].sort());
      for (const p of row.permissions) expect(can(role, p)).toBe(true);
    }
    expect(o.matrix.roles.find((r) => r.role === 'admin')!.permissions).toContain('system:admin');
    expect(o.matrix.roles.find((r) => r.role === 'doctor')!.permissions).not.toContain('system:admin');
  });

  it('states MFA as sign-in enforces it: the guest account, too, is asked for a code', async () => {
    const guest = demoAccount('guest');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: guest.email, password: guest.password },
    });
    // A session needs the second step: the password alone gives a challenge, not a session.
    expect(login.statusCode).toBe(200);
    expect(login.json<{ challengeId: string }>().challengeId).toBeTruthy();
    expect(cookieFrom(login)).toBeFalsy();
    const res = await admin.request({ method: 'GET', url: '/api/compliance/overview' });
    const o = res.json<ComplianceOverview>();
    expect(o.mfa.roles.find((r) => r.role === 'guest')?.required).toBe(true);
    expect(o.mfa.roles.every((r) => r.required)).toBe(true);
  });

  it('lists the HIPAA mock audit and the WCAG checklist from the database', async () => {
    const items = (await admin.request({ method: 'GET', url: '/api/compliance/hipaa-items' })).json<{
      items: { reference: string; status: string }[];
    }>().items;
    expect(items).toHaveLength(HIPAA_AUDIT_ITEMS.length);
    expect(items.find((i) => i.reference === '164.312(b)')?.status).toBe('Partial');
    const checks = (await admin.request({ method: 'GET', url: '/api/compliance/wcag-checks' })).json<{
      checks: { criterion: string; level: string }[];
    }>().checks;
    expect(checks).toHaveLength(WCAG_CHECKS.length);
    expect(checks.find((c) => c.criterion === '1.4.3')?.level).toBe('AA');
  });
});

describe('compliance gaps and scores', () => {
  it('computes 85% overall and 75% technical from the seeded programme', async () => {
    const res = await admin.request({ method: 'GET', url: '/api/compliance/gaps' });
    expect(res.statusCode).toBe(200);
    const body = res.json<GapsResponse>();
    expect(body.gaps).toHaveLength(8);
    expect(body.gaps.every((g) => /^\d{4}-\d{2}-\d{2}$/.test(g.dueDate) && g.owner.length > 0)).toBe(true);
    expect(body.scores.overall).toEqual({ percent: 85, earned: 42.5, possible: 50 });
    expect(body.scores.technical).toEqual({ percent: 75, earned: 9, possible: 12 });
  });

  it('changes the scores when a gap is closed, and audits the change in the same step', async () => {
    const gaps = (await admin.request({ method: 'GET', url: '/api/compliance/gaps' })).json<GapsResponse>().gaps;
    const encryption = gaps.find((g) => g.title.startsWith('Encryption at rest'))!;
    expect(encryption.status).toBe('Open');
    const before = await scalar(`select count(*) n from audit_log where action = 'compliance.gap.update'`);

    const res = await admin.request({
      method: 'PATCH',
      url: `/api/compliance/gaps/${encryption.id}`,
      payload: { status: 'Closed' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<GapsResponse>();
    expect(body.gaps.find((g) => g.id === encryption.id)?.status).toBe('Closed');
    expect(body.scores.technical).toEqual({ percent: 83.3, earned: 10, possible: 12 });
    expect(body.scores.overall).toEqual({ percent: 87, earned: 43.5, possible: 50 });

    const { rows } = await t.database.pool.query<{ actor: string; detail: string; resource: string }>(
      `select actor, detail, resource from audit_log where action = 'compliance.gap.update' order by id desc limit 1`,
    );
    expect(await scalar(`select count(*) n from audit_log where action = 'compliance.gap.update'`)).toBe(before + 1);
    expect(rows[0]).toEqual({
      actor: 'admin@healthcare.demo',
      resource: `compliance_gap/${encryption.id}`,
      detail: 'status Open → Closed',
    });

    // Back to In Progress: half credit.
    const back = await admin.request({
      method: 'PATCH',
      url: `/api/compliance/gaps/${encryption.id}`,
      payload: { status: 'In Progress' },
    });
    expect(back.json<GapsResponse>().scores.technical.earned).toBe(9.5);
  });

  it('refuses a bad status (400 naming the field), an unknown id (404) and unknown fields', async () => {
    const bad = await admin.request({ method: 'PATCH', url: '/api/compliance/gaps/1', payload: { status: 'Done' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('status');
    const extra = await admin.request({
      method: 'PATCH',
      url: '/api/compliance/gaps/1',
      payload: { status: 'Closed', title: 'x' },
    });
    expect(extra.statusCode).toBe(400);
    const missing = await admin.request({
      method: 'PATCH',
      url: '/api/compliance/gaps/99999',
      payload: { status: 'Closed' },
    });
    expect(missing.statusCode).toBe(404);
    const badId = await admin.request({
      method: 'PATCH',
      url: '/api/compliance/gaps/abc',
      payload: { status: 'Closed' },
    });
    expect(badId.statusCode).toBe(400);
  });
});

describe('security checks', () => {
  it('lists the checks', async () => {
    const res = await admin.request({ method: 'GET', url: '/api/compliance/security-checks' });
    expect(res.json<{ checks: { checkId: string }[] }>().checks.map((c) => c.checkId)).toEqual([...SECURITY_CHECK_IDS]);
  });

  it('passes the header scan, RBAC, MFA and audit checks on the running system, and audits each run', async () => {
    const before = await scalar(`select count(*) n from audit_log where action = 'security.check'`);
    const scan = await runCheck(admin, 'vulnerability-scan');
    expect(scan).toMatchObject({ status: 'pass', message: 'No high severity issues' });
    const rbac = await runCheck(admin, 'rbac');
    expect(rbac).toMatchObject({ status: 'pass', message: 'Restricted' });
    expect(rbac.details.join('\n')).toMatch(/admin-only routes refused a forged X-User-Role/);
    expect(rbac.details.join('\n')).toMatch(/routes? outside the admin role answered 403/);
    const mfa = await runCheck(admin, 'mfa');
    expect(mfa).toMatchObject({ status: 'pass', name: 'Multi-factor authentication' });
    const audit = await runCheck(admin, 'audit');
    expect(audit.status).toBe('pass');
    expect(audit.message).toMatch(/^[\d,]+ audit events recorded$/);
    expect(await scalar(`select count(*) n from audit_log where action = 'security.check'`)).toBe(before + 4);
  });

  it('fails TLS over plain HTTP, and fails the database encryption check on an unencrypted connection', async () => {
    const tls = await runCheck(admin, 'tls');
    expect(tls).toMatchObject({ status: 'fail', message: 'TLS not active: this request came over plain HTTP' });
    // Without trustProxy a forwarded header is not believed.
    const forged = await runCheck(admin, 'tls', { 'x-forwarded-proto': 'https' });
    expect(forged.status).toBe('fail');
    const enc = await runCheck(admin, 'encryption');
    const { rows } = await t.database.pool.query<{ ssl: boolean }>(
      'select ssl from pg_stat_ssl where pid = pg_backend_pid()',
    );
    expect(rows[0]?.ssl).toBe(false);
    expect(enc).toMatchObject({
      status: 'fail',
      message: 'AES 256 not verified: the database connection is not encrypted',
    });
  });

  it('fails the audit check once an audit row is tampered with', async () => {
    const { rows } = await t.database.pool.query<{ id: string }>(
      'select id from audit_log order by id limit 1 offset 10',
    );
    const id = rows[0]!.id;
    const audit = await withAuditEntryTampered(
      t.database.ownerPool,
      Number(id),
      { column: 'detail', value: 'nothing to see' },
      () => runCheck(admin, 'audit'),
    );
    expect(audit.status).toBe('fail');
    expect(audit.message).toBe('Audit trail tampered: the hash chain does not verify');
    expect(audit.details[0]).toContain(`Entry ${id}`);
  });
});

describe('security checks on a differently configured or broken system', () => {
  async function appOn(
    database: TestDatabase,
    config: Partial<AppConfig> = {},
    extraRoutes?: (app: FastifyInstance) => void,
  ) {
    const app = await buildApp({
      db: database.db,
      clock: testClock(),
      config: { ...DEFAULT_CONFIG, loginRateLimitPerMinute: 10_000, ...config },
    });
    extraRoutes?.(app);
    await app.ready();
    return app;
  }

  it('passes TLS when a trusted TLS-terminating proxy forwards an HTTPS request', async () => {
    const behindProxy = await createTestApp({ secureCookies: true });
    try {
      const s = await signInAs(behindProxy.app, 'admin');
      const tls = await runCheck(s, 'tls', { 'x-forwarded-proto': 'https' });
      expect(tls).toMatchObject({ status: 'pass', message: 'TLS active' });
      const plain = await runCheck(s, 'tls', { 'x-forwarded-proto': 'http' });
      expect(plain.status).toBe('fail');
      // Over HTTPS the scan also requires HSTS, which this configuration sends.
      const scan = await runCheck(s, 'vulnerability-scan', { 'x-forwarded-proto': 'https' });
      expect(scan.status).toBe('pass');
    } finally {
      await behindProxy.close();
    }
  });

  it('fails MFA when accounts cannot complete the second step, RBAC when a route is wrongly public, and audit when the log is empty', async () => {
    const database = await createTestDatabase();
    // Sessions live in the database: sign in on a demo-mode server, then use the session on the others.
    const demo = await appOn(database);
    const strict = await appOn(database, { demoMode: false });
    const broken = await appOn(database, {}, (app) => {
      app.get('/api/admin/export-everything', { config: { permission: 'public' } }, () => ({ leaked: true }));
    });
    try {
      const viaDemo = await signInAs(demo, 'admin');
      const on = (app: FastifyInstance): SignedIn => ({
        ...viaDemo,
        request: (options) =>
          app.inject({
            ...options,
            cookies: { sid: viaDemo.sessionId },
            headers: { 'x-csrf-token': viaDemo.csrfToken, 'x-user-role': 'admin', ...(options.headers ?? {}) },
          }),
      });

      expect((await runCheck(viaDemo, 'mfa')).status).toBe('pass');
      // Outside demo mode the second factor is an authenticator app, and no seeded account has one enrolled.
      const mfa = await runCheck(on(strict), 'mfa');
      expect(mfa).toMatchObject({ status: 'fail', message: 'MFA requirement issue' });
      expect(mfa.details).toContain('1 active doctor account(s) have no authenticator enrolled');
      await database.pool.query(`update users set mfa_secret = 'JBSWY3DPEHPK3PXP' where role <> 'guest'`);
      // The guest account signs in with a code too, so it needs an authenticator as well.
      expect((await runCheck(on(strict), 'mfa')).details).toContain(
        '1 active guest account(s) have no authenticator enrolled',
      );
      await database.pool.query(`update users set mfa_secret = 'JBSWY3DPEHPK3PXP' where role = 'guest'`);
      expect((await runCheck(on(strict), 'mfa')).status).toBe('pass');

      expect((await runCheck(viaDemo, 'rbac')).status).toBe('pass');
      const rbac = await runCheck(on(broken), 'rbac');
      expect(rbac).toMatchObject({ status: 'fail', message: 'RBAC enforcement issue detected' });
      expect(rbac.details[0]).toBe('GET /api/admin/export-everything answers without a session (declared public)');

      const client = await database.ownerPool.connect();
      try {
        await client.query('alter table audit_log disable trigger audit_log_no_truncate');
        await client.query('truncate audit_log');
        await client.query('alter table audit_log enable trigger audit_log_no_truncate');
      } finally {
        client.release();
      }
      const audit = await runCheck(viaDemo, 'audit');
      expect(audit).toMatchObject({ status: 'fail', message: 'No audit events found' });
    } finally {
      await Promise.all([demo.close(), strict.close(), broken.close()]);
      await database.drop();
    }
  });
});

describe('the compliance programme outlives a reset and a re-seed', () => {
  it('keeps the mock audit and the checklist, with their edits, and inserts nothing twice', async () => {
    const database = await createTestDatabase();
    try {
      await database.pool.query(`update hipaa_audit_items set status = 'Compliant' where reference = '164.312(b)'`);
      await database.db.transaction((tx) => clearClinicData(tx));
      await seedDemoClinic(database.db, { today: TEST_TODAY, time: '12:00' });
      const { rows } = await database.pool.query<{ items: string; checks: string; status: string }>(
        `select (select count(*) from hipaa_audit_items) items, (select count(*) from wcag_checks) checks,
                (select status from hipaa_audit_items where reference = '164.312(b)') status`,
      );
      expect(rows[0]).toEqual({
        items: String(HIPAA_AUDIT_ITEMS.length),
        checks: String(WCAG_CHECKS.length),
        status: 'Compliant',
      });
    } finally {
      await database.drop();
    }
  });
});
