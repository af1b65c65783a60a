/**
 * What the server does on start besides listening: seed the demo clinic only in demo mode, and say loudly
 * when demo mode (codes on screen, well-known passwords) is reachable from other machines.
 */
import { today } from '@/shared/api';
import { timeInZone } from '@/shared/practice-zone';
import type { Db } from './db/types';
import { isDatabaseEmpty, seedDemoClinic, type SeedSummary } from './db/seed/demo-seed';

export interface StartLog {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Seeds the demo clinic (demo accounts included) into an empty database in demo mode only: outside demo
 * mode an install starts with no account, and `npm run user:create` makes the first admin.
 */
export async function seedOnFirstStart(
  db: Db,
  options: { demoMode: boolean; now: Date; log: StartLog },
): Promise<SeedSummary | null> {
  if (!(await isDatabaseEmpty(db))) return null;
  if (!options.demoMode) {
    options.log.info(
      'no accounts yet and demo mode is off: nothing seeded; create the first admin with ' +
        '`npm run user:create -- --role admin --email you@clinic.example`',
    );
    return null;
  }
  // The clinic's day and clock: today's visits that have ended by now are seeded as having happened.
  const summary = await seedDemoClinic(db, { today: today(options.now), time: timeInZone(options.now) });
  options.log.info(`seeded the demo clinic (${summary.users ?? 0} demo accounts)`);
  return summary;
}

const LOCAL_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/** The warning for demo mode listening beyond this machine, or null. */
export function demoModeExposureWarning(demoMode: boolean, host: string): string | null {
  if (!demoMode || LOCAL_HOSTS.has(host.trim().toLowerCase())) return null;
  return (
    `DEMO MODE IS ON and the server listens on ${host}, not only on this machine: anyone who can reach it ` +
    'can sign in with the demo accounts (well-known passwords, one-time code shown on screen). Set ' +
    'DEMO_MODE=false for real patient data, or HOST=127.0.0.1 to keep the demo local.'
  );
}

export function warnIfDemoModeExposed(log: StartLog, demoMode: boolean, host: string): void {
  const warning = demoModeExposureWarning(demoMode, host);
  if (warning) log.warn(warning);
}
