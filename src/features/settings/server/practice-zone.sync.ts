import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '@/server/context';
import { processTimeZone, setPracticeTimeZone } from '@/shared/practice-zone';
import { getChosenPracticeTimeZone } from './settings.queries';

/** How stale another server's change of zone may be here: a zone changes rarely, a write is frequent. */
const RECHECK_MS = 5_000;

/**
 * Applies the practice's stored zone to this server at start, and again after a committed change is heard
 * (another app server may have changed it), at most every few seconds: each write ends a generation, and
 * asking the database after every one would cost a query per write for something that almost never moves.
 */
export async function applyPracticeTimeZone(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const apply = async () => setPracticeTimeZone((await getChosenPracticeTimeZone(deps.db)) ?? processTimeZone());
  // A server built without a reachable database (the access-matrix CLI) keeps its own zone.
  await apply().catch((error: unknown) =>
    app.log.warn({ err: error }, "could not read the practice time zone; using the server's"),
  );
  const changes = deps.changes;
  if (!changes) return;
  let seen = changes.answersGeneration();
  let lastCheck = Date.now();
  app.addHook('onRequest', (request, _reply, done) => {
    const generation = changes.answersGeneration();
    if (generation !== null && generation !== seen && Date.now() - lastCheck >= RECHECK_MS) {
      seen = generation;
      lastCheck = Date.now();
      apply().catch((error: unknown) => request.log.warn({ err: error }, 'could not re-read the practice time zone'));
    }
    done();
  });
}
