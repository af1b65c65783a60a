/**
 * A database from before the claim model (migrations up to 0030) with claims in it, migrated on: every claim
 * keeps its figures and becomes a claim of one service line. Migrated by drizzle's own migrator, as a real
 * upgrade is.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { projectRoot } from './client';

const BEFORE = '0030_worklist_ckd_stage3_codes';

interface Journal {
  entries: { tag: string }[];
}

let dir: string;
let url: URL;
let admin: pg.Client;
let client: pg.Client;

/** The migrations folder as it was up to and including `last`. */
function migrationsUpTo(last: string): string {
  const source = path.join(projectRoot(), 'drizzle');
  const journal = JSON.parse(readFileSync(path.join(source, 'meta/_journal.json'), 'utf8')) as Journal;
  const upTo = journal.entries.findIndex((e) => e.tag === last);
  if (upTo < 0) throw new Error(`no migration ${last}`);
  const entries = journal.entries.slice(0, upTo + 1);
  mkdirSync(path.join(dir, 'meta'), { recursive: true });
  writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const e of entries) copyFileSync(path.join(source, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  url = new URL(inject('templateDatabaseUrl'));
  const name = `carry_${randomBytes(6).toString('hex')}`;
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`create database ${name} template template0`);
  url.pathname = `/${name}`;
  client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
});

afterAll(async () => {
  await client.end();
  await admin.query(`drop database if exists ${url.pathname.slice(1)}`);
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
});

describe('migrating claims to the claim model (0031)', () => {
  it('gives every existing claim its one service line, with its code, charge and date; figures unchanged', async () => {
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: migrationsUpTo(BEFORE) });
    await client.query(`insert into providers (name, specialty) values ('Dr. Old', 'Family Medicine')`);
    await client.query(
      `insert into patients (name, mrn, dob, phone) values ('Pat Old', 'MRN-OLD1', '1970-01-01', '(555) 200-0000')`,
    );
    await client.query(`
      insert into claims (patient_id, provider_id, account_number, procedure_code, payer, service_date, billed_cents,
          paid_cents, contractual_adjustment_cents, status, reason_code)
      select 1, 1, 'ACC-OLD-' || g, case when g % 2 = 0 then '99213' else '80053' end, 'Aetna',
          date '2026-06-01' + g, 10000 + g, 6000, 4000 + g, 'Paid', 'CO-45'
      from generate_series(1, 5) as g`);
    const before = await client.query<{ id: number; billed: number; code: string; status: string }>(
      `select id, billed_cents as billed, procedure_code as code, status from claims order by id`,
    );

    await migrate(db, { migrationsFolder: path.join(projectRoot(), 'drizzle') });

    const after = await client.query<{ id: number; billed: number; code: string; status: string }>(
      `select id, billed_cents as billed, procedure_code as code, status from claims order by id`,
    );
    expect(after.rows).toEqual(before.rows);
    const lines = await client.query<{
      claim_id: number;
      line_number: number;
      code: string;
      charge: number;
      date: string;
      lcn: string;
    }>(
      `select l.claim_id, l.line_number, l.procedure_code as code, l.charge_cents as charge,
              l.service_date::text as date, l.line_control_number as lcn
         from claim_lines l order by l.claim_id`,
    );
    expect(lines.rows).toEqual(
      before.rows.map((c, i) => ({
        claim_id: c.id,
        line_number: 1,
        code: c.code,
        charge: c.billed,
        date: `2026-06-0${i + 2}`,
        lcn: `ACC-OLD-${i + 1}-1`,
      })),
    );
    // From now on the lines make the total: a second line adds to the claim.
    await client.query(
      `insert into claim_lines (claim_id, line_number, procedure_code, charge_cents, service_date,
        line_control_number) values ($1, 2, '36415', 1700, date '2026-06-02', 'ACC-OLD-1-2')`,
      [before.rows[0]?.id],
    );
    const [first] = (
      await client.query<{ billed: number }>('select billed_cents as billed from claims where id = $1', [
        before.rows[0]?.id,
      ])
    ).rows;
    expect(first?.billed).toBe((before.rows[0]?.billed ?? 0) + 1700);
    const [payer] = (
      await client.query<{ indicator: string }>(
        `select claim_filing_indicator as indicator from payers where name = 'Medicare'`,
      )
    ).rows;
    expect(payer?.indicator).toBe('MB');
  });
});
