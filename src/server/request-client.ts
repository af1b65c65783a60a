import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyRequest } from 'fastify';

/** Where a request came from, as the audit trail records it on every entry the request writes. */
export interface RequestClient {
  addr: string | null;
  userAgent: string | null;
}

/** A user agent is the client's own text: bounded, so a request cannot make its audit entries huge. */
const USER_AGENT_MAX = 300;

const storage = new AsyncLocalStorage<RequestClient>();

export function clientOf(request: FastifyRequest): RequestClient {
  const userAgent = request.headers['user-agent'];
  return {
    addr: request.ip || null,
    userAgent: typeof userAgent === 'string' && userAgent !== '' ? userAgent.slice(0, USER_AGENT_MAX) : null,
  };
}

/**
 * The client of the request being served, if any: held for the whole request (hooks, handler, queries), so
 * every audit entry it writes names its client without each caller passing it; background work and the
 * seeds run outside any request and get none.
 */
export function currentRequestClient(): RequestClient | undefined {
  return storage.getStore();
}

export function runWithRequestClient<T>(client: RequestClient, work: () => T): T {
  return storage.run(client, work);
}
