/**
 * The API as scripts/sqlmap.sh attacks it: a fresh embedded PostgreSQL in DATA_DIR, migrated and seeded with
 * the demo clinic, on PORT. Same app as src/server/main.ts, except that the per-minute limit on sign-in and
 * the guest statement lookups is raised: sqlmap sends thousands of requests a minute, and a 429 would hide
 * the answers it compares (the limits themselves are tested in the auth and billing route tests).
 * No client files are served (API only).
 */
import { today } from '@/shared/api';
import { timeInZone } from '@/shared/practice-zone';
import { buildApp } from '@/server/app';
import { DEFAULT_CONFIG } from '@/server/context';
import { openDatabase } from '@/server/db/client';
import { isDatabaseEmpty, seedDemoClinic } from '@/server/db/seed/demo-seed';

const port = Number(process.env.PORT ?? 5083);
const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR is required (a directory for the throw-away database)');
const log = { info: (m: string) => console.log(m), error: (m: string) => console.error(m) };

const database = await openDatabase({ dataDir, log });
if (await isDatabaseEmpty(database.db))
  await seedDemoClinic(database.db, { today: today(), time: timeInZone(new Date()) });
const app = await buildApp({
  db: database.db,
  clock: () => new Date(),
  config: { ...DEFAULT_CONFIG, loginRateLimitPerMinute: 1_000_000 },
});
await app.listen({ port, host: '127.0.0.1' });
console.log(`sqlmap target API on http://127.0.0.1:${port}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}
