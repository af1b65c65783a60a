import type { FastifyReply, FastifyRequest } from 'fastify';

type HookDone = (error: Error | null, payload: unknown) => void;

/**
 * Route hook for the analytics and dashboard answers (the scale goal "p50 ≤ 25 ms server time", bench/results.md): adds
 * `Server-Timing: app;dur=<ms>`, the time from the request's arrival to the answer being sent (session
 * check, queries and serialisation included), so a benchmark or the browser's network panel can tell server
 * time from the network's. Spread into a route's options: `{ ...serverTiming, config, schema }`.
 */
export const serverTiming = {
  onSend: (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: HookDone) => {
    reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(2)}`);
    done(null, payload);
  },
};
