import type { FastifyRequest } from 'fastify';
import type { AppDeps, RequestContext } from './context';
import { HttpError } from './plugins/errors';
import { clientOf } from './request-client';

/** The caller and the time, for a route whose access gate already required a session. */
export function requestContext(request: FastifyRequest, deps: AppDeps): RequestContext {
  if (!request.auth) throw new HttpError(401, 'UNAUTHENTICATED', 'Please sign in.');
  return {
    user: request.auth.user,
    now: deps.clock(),
    client: clientOf(request),
    reads: request.auditedReads ?? undefined,
  };
}
