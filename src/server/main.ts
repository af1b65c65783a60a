import path from 'node:path';
import { pino } from 'pino';
import { appClockFromEnv } from './app-clock';
import { buildApp } from './app';
import { configFromEnv } from './config-from-env';
import { listenForChanges } from './db/change-feed';
import { openDatabase, projectRoot } from './db/client';
import { auditHmacKey } from './db/secrets';
import { anchorAuditChain, useAuditHmacKey } from '@/features/audit/server/audit.queries';
import { loadMfaKey } from '@/features/auth/server/auth.mfa-crypto';
import { startMailboxJobs } from '@/features/clearinghouse/server/clearinghouse.jobs';
import { registerPracticeClock } from '@/shared/practice-zone';
import { seedOnFirstStart, warnIfDemoModeExposed } from './startup';

async function main() {
  const log = pino({
    level: process.env.LOG_LEVEL ?? 'info',
    // Cookies and tokens never reach the log.
    redact: ['req.headers.cookie', 'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]'],
  });
  const port = Number(process.env.PORT ?? 5000);
  const host = process.env.HOST ?? '0.0.0.0';
  const config = configFromEnv(process.env); // before the database starts: a bad setting stops us at once
  const clock = appClockFromEnv(process.env);
  // Before the seed and the app: every time a write leaves out comes from this clock too.
  registerPracticeClock(clock);
  const dataDir = process.env.DATA_DIR ?? path.join(projectRoot(), 'data');
  useAuditHmacKey(await auditHmacKey(process.env, dataDir));
  const mfaKey = await loadMfaKey(process.env, dataDir);
  config.mfaEncryptionKey = mfaKey.key;
  log.info(`MFA secrets encrypted with the key from ${mfaKey.source}`);
  const database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    migrationDatabaseUrl: process.env.MIGRATION_DATABASE_URL,
    dataDir,
    appPort: port,
    log: { info: (m) => log.info(m), warn: (m) => log.warn(m), error: (m) => log.error(m) },
    // Serving on without the database would answer every request with an error: exit, and let the service
    // manager restart the app server, which restarts the database (PostgreSQL recovers from its WAL).
    onUnexpectedExit: (why) => {
      log.error(`${why}: exiting so the service manager restarts the app server and its database`);
      process.exit(1);
    },
  });
  log.info(`database: ${database.description}`);
  await seedOnFirstStart(database.db, {
    demoMode: config.demoMode,
    now: clock(),
    log: { info: (m) => log.info(m), warn: (m) => log.warn(m) },
  });
  await anchorAuditChain(database.db, clock());

  // docs/caching.md: APP_CACHE=off reads every session and answer from the database (no staleness window
  // across app servers, at the cost of throughput).
  const changes =
    process.env.APP_CACHE === 'off'
      ? undefined
      : await listenForChanges(database.connectionString, { info: (m) => log.info(m), warn: (m) => log.warn(m) });
  const app = await buildApp({ db: database.db, clock, config, changes }, log);
  let stopping = false;
  // An answer given while stopping closes its connection: otherwise the client's keep-alive connection holds
  // the shutdown open until it times out (72 s), past a service manager's patience, which then kills us
  // before the database is stopped cleanly.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (stopping) reply.header('connection', 'close');
    done(null, payload);
  });
  await app.listen({ port, host });
  log.info(`Healthcare RCM is serving on http://localhost:${port} (demo mode ${config.demoMode ? 'on' : 'off'})`);
  warnIfDemoModeExposed({ info: (m) => log.info(m), warn: (m) => log.warn(m) }, config.demoMode, host);
  // Here and not in buildApp: test apps and the access matrix start no worker (docs/clearinghouse.md).
  // MAILBOX_JOBS=off leaves this server out of the job queue (another server runs the jobs).
  const jobs =
    process.env.MAILBOX_JOBS === 'off'
      ? undefined
      : await startMailboxJobs({
          db: database.db,
          clock,
          key: config.mfaEncryptionKey,
          connectionString: database.connectionString,
          log: { info: (m) => log.info(m), warn: (m) => log.warn(m) },
        });

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: finishing in-flight requests, then stopping`);
    try {
      await app.close();
      await jobs?.stop();
      await changes?.close();
      await database.close();
      log.info('stopped cleanly');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
