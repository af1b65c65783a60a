/**
 * The server's clock. Every "now" of the app (today's schedule, session expiry, audit times, the seed) is
 * read from this one function, so that a test server can be started at a chosen moment.
 *
 * `TEST_CLOCK_START` (an ISO 8601 instant) starts the clock there and lets it run at real speed. The browser
 * tests use it: the demo clinic is seeded around "today", and on a weekend, a holiday or after closing time
 * the practice is closed, so tests that book today's visits would depend on when they run. It is refused
 * outside NODE_ENV=test: a production server with a moved clock would write false audit times.
 */
export function appClockFromEnv(env: NodeJS.ProcessEnv, realNow: () => number = Date.now): () => Date {
  const start = env.TEST_CLOCK_START;
  if (start === undefined || start === '') return () => new Date(realNow());
  if (env.NODE_ENV !== 'test') throw new Error('TEST_CLOCK_START is only for tests: it needs NODE_ENV=test');
  const startMs = Date.parse(start);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(start) || Number.isNaN(startMs)) {
    throw new Error(`TEST_CLOCK_START must be an ISO 8601 date and time (got "${start}")`);
  }
  const offset = startMs - realNow();
  return () => new Date(realNow() + offset);
}
