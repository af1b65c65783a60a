import pg from 'pg';

/**
 * The role the app server connects as (docs/security.md, "Database roles"). It owns nothing: the tables,
 * their triggers and functions belong to the role that migrates, so the app can neither alter a table nor
 * disable the audit trail's append-only trigger, and it is no superuser, so it cannot set
 * session_replication_role to skip triggers either. On the audit trail it may only read and append.
 */
export const APP_ROLE = 'clinic_app';

/** Tables the app may read and append to but never change or empty. */
const APPEND_ONLY_TABLES = ['audit_log'] as const;

type Queryable = Pick<pg.ClientBase, 'query'>;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * Creates the embedded server's app role, or brings an existing one back to what it must be (a login with
 * no special attribute) with the install's password. Run as the superuser.
 */
export async function ensureAppRole(owner: Queryable, password: string): Promise<void> {
  const exists = await owner.query('select 1 from pg_roles where rolname = $1', [APP_ROLE]);
  if (exists.rowCount === 0) await owner.query(`create role ${quoteIdent(APP_ROLE)}`);
  // ALTER ROLE takes no bind parameters; the password is hex from the data folder, quoted all the same.
  await owner.query(
    `alter role ${quoteIdent(APP_ROLE)} with login nosuperuser nocreatedb nocreaterole noreplication nobypassrls
       inherit password ${quoteLiteral(password)}`,
  );
}

/**
 * Grants `role` what the app does and nothing more, on the current database, after every migration (a new
 * table needs its grant; re-granting is harmless). Run as the role that owns the tables. The app empties
 * clinic tables on an admin's reset (TRUNCATE) and restarts their id sequences with setval (UPDATE on the
 * sequence; TRUNCATE … RESTART IDENTITY would need their ownership).
 */
export async function grantAppRole(owner: Queryable, role: string): Promise<void> {
  const r = quoteIdent(role);
  const { rows } = await owner.query<{ db: string }>('select current_database() as db');
  await owner.query(`grant connect, temporary on database ${quoteIdent(rows[0]?.db ?? '')} to ${r}`);
  await owner.query(`grant usage on schema public to ${r}`);
  await owner.query(`grant select, insert, update, delete, truncate on all tables in schema public to ${r}`);
  for (const table of APPEND_ONLY_TABLES) {
    await owner.query(`revoke update, delete, truncate, references, trigger on ${quoteIdent(table)} from ${r}`);
  }
  await owner.query(`grant usage, select, update on all sequences in schema public to ${r}`);
  await owner.query(`grant execute on all functions in schema public to ${r}`);
}

export interface RolePrivileges {
  role: string;
  superuser: boolean;
  bypassesRowSecurity: boolean;
  /** Tables, sequences, views and functions in the public schema this role owns. */
  ownedObjects: number;
}

/** What the connected role could do beyond the app's grants (a startup check and a test). */
export async function privilegesOfCurrentRole(client: Queryable): Promise<RolePrivileges> {
  const { rows } = await client.query<{ role: string; superuser: boolean; bypass: boolean; owned: string }>(
    `select current_user as role, r.rolsuper as superuser, r.rolbypassrls as bypass,
       (select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relowner = r.oid)
     + (select count(*) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = 'public' and p.proowner = r.oid) as owned
     from pg_roles r where r.rolname = current_user`,
  );
  const row = rows[0];
  if (!row) throw new Error('the connected role is not in pg_roles');
  return {
    role: row.role,
    superuser: row.superuser,
    bypassesRowSecurity: row.bypass,
    ownedObjects: Number(row.owned),
  };
}

/** The same server and database as `url`, reached as `user` with `password`. */
export function urlAs(url: string, user: string, password: string): string {
  const u = new URL(url);
  u.username = encodeURIComponent(user);
  u.password = encodeURIComponent(password);
  return u.toString();
}

/** The user name a connection string signs in as (PGUSER's default when it names none). */
export function userOf(url: string): string {
  const user = decodeURIComponent(new URL(url).username);
  return user || process.env.PGUSER || 'postgres';
}
