/**
 * `npm run user:create -- --role admin --email a@clinic.example [--name "Jordan Lee"]`
 *
 * Creates an account in the database the app uses (DATABASE_URL, or the embedded PostgreSQL under
 * DATA_DIR, default ./data; stop `npm start` first when it uses the same folder) and prints its temporary
 * password, valid 72 hours. Outside demo mode no demo accounts exist: this makes the first admin, who
 * sets up an authenticator app and a new password at first sign-in.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase, projectRoot } from '@/server/db/client';
import type { Db } from '@/server/db/types';
import { HttpError } from '@/server/plugins/errors';
import { newUserSchema, type CreatedUser } from '../users.schema';
import { createUserFromCommandLine, TEMPORARY_PASSWORD_HOURS } from './users.queries';

/** Parses the arguments with the Users tab's rules; a problem names the option and the rule. */
export function parseUserCreateArgs(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { role: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' } },
  });
  const email = values.email ?? '';
  const parsed = newUserSchema.safeParse({ role: values.role, email, name: values.name ?? email.split('@')[0] });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`);
    throw new Error(`${problems.join('\n')}\nusage: npm run user:create -- --role admin --email you@clinic.example`);
  }
  return parsed.data;
}

export async function runUserCreate(db: Db, args: string[], now: Date): Promise<CreatedUser> {
  return createUserFromCommandLine(db, parseUserCreateArgs(args), now);
}

export function describeCreated(created: CreatedUser): string {
  return [
    `created ${created.user.email} (${created.user.role})`,
    `temporary password: ${created.temporaryPassword}`,
    `It expires in ${TEMPORARY_PASSWORD_HOURS} hours. At first sign-in the user sets up an authenticator app`,
    'and chooses a new password.',
  ].join('\n');
}

async function main() {
  const database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    migrationDatabaseUrl: process.env.MIGRATION_DATABASE_URL,
    dataDir: process.env.DATA_DIR ?? path.join(projectRoot(), 'data'),
    log: { info: () => {}, error: (m) => console.error(m) },
  });
  try {
    console.log(describeCreated(await runUserCreate(database.db, process.argv.slice(2), new Date())));
  } catch (err) {
    console.error(err instanceof HttpError || err instanceof Error ? err.message : err);
    process.exitCode = 1;
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
