/**
 * `npm run access:matrix`: writes docs/access-matrix.json and docs/access-matrix.md from the routes the
 * server registers and the policy in src/shared/access.ts. Builds the app as the tests do (no client, not
 * listening); registering routes opens no database connection, so none is needed.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { format, resolveConfig } from 'prettier';
import { buildApp } from './app';
import { DEFAULT_CONFIG } from './context';
import { projectRoot } from './db/client';
import { MATRIX_JSON, MATRIX_MARKDOWN, buildAccessMatrix, renderAccessMatrixMarkdown } from './access-matrix';

async function main() {
  // A pool that is never used: pg connects lazily, and building the app runs no query.
  const pool = new pg.Pool({ connectionString: 'postgres://unused@127.0.0.1:1/unused' });
  const app = await buildApp({ db: drizzle(pool), clock: () => new Date(), config: DEFAULT_CONFIG });
  await app.ready();
  const matrix = buildAccessMatrix(app.routeRegistry);
  await app.close();
  await pool.end();

  const root = projectRoot();
  for (const [file, text] of [
    [MATRIX_JSON, JSON.stringify(matrix)],
    [MATRIX_MARKDOWN, renderAccessMatrixMarkdown(matrix)],
  ] as const) {
    const target = path.join(root, file);
    await writeFile(target, await format(text, { ...(await resolveConfig(target)), filepath: target }));
    console.log(`wrote ${file}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
