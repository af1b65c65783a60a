import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from './errors';

/** A Host header: a name or an IPv4 address, or an IPv6 address in brackets, then an optional port. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::[0-9]{1,5})?$/;

/** The name part of a Host header or an Origin's host, lower-cased; null for a malformed one. */
export function hostNameOf(host: string | undefined): string | null {
  if (host === undefined) return null;
  const match = HOST_HEADER.exec(host.toLowerCase());
  return match?.[1] ?? null;
}

/** Whether an Origin header names one of this server's names (any port, http or https). */
export function isAllowedOrigin(origin: string, allowedHosts: ReadonlySet<string>): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && allowedHosts.has(url.hostname);
  } catch {
    return false;
  }
}

/** The host the browser asked for: Host, or X-Forwarded-Host from a trusted proxy (app.ts trustProxy). */
export function requestedHost(request: FastifyRequest): string {
  return request.host;
}

/**
 * A request whose Host is not one of this server's names is refused with 421 before anything else runs:
 * a DNS-rebinding page (its own name pointed at this server's address) sends its own name as the Host,
 * and would otherwise be same-origin with every answer it reads. The list is ALLOWED_HOSTS (README); a
 * load balancer's health check must send one of the names too (docs/deploy.md).
 */
export function registerHostAllowList(app: FastifyInstance, allowedHosts: readonly string[]) {
  const allowed = new Set(allowedHosts);
  app.addHook('onRequest', (request, reply, done) => {
    const name = hostNameOf(requestedHost(request));
    if (name !== null && allowed.has(name)) return done();
    void sendError(reply, 421, 'MISDIRECTED_REQUEST', "Host: must be one of this server's names (ALLOWED_HOSTS)", {
      fields: [{ field: 'Host', message: "must be one of this server's names (ALLOWED_HOSTS)" }],
    });
  });
}
