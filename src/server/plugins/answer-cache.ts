import type { FastifyInstance, FastifyRequest } from 'fastify';
import { today } from '@/shared/api';
import { recordReadAgain } from '@/features/audit/server/audit.queries';
import type { AppDeps, AuditedRead } from '../context';
import { GenerationCache } from '../generation-cache';
import { requestContext } from '../request-context';
import { COMPRESS_FROM_CHARS, encode, preferredEncoding } from './answer-encoding';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's 200 answer may be served again to the same user, on the same day, until any data change
     * is committed (docs/caching.md). Only for reads without side effects: an audited read is never cacheable.
     */
    cacheable?: boolean;
  }
  interface FastifyRequest {
    answerCacheSlot: { key: string; generation: number; settle(answer: CachedAnswer | undefined): void } | null;
    /** The PHI reads this request's answer audited, stored with it (requestContext hands it to the queries). */
    auditedReads: AuditedRead[] | null;
  }
}

/** A cached answer's JSON text, and its compressed forms once a client has asked for them. */
interface CachedAnswer {
  text: string;
  /** The PHI reads the answer was audited as: each serving of it from memory appends them again. */
  reads: readonly AuditedRead[];
  br?: Buffer;
  gzip?: Buffer;
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * The routes whose writes never change users or sessions (the clinic's and billing's data): after one, this
 * server ends only its cached answers at once, so a busy server does not read every session again after each
 * write. Every other write (sign-in and out, accounts, user administration, the seed and the reset, the
 * self-checks that sign in) ends its cached sessions at once too, not when the notification comes back; a
 * route missing here costs only those reads. hostile-input.test.ts fails a route listed here that writes
 * users or sessions.
 */
export const ANSWERS_ONLY_WRITE_PREFIXES = [
  '/api/patients',
  '/api/coverages/',
  '/api/appointments',
  '/api/claims',
  '/api/claim-batches',
  '/api/acknowledgements',
  '/api/remittances',
  '/api/authorizations/',
  '/api/work-items/',
  '/api/work-queue/',
  '/api/worklist/',
  '/api/billing/',
  '/api/portal/',
  '/api/guest/',
  '/api/settings',
  '/api/compliance/gaps/',
];

/** Whether a write through this route ends only cached answers (ANSWERS_ONLY_WRITE_PREFIXES). */
export function endsOnlyAnswers(route: string): boolean {
  return ANSWERS_ONLY_WRITE_PREFIXES.some((prefix) => route.startsWith(prefix));
}
/** Header telling tests and operators whether an answer came from the cache. */
export const ANSWER_CACHE_HEADER = 'x-answer-cache';

/**
 * Serves repeated reads of `cacheable` routes from memory. The key holds the user (answers are masked
 * and scoped per user), the day (figures like days in A/R move with it) and the full URL with its query.
 * An entry lives while the change feed's generation is the one it was made in, 60 s at most. Must be
 * registered before the answer encoding (answer-encoding.ts) so its onSend hook sees the JSON text.
 */
export function registerAnswerCache(app: FastifyInstance, deps: AppDeps) {
  const changes = deps.changes;
  app.decorateRequest('answerCacheSlot', null);
  app.decorateRequest('auditedReads', null);
  if (!changes) return;
  // The size counts the text and room for its compressed forms, made on first demand.
  const answers = new GenerationCache<CachedAnswer>(
    { maxEntries: 5_000, maxBytes: 64 * 1024 * 1024, ttlMs: 60_000 },
    (answer) => answer.text.length * 3,
  );

  // Answers being computed: identical requests arriving meanwhile wait for that one computation instead of
  // each running the same queries (a burst of first requests after a change).
  const computing = new Map<string, Promise<CachedAnswer | undefined>>();

  // Before validation: a URL whose answer is cached has passed it already (errors are never cached).
  app.addHook('preValidation', async (request, reply) => {
    if (request.method !== 'GET' || !request.routeOptions.config.cacheable || !request.auth) return;
    const generation = changes.answersGeneration();
    if (generation === null) return;
    const { user } = request.auth;
    const key = `${user.id}:${user.role}:${today(deps.clock())}:${request.url}`;
    const send = async (answer: CachedAnswer, how: 'hit' | 'shared') => {
      // Served from memory, it is still a read of PHI: audited before the answer, like the first one.
      if (answer.reads.length > 0) {
        const ctx = requestContext(request, deps);
        // Queued in order at once: the group commit appends them together.
        await Promise.all(answer.reads.map((read) => recordReadAgain(deps.db, ctx, read)));
      }
      reply.header(ANSWER_CACHE_HEADER, how).type('application/json; charset=utf-8');
      const encoding = preferredEncoding(request.headers['accept-encoding']);
      if (encoding === 'identity' || answer.text.length < COMPRESS_FROM_CHARS) return reply.send(answer.text);
      const encoded = (answer[encoding] ??= encode(answer.text, encoding, 'kept'));
      return reply.header('content-encoding', encoding).header('vary', 'accept-encoding').send(encoded);
    };
    // A client asking for a fresh answer (a browser's hard reload, the benchmarks) computes it anew.
    const fresh = /no-cache/i.test(request.headers['cache-control'] ?? '');
    const hit = fresh ? undefined : answers.get(key, generation);
    if (hit !== undefined) return send(hit, 'hit');
    const flight = `${generation}:${key}`;
    const pending = fresh ? undefined : computing.get(flight);
    if (pending) {
      const shared = await pending;
      if (shared !== undefined) return send(shared, 'shared');
    }
    reply.header(ANSWER_CACHE_HEADER, 'miss');
    if (pending) return; // that computation failed: this request computes for itself, uncached
    let resolve: (answer: CachedAnswer | undefined) => void = () => {};
    computing.set(flight, new Promise((r) => (resolve = r)));
    let settled = false;
    request.auditedReads = [];
    request.answerCacheSlot = {
      key,
      generation,
      settle: (answer) => {
        if (settled) return;
        settled = true;
        computing.delete(flight);
        resolve(answer);
      },
    };
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    // The write has committed before its answer goes out: this server's next reads must not see older answers.
    if (UNSAFE_METHODS.has(request.method)) {
      if (endsOnlyAnswers(request.routeOptions.url ?? '')) changes.invalidateAnswers();
      else changes.invalidateAll();
    }
    const slot = request.answerCacheSlot;
    if (slot) {
      const answer =
        reply.statusCode === 200 && typeof payload === 'string'
          ? { text: payload, reads: request.auditedReads ?? [] }
          : undefined;
      if (answer !== undefined) answers.set(slot.key, slot.generation, answer);
      slot.settle(answer);
    }
    done(null, payload);
  });

  // A request that ends without an answer (client gone, a failing hook) must not leave others waiting.
  const release = (request: FastifyRequest) => request.answerCacheSlot?.settle(undefined);
  app.addHook('onResponse', (request, _reply, done) => {
    release(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    release(request);
    done();
  });
}
