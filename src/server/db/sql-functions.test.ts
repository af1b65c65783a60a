import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';
import { projectRoot } from './client';

/** Every src/features/<feature>/server/sql/<function>.sql and src/server/db/sql/<function>.sql. */
function functionFiles(): Map<string, string> {
  const root = projectRoot();
  const dirs = [
    path.join(root, 'src/server/db/sql'),
    ...readdirSync(path.join(root, 'src/features')).map((f) => path.join(root, 'src/features', f, 'server/sql')),
  ];
  const files = new Map<string, string>();
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.sql'));
    } catch {
      continue;
    }
    for (const name of names) files.set(name.slice(0, -'.sql'.length), path.join(dir, name));
  }
  return files;
}

const normalise = (definition: string) => definition.replace(/\s+/g, ' ').trim();

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
});

/** The definitions (pg_get_functiondef) of a schema's own functions, not those of extensions (pg_trgm). */
async function definitions(schema: string, client: { query: TestDatabase['pool']['query'] } = database.ownerPool) {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `select p.proname as name, pg_get_functiondef(p.oid) as definition
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = $1
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
    [schema],
  );
  return new Map(rows.map((r) => [r.name, normalise(r.definition).replace(`${schema}.${r.name}(`, `${r.name}(`)]));
}

describe('the database functions and their sql files', () => {
  const files = functionFiles();

  it('every function of the migrated database has its file, and every file its function', async () => {
    const inDatabase = await definitions('public');
    expect([...files.keys()].sort()).toEqual([...inDatabase.keys()].sort());
  });

  it.each([...files.keys()].sort())('%s in the migrated database is the definition in its file', async (name) => {
    const expected = (await definitions('public')).get(name);
    // The file's statement run in a schema of its own, read back the way PostgreSQL prints it: a difference
    // in arguments, result, language, volatility or body (other than whitespace) fails. As the owner: the app
    // role may create no schema.
    const client = await database.ownerPool.connect();
    try {
      await client.query('begin');
      await client.query('create schema function_file; set local search_path = function_file, public');
      await client.query(readFileSync(files.get(name)!, 'utf8'));
      const fromFile = await definitions('function_file', client);
      expect(fromFile.get(name)).toBeDefined();
      expect(fromFile.get(name)).toEqual(expected);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
