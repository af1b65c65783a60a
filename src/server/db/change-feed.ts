import pg from 'pg';

/** The channel every table notifies with its own name when a statement changing it commits (migration 0012). */
export const CHANGE_CHANNEL = 'clinic_data_changes';

/** Tables whose changes end cached sessions: a session row, or its user (role, deactivation). */
const SESSION_TABLES = new Set(['sessions', 'users']);
/**
 * Sign-in and guest-lookup bookkeeping and the audit trail (and its staging), read by no cached answer; every other table's
 * change ends cached answers (an audited list read appends to audit_log: it must not end every answer).
 */
const NOT_ANSWER_TABLES = new Set([
  'sessions',
  'sign_in_challenges',
  'sign_in_lockouts',
  'audit_log',
  'audit_staging',
  'guest_lookup_failures',
]);

const RECONNECT_DELAYS_MS = [250, 1000, 5000];

/**
 * What an app server knows of committed changes, as two generation numbers: a cache entry made in an
 * older generation is stale. `null` means the server is not listening (starting, or its connection was
 * lost): nothing may be served from or stored in a cache then.
 */
export interface ChangeFeed {
  answersGeneration(): number | null;
  sessionsGeneration(): number | null;
  /**
   * A write through this server that may have changed users or sessions: its own later requests must not
   * wait for the notification to come back.
   */
  invalidateAll(): void;
  /** Any other write through this server: its own later reads must not wait for the notification either. */
  invalidateAnswers(): void;
  close(): Promise<void>;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

/**
 * LISTENs on one dedicated connection. A lost connection (database restart, network) stops all caching
 * until it is back; notifications missed meanwhile cannot be replayed, so reconnecting starts new
 * generations, which ends every entry made before.
 */
export async function listenForChanges(connectionString: string, log: Logger): Promise<ChangeFeed> {
  let answers = 0;
  let sessions = 0;
  let listening = false;
  let closed = false;
  let client: pg.Client | null = null;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;

  const bumpAll = () => {
    answers += 1;
    sessions += 1;
  };

  const lost = (reason: string) => {
    if (!listening && client === null) return;
    listening = false;
    bumpAll();
    client?.removeAllListeners();
    client?.on('error', () => {});
    client?.end().catch(() => {});
    client = null;
    if (closed) return;
    log.warn(`change feed: ${reason}; caches off until it reconnects`);
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)] ?? 5000;
    attempt += 1;
    retry = setTimeout(() => void connect(), delay);
  };

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString });
    next.on('error', (err) => lost(err.message));
    next.on('end', () => lost('connection ended'));
    next.on('notification', (message) => {
      const table = message.payload ?? '';
      if (!NOT_ANSWER_TABLES.has(table)) answers += 1;
      if (SESSION_TABLES.has(table)) sessions += 1;
    });
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGE_CHANNEL}`);
      bumpAll();
      listening = true;
      attempt = 0;
    } catch (err) {
      lost(err instanceof Error ? err.message : String(err));
    }
  };

  await connect();
  if (listening) log.info('change feed: listening; session and answer caches on');

  return {
    answersGeneration: () => (listening ? answers : null),
    sessionsGeneration: () => (listening ? sessions : null),
    invalidateAll: bumpAll,
    invalidateAnswers: () => {
      answers += 1;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = null;
      listening = false;
      if (current) {
        current.removeAllListeners();
        current.on('error', () => {});
        await current.end().catch(() => {});
      }
    },
  };
}
