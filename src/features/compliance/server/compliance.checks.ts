import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROLES, allows, requiresMfa, rolesWith, type Permission, type Role } from '@/shared/access';
import { verifyChain } from '@/features/audit/server/audit.queries';
import type { AppDeps } from '@/server/context';
import type { RegisteredRoute } from '@/server/plugins/access';
import { SESSION_COOKIE } from '@/server/plugins/access';
import type { SecurityCheck, SecurityCheckId, SecurityCheckResult } from '../compliance.schema';
import { activeAccountsByRole, apiRoutesOf, countAuditEvents } from './compliance.queries';
import { countOf } from '@/shared/plural';

/** What a check looks at: the running app (to call itself), its dependencies, and the admin's request. */
export interface CheckEnvironment {
  app: FastifyInstance;
  deps: AppDeps;
  request: FastifyRequest;
}

type Outcome = Pick<SecurityCheckResult, 'status' | 'message' | 'details'>;

const pass = (message: string, details: string[]): Outcome => ({ status: 'pass', message, details });
const fail = (message: string, details: string[]): Outcome => ({ status: 'fail', message, details });

// ----- Vulnerability scan: the security headers of a live response --------------------------------

type Headers = Record<string, string | string[] | number | undefined>;

function header(headers: Headers, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value === undefined ? '' : String(value);
}

function cspDirective(csp: string, name: string): string | null {
  for (const part of csp.split(';')) {
    const [directive, ...values] = part.trim().split(/\s+/);
    if (directive?.toLowerCase() === name) return values.join(' ');
  }
  return null;
}

/** Classifies the findings of a response's headers; only high-severity ones fail the scan. */
export function evaluateSecurityHeaders(headers: Headers, overHttps: boolean): Outcome {
  const high: string[] = [];
  const other: string[] = [];
  const csp = header(headers, 'content-security-policy');
  if (!csp) {
    high.push('High: no Content-Security-Policy header');
  } else {
    const scripts = cspDirective(csp, 'script-src') ?? cspDirective(csp, 'default-src');
    if (scripts === null) high.push('High: the CSP does not restrict scripts (no script-src or default-src)');
    else if (/'unsafe-inline'|'unsafe-eval'|(^|\s)\*(\s|$)|(^|\s)(https?|data):(\s|$)/.test(scripts)) {
      high.push(`High: the CSP allows unsafe scripts (script-src ${scripts})`);
    }
    const frames = cspDirective(csp, 'frame-ancestors');
    if (frames === null && !header(headers, 'x-frame-options'))
      other.push('Medium: pages can be framed (clickjacking)');
    if (cspDirective(csp, 'object-src') === null && cspDirective(csp, 'default-src') === null) {
      other.push('Medium: the CSP does not restrict plugins (object-src)');
    }
  }
  if (header(headers, 'x-content-type-options').toLowerCase() !== 'nosniff') {
    high.push('High: X-Content-Type-Options is not nosniff (MIME sniffing)');
  }
  if (!/no-store/.test(header(headers, 'cache-control')))
    high.push('High: API answers may be cached (no Cache-Control: no-store)');
  if (!header(headers, 'referrer-policy')) other.push('Low: no Referrer-Policy header');
  if (header(headers, 'x-powered-by')) other.push('Low: X-Powered-By reveals the server software');
  if (overHttps && !header(headers, 'strict-transport-security')) {
    high.push('High: served over HTTPS without Strict-Transport-Security');
  }
  const details = [...high, ...other];
  if (high.length > 0) return fail(`${high.length} high severity issue${high.length === 1 ? '' : 's'} found`, details);
  return pass(
    'No high severity issues',
    details.length > 0 ? details : ['CSP, nosniff, no-store and referrer policy present'],
  );
}

async function vulnerabilityScan(env: CheckEnvironment): Promise<Outcome> {
  const res = await env.app.inject({ method: 'GET', url: '/api/health' });
  return evaluateSecurityHeaders(res.headers, env.request.protocol === 'https');
}

// ----- Encryption: the database connection's cipher --------------------------------------------------

export interface DbSslStatus {
  ssl: boolean;
  version: string | null;
  cipher: string | null;
  bits: number | null;
}

export function evaluateDbEncryption(status: DbSslStatus | null): Outcome {
  if (!status?.ssl) {
    return fail('AES 256 not verified: the database connection is not encrypted', [
      'pg_stat_ssl reports no SSL on this server’s database connection',
      'Encryption of the database files at rest cannot be verified from the application',
    ]);
  }
  const detail = `${status.version ?? 'TLS'} with ${status.cipher ?? 'an unknown cipher'} (${status.bits ?? '?'} bits)`;
  if ((status.bits ?? 0) >= 256 && /AES[_-]?256/i.test(status.cipher ?? '')) {
    return pass('AES 256 verified', [`Database connection: ${detail}`]);
  }
  return fail('AES 256 not verified: the database connection uses a weaker cipher', [`Database connection: ${detail}`]);
}

async function encryption(env: CheckEnvironment): Promise<Outcome> {
  const result = await env.deps.db.execute(
    sql`select ssl, version, cipher, bits from pg_stat_ssl where pid = pg_backend_pid()`,
  );
  const row = result.rows[0] as
    { ssl: boolean; version: string | null; cipher: string | null; bits: number | null } | undefined;
  return evaluateDbEncryption(row ? { ...row, bits: row.bits === null ? null : Number(row.bits) } : null);
}

// ----- TLS: how this very request reached the server -------------------------------------------------

function tls(env: CheckEnvironment): Outcome {
  const viaProxy = env.deps.config.secureCookies;
  if (env.request.protocol === 'https') {
    return pass('TLS active', [
      viaProxy
        ? 'Request arrived over HTTPS (trusted X-Forwarded-Proto from the TLS-terminating proxy)'
        : 'Request arrived over HTTPS',
      viaProxy ? 'Secure cookies and HSTS are on' : 'Secure cookies and HSTS are off (SECURE_COOKIES is not set)',
    ]);
  }
  return fail('TLS not active: this request came over plain HTTP', [
    viaProxy
      ? 'The proxy forwarded the request as plain HTTP (X-Forwarded-Proto is not https)'
      : 'The server listens on plain HTTP and does not trust a TLS-terminating proxy (SECURE_COOKIES is not set)',
  ]);
}

// ----- RBAC: declarations and live probes of the access gate -----------------------------------------

/** Only the sign-in flow and the health probe may answer without a session. */
export function isPublicByDesign(url: string): boolean {
  return url.startsWith('/api/auth/') || url === '/api/health';
}

/** Permissions only the admin may hold; the policy must grant them to admin alone. */
const ADMIN_ONLY: readonly Permission[] = ['compliance:read', 'system:admin', 'users:manage', 'audit:verify'];

const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '0').replace('*', 'x');

function pickRoute(routes: readonly RegisteredRoute[], permission: Permission): RegisteredRoute | undefined {
  const withIt = routes.filter((r) => r.permission === permission);
  return withIt.find((r) => r.method === 'GET') ?? withIt[0];
}

export function findDeclarationIssues(registry: readonly RegisteredRoute[]): string[] {
  const issues: string[] = [];
  for (const route of registry) {
    if (!route.permission) issues.push(`${route.method} ${route.url} declares no access`);
  }
  for (const route of apiRoutesOf(registry)) {
    if (route.permission === 'public' && !isPublicByDesign(route.url)) {
      issues.push(`${route.method} ${route.url} answers without a session (declared public)`);
    }
  }
  for (const permission of ADMIN_ONLY) {
    const roles = rolesWith(permission);
    if (roles.length !== 1 || roles[0] !== 'admin') issues.push(`${permission} is granted to ${roles.join(', ')}`);
  }
  return issues;
}

async function rbac(env: CheckEnvironment): Promise<Outcome> {
  const { app, request } = env;
  const issues = findDeclarationIssues(app.routeRegistry);
  const details: string[] = [];
  const api = apiRoutesOf(app.routeRegistry);

  // Without a session, a forged admin role header must not open an admin-only route.
  let anonymousProbes = 0;
  for (const permission of ADMIN_ONLY) {
    const route = pickRoute(api, permission);
    if (!route) continue;
    const res = await app.inject({
      method: route.method as 'GET',
      url: concrete(route.url),
      headers: { 'x-user-role': 'admin' },
      ...(route.method === 'GET' ? {} : { payload: {} }),
    });
    anonymousProbes += 1;
    if (res.statusCode !== 401) {
      issues.push(
        `${route.method} ${route.url} with a forged X-User-Role: admin and no session answered ${res.statusCode}, not 401`,
      );
    }
  }
  details.push(`${countOf(anonymousProbes, 'admin-only route')} refused a forged X-User-Role: admin without a session`);

  // With this admin's own session, routes of permissions the role lacks must answer 403.
  const role = request.auth?.user.role;
  const sessionId = request.cookies[SESSION_COOKIE];
  if (role && sessionId) {
    let sessionProbes = 0;
    const lacking = [...new Set(api.map((r) => r.permission))].filter((p) => !allows(p, role));
    for (const permission of lacking) {
      const route = api.find((r) => r.permission === permission && r.method === 'GET');
      if (!route) continue;
      const res = await app.inject({
        method: 'GET',
        url: concrete(route.url),
        cookies: { [SESSION_COOKIE]: sessionId },
        headers: { 'x-user-role': role },
      });
      sessionProbes += 1;
      if (res.statusCode !== 403) issues.push(`GET ${route.url} as ${role} answered ${res.statusCode}, not 403`);
    }
    details.push(`${countOf(sessionProbes, 'route')} outside the ${role} role answered 403 to its session`);
  }

  const protectedCount = api.filter((r) => r.permission !== 'public').length;
  details.push(`${protectedCount} of ${api.length} API routes need a session and a permission`);
  if (issues.length > 0) return fail('RBAC enforcement issue detected', [...issues, ...details]);
  return pass('Restricted', details);
}

// ----- MFA: policy, enrolment and a live probe of the second step ------------------------------------

async function mfa(env: CheckEnvironment): Promise<Outcome> {
  const issues: string[] = [];
  const details: string[] = [];
  const notRequired = ROLES.filter((r) => !requiresMfa(r));
  if (notRequired.length > 0) issues.push(`The policy does not require MFA for ${notRequired.join(', ')}`);

  const accounts = await activeAccountsByRole(env.deps.db);
  const demo = env.deps.config.demoMode;
  for (const role of ROLES as readonly Role[]) {
    const a = accounts.get(role);
    if (!a || !requiresMfa(role)) continue;
    // In demo mode each sign-in issues a one-time code; otherwise each account needs an enrolled TOTP secret.
    const missing = demo ? 0 : a.active - a.enrolled;
    if (missing > 0) issues.push(`${missing} active ${role} account(s) have no authenticator enrolled`);
  }
  details.push(
    demo ? 'Second factor: a one-time code per sign-in (demo mode)' : 'Second factor: authenticator app (TOTP)',
  );

  // The second step cannot be skipped or guessed: an unknown attempt gets no session.
  const probe = await env.app.inject({
    method: 'POST',
    url: '/api/auth/mfa',
    payload: { challengeId: randomBytes(16).toString('hex'), code: '000000' },
  });
  const cookieSet = probe.cookies.some((c) => c.name === SESSION_COOKIE && c.value !== '');
  if (probe.statusCode < 400 || cookieSet) {
    issues.push(`An unknown sign-in attempt answered ${probe.statusCode}${cookieSet ? ' with a session cookie' : ''}`);
  } else {
    details.push(`An unknown sign-in attempt was refused (${probe.statusCode}) without a session`);
  }
  if (issues.length > 0) return fail('MFA requirement issue', [...issues, ...details]);
  return pass('MFA required for every role', details);
}

// ----- Audit: entries exist and the hash chain verifies -----------------------------------------------

async function audit(env: CheckEnvironment): Promise<Outcome> {
  const events = await countAuditEvents(env.deps.db);
  if (events === 0) return fail('No audit events found', ['The audit log is empty']);
  const chain = await verifyChain(env.deps.db);
  if (!chain.ok && chain.firstBreak) {
    const { id, position, problem } = chain.firstBreak;
    return fail('Audit trail tampered: the hash chain does not verify', [
      `Entry ${id} (position ${position}) ${problem === 'modified' ? 'was modified' : 'does not follow the entry before it'}`,
    ]);
  }
  return pass(`${countOf(events, 'audit event')} recorded`, [
    `Hash chain verified over ${countOf(chain.checked, 'entry', 'entries')}`,
  ]);
}

// -------------------------------------------------------------------------------------------------

export const SECURITY_CHECKS: readonly (SecurityCheck & { run(env: CheckEnvironment): Promise<Outcome> | Outcome })[] =
  [
    {
      checkId: 'vulnerability-scan',
      name: 'Vulnerability scan',
      description: 'Requests a live API answer and rates its security headers (CSP, nosniff, caching, HSTS).',
      run: vulnerabilityScan,
    },
    {
      checkId: 'encryption',
      name: 'Data encryption',
      description: 'Asks PostgreSQL (pg_stat_ssl) which cipher protects this server’s database connection.',
      run: encryption,
    },
    {
      checkId: 'tls',
      name: 'TLS',
      description: 'Checks that this request reached the server over HTTPS.',
      run: tls,
    },
    {
      checkId: 'rbac',
      name: 'Access control (RBAC)',
      description:
        'Checks every route’s declared access, then calls admin-only routes with a forged role header and no session (401) and routes outside your role with your session (403).',
      run: rbac,
    },
    {
      checkId: 'mfa',
      name: 'Multi-factor authentication',
      description:
        'Checks that the policy requires MFA for every role (sign-in asks every account for a code), that accounts can complete it, and that an unknown sign-in attempt gets no session.',
      run: mfa,
    },
    {
      checkId: 'audit',
      name: 'Audit logging',
      description: 'Counts the audit events and verifies the hash chain over every entry.',
      run: audit,
    },
  ];

export async function runSecurityCheck(checkId: SecurityCheckId, env: CheckEnvironment): Promise<SecurityCheckResult> {
  const check = SECURITY_CHECKS.find((c) => c.checkId === checkId);
  if (!check) throw new Error(`unknown check ${checkId}`);
  const outcome = await check.run(env);
  return { checkId, name: check.name, ...outcome };
}
