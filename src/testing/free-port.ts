import { freePort } from '@/server/db/client';

/**
 * Starts a server on a port found free a moment before, with `start(port)`. A server takes seconds to listen
 * (loading, migrating, its own PostgreSQL), and meanwhile another process can take that port: outgoing
 * connections draw from the same ephemeral range, and a test run opens thousands. Only that refusal, the
 * server's own EADDRINUSE on its port in the error `start` throws, starts it again on another port (at most
 * `attempts` times); any other failure is thrown as it is.
 */
export async function startOnFreePort<T>(
  start: (port: number) => Promise<T>,
  options: { attempts?: number; onRetry?: (port: number) => void } = {},
): Promise<T> {
  const attempts = options.attempts ?? 3;
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    try {
      return await start(port);
    } catch (error) {
      const portTaken =
        error instanceof Error && error.message.includes(`EADDRINUSE: address already in use 127.0.0.1:${port}`);
      if (!portTaken || attempt >= attempts) throw error;
      options.onRetry?.(port);
    }
  }
}
