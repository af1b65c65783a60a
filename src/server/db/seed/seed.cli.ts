/**
 * `npm run seed -- [--reset] [--claims N] [--today YYYY-MM-DD]`
 *
 * Seeds the database the app uses (DATABASE_URL, or the embedded PostgreSQL under DATA_DIR, default
 * ./data; stop `npm start` first when it uses the same folder). With no option it seeds the demo clinic
 * into an empty database. --reset clears the clinic data (the audit trail stays, docs/audit.md) and seeds
 * the demo clinic again. --claims N does the same and then adds N generated claims, with patients,
 * providers, appointments, authorizations, encounters and payments in proportion (scale-seed.ts).
 * `npm run seed:scale` is `--claims 1000000` unless another --claims follows (`npm run seed:scale -- --claims 200000`).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { today as clinicToday } from '@/shared/api';
import { timeInZone } from '@/shared/practice-zone';
import { openDatabase, projectRoot } from '../client';
import { clearClinicData, isDatabaseEmpty, seedDemoClinic } from './demo-seed';
import { analyzeScale, generateScale } from './scale-seed';

function options() {
  const { values } = parseArgs({
    options: {
      reset: { type: 'boolean', default: false },
      claims: { type: 'string', multiple: true },
      today: { type: 'string' },
    },
  });
  // The last --claims wins, so `npm run seed:scale -- --claims 200000` overrides the script's default.
  const claimsText = values.claims?.at(-1);
  const claims = claimsText === undefined ? null : Number(claimsText.replace(/[_,]/g, ''));
  if (claims !== null && (!Number.isSafeInteger(claims) || claims < 1)) {
    throw new Error(`--claims must be a positive whole number, not "${claimsText}"`);
  }
  const today = values.today ?? clinicToday();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error('--today must be YYYY-MM-DD');
  return { reset: values.reset || claims !== null, claims, today };
}

async function main() {
  const { reset, claims, today } = options();
  // The clinic's clock now: visits of the seeded day that have ended by then are seeded as having happened.
  const time = timeInZone(new Date());
  const log = { info: (m: string) => console.log(m), error: (m: string) => console.error(m) };
  const database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    migrationDatabaseUrl: process.env.MIGRATION_DATABASE_URL,
    dataDir: process.env.DATA_DIR ?? path.join(projectRoot(), 'data'),
    log,
    // The scale seed disables the rollup triggers while it loads, which only the tables' owner may do.
    as: 'owner',
  });
  try {
    console.log(`database: ${database.description}`);
    if (claims !== null) {
      // One transaction for clearing, the demo clinic and the generated one: the tables are truncated in
      // the transaction that fills them, which lets PostgreSQL (at wal_level=minimal) skip their WAL.
      const started = Date.now();
      console.log(`clearing the clinic data (the audit trail stays), seeding the demo clinic for ${today}`);
      console.log(`and generating ${claims.toLocaleString('en-US')} claims…`);
      const log = (m: string) => console.log(`  ${m}`);
      const { demo, scale } = await database.db.transaction(async (tx) => {
        let step = Date.now();
        await clearClinicData(tx);
        log(`${((Date.now() - step) / 1000).toFixed(1)} s  clear the clinic data`);
        step = Date.now();
        const demo = await seedDemoClinic(tx, { today, time });
        log(`${((Date.now() - step) / 1000).toFixed(1)} s  seed the demo clinic`);
        const scale = await generateScale(tx, { claims, today, log, truncatedInThisTransaction: true });
        return { demo, scale };
      });
      await analyzeScale(database.db, log, true);
      console.log('demo clinic:', demo);
      console.log('generated:', scale);
      // One line the benchmark (bench/run.ts) reads: the whole seed, without starting the server.
      console.log(`seed seconds: ${((Date.now() - started) / 1000).toFixed(1)}`);
      return;
    }
    if (reset) {
      await database.db.transaction((tx) => clearClinicData(tx));
      console.log('cleared the clinic data (the audit trail stays)');
    } else if (!(await isDatabaseEmpty(database.db))) {
      console.log('the database already holds a clinic; use --reset to seed it again');
      return;
    }
    const demo = await seedDemoClinic(database.db, { today, time });
    console.log(`seeded the demo clinic for ${today}:`, demo);
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
