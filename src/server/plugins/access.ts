import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { allows, type RouteAccess } from '@/shared/access';
import { recordNow } from '@/features/audit/server/audit.queries';
import { resolveSession, type SessionRow, type SessionRowCache } from '@/features/auth/server/auth.queries';
import { GenerationCache } from '../generation-cache';
import type { AppDeps, AuthContext } from '../context';
import { clientOf } from '../request-client';
import { isAllowedOrigin, requestedHost } from './allowed-hosts';
import { sendError } from './errors';
import { refusalAudit } from './refusal-audit';

export const SESSION_COOKIE = 'sid';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Static documentation pages registered by a plugin we do not write routes for: declared public here. */
const PUBLIC_PLUGIN_PREFIXES = ['/docs'];

export interface RegisteredRoute {
  method: string;
  url: string;
  permission: RouteAccess;
  /** The route's declared input and output schemas (zod): the hostile-input test fuzzes every input field. */
  schema?: FastifySchema;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RouteAccess;
    /**
     * The one route a session that must replace its temporary password may call besides public ones
     * (setting the new password), whatever its role's permissions.
     */
    passwordChange?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    routeRegistry: RegisteredRoute[];
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function actorOf(request: FastifyRequest) {
  const user = request.auth?.user;
  return {
    actor: user?.email ?? 'anonymous',
    actorUserId: user?.id ?? null,
    actorRole: user?.role ?? null,
    ...clientOf(request),
  };
}

/**
 * A cross-site request: an Origin (or Fetch Metadata) that is not this server's own. The Origin must name
 * the Host asked for and be one of the allowed names: matching the Host alone let a DNS-rebinding page,
 * whose Origin and Host are both its own name, pass.
 */
function isCrossSite(request: FastifyRequest, allowedHosts: ReadonlySet<string>): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  if (!origin) return false;
  if (!isAllowedOrigin(origin, allowedHosts)) return true;
  return new URL(origin).host !== requestedHost(request).toLowerCase();
}

/** Session rows kept between requests while no change to sessions or users has been committed (docs/caching.md). */
function sessionRowCache(changes: NonNullable<AppDeps['changes']>): SessionRowCache {
  // 60 s at most even without a notification: a bound for anything the feed could miss.
  // Each row counts 1 towards maxBytes (the default size): the bound is 10,000 sessions.
  const rows = new GenerationCache<SessionRow>({ maxEntries: 10_000, maxBytes: 10_000, ttlMs: 60_000 });
  return {
    lookup: (sessionId) => {
      const generation = changes.sessionsGeneration();
      return {
        row: generation === null ? undefined : rows.get(sessionId, generation),
        remember: (row) => {
          if (generation !== null) rows.set(sessionId, generation, row);
        },
      };
    },
    forget: (sessionId) => rows.delete(sessionId),
  };
}

/**
 * The single gate every request passes: resolves the session from the cookie, refuses routes that
 * declare no permission (at start-up), answers 401/403 from the session's role, checks CSRF on
 * state-changing calls, and audits denied access and forged role headers.
 */
export function registerAccessControl(app: FastifyInstance, deps: AppDeps) {
  app.decorate('routeRegistry', [] as RegisteredRoute[]);
  app.decorateRequest('auth', null);

  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { permission?: RouteAccess };
    if (!config.permission && PUBLIC_PLUGIN_PREFIXES.some((p) => route.url.startsWith(p))) {
      route.config = { ...config, permission: 'public' };
    } else if (!config.permission) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no permission (config.permission)`);
    }
    const permission = (route.config as { permission: RouteAccess }).permission;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') app.routeRegistry.push({ method, url: route.url, permission, schema: route.schema });
    }
  });

  const refusals = refusalAudit(deps);
  const flushTimer = setInterval(() => void refusals.flush().catch(() => {}), 60_000);
  flushTimer.unref();
  app.addHook('onClose', async () => {
    clearInterval(flushTimer);
    await refusals.flush(true);
  });
  /** A signed-in caller's refusals are each written; an anonymous one's are rate-limited per address and minute. */
  const audited = (request: FastifyRequest, action: string) =>
    request.auth ? Promise.resolve(true) : refusals.admit(request.ip, action);

  const deny = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: 401 | 403,
    code: string,
    message: string,
  ) => {
    const action = status === 401 ? 'access.unauthenticated' : 'access.denied';
    if (await audited(request, action)) {
      await recordNow(deps.db, {
        ...actorOf(request),
        action,
        resource: `${request.method} ${request.routeOptions.url ?? request.url}`,
        detail: code,
        at: deps.clock(),
      });
    }
    return sendError(reply, status, code, message);
  };

  const sessionCache = deps.changes && sessionRowCache(deps.changes);
  const allowedHosts = new Set(deps.config.allowedHosts);
  app.addHook('onRequest', async (request, reply) => {
    const sessionId = request.cookies[SESSION_COOKIE];
    if (sessionId) {
      request.auth = await resolveSession(
        deps.db,
        sessionId,
        deps.clock(),
        deps.config.sessionIdleMinutes,
        sessionCache,
      );
    }

    // The role comes from the session only; a header claiming another one is a security event.
    // Without a session a claimed role can open nothing but public routes, so only those claims are noise.
    const permission = request.routeOptions.config.permission;
    const claimedRole = request.headers['x-user-role'];
    const actualRole = request.auth?.user.role ?? 'guest';
    const claimMatters = request.auth !== null || (permission !== undefined && permission !== 'public');
    if (
      typeof claimedRole === 'string' &&
      claimedRole !== actualRole &&
      claimMatters &&
      (await audited(request, 'security.role_header_mismatch'))
    ) {
      await recordNow(deps.db, {
        ...actorOf(request),
        action: 'security.role_header_mismatch',
        resource: `${request.method} ${request.routeOptions.url ?? request.url}`,
        detail: `X-User-Role claimed "${claimedRole.slice(0, 40)}"; session role is ${actualRole}`,
        at: deps.clock(),
      });
    }

    if (!permission) return; // 404s: no route matched
    if (UNSAFE_METHODS.has(request.method)) {
      if (isCrossSite(request, allowedHosts)) return deny(request, reply, 403, 'CSRF', 'Cross-site request refused.');
      if (request.auth) {
        const token = request.headers['x-csrf-token'];
        if (typeof token !== 'string' || !sameText(token, request.auth.csrfToken)) {
          return deny(request, reply, 403, 'CSRF', 'Missing or invalid CSRF token.');
        }
      }
    }
    if (request.auth?.passwordChangeRequired && permission !== 'public') {
      if (request.routeOptions.config.passwordChange) return;
      return deny(
        request,
        reply,
        403,
        'PASSWORD_CHANGE_REQUIRED',
        'Please set a new password: the temporary one must be changed before anything else.',
      );
    }
    if (allows(permission, request.auth?.user.role ?? null)) return;
    if (!request.auth) return deny(request, reply, 401, 'UNAUTHENTICATED', 'Please sign in.');
    return deny(request, reply, 403, 'FORBIDDEN', 'You do not have permission to do this.');
  });
}
