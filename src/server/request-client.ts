import type { FastifyRequest } from 'fastify';

/**
 * Where a request came from, as the audit trail records it on every entry the request writes. Its fields
 * are the audit entry's, so `{ ...client }` completes an entry.
 *
 * It is carried explicitly (on the RequestContext, or passed to the sign-in steps) rather than held in an
 * AsyncLocalStorage for the request: in Node 20 an active AsyncLocalStorage installs promise hooks that
 * cost every promise of every request, about a fifth of the server's CPU on a cached read
 * (docs/performance.md).
 */
export interface RequestClient {
  clientAddr: string | null;
  userAgent: string | null;
}

/** A user agent is the client's own text: bounded, so a request cannot make its audit entries huge. */
const USER_AGENT_MAX = 300;

export function clientOf(request: FastifyRequest): RequestClient {
  const userAgent = request.headers['user-agent'];
  return {
    clientAddr: request.ip || null,
    userAgent: typeof userAgent === 'string' && userAgent !== '' ? userAgent.slice(0, USER_AGENT_MAX) : null,
  };
}
