import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';
import { reasonCodeSchema } from '../claims.schema';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
});

/**
 * The claims table's check constraint `name`, evaluated as stored in the database on each of `values` put in
 * place of `column`: a CHECK refuses a row only when its expression is false.
 */
async function accepted(name: string, column: string, values: readonly string[]): Promise<boolean[]> {
  const found = await database.pool.query<{ def: string }>(
    `select pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'claims'::regclass and conname = $1`,
    [name],
  );
  const definition = found.rows[0]?.def;
  if (!definition) throw new Error(`no constraint ${name}`);
  const expression = definition.replace(/^CHECK \(/, '(').replace(new RegExp(`\\b${column}\\b`, 'g'), 'v.value');
  const result = await database.pool.query<{ ok: boolean | null }>(
    `select (${expression}) as ok from unnest($1::text[]) with ordinality as v(value, n) order by n`,
    [values],
  );
  return result.rows.map((r) => r.ok !== false);
}

// The constraints are written without regular expressions for speed; they must agree with the rules the API
// checks: the reason code as the claims schema parses it, the place of service two digits (the schema trims
// the text first, so its own pattern is the rule on what is stored).
const isReasonCode = (value: string) => reasonCodeSchema.safeParse(value).success;
const PLACE_OF_SERVICE = /^[0-9]{2}$/;

/** Strings near the rules' edges: their characters and a few that must never pass. */
const nearly = (chars: string[]) => fc.array(fc.constantFrom(...chars), { maxLength: 9 }).map((c) => c.join(''));

describe('claims check constraints', () => {
  it('takes a reason code exactly when it is a CARC group, a hyphen and 1–4 capitals or digits', async () => {
    const chosen = ['CO-45', 'PR-1', 'OA-23', 'PI-B12', 'CR-A1B2', 'CO-', 'CO-12345', 'co-45', 'CO 45', 'XX-1'];
    const chosenMore = ['CO-4é', 'CO-4\n', 'CO-4 ', ' CO-4', 'CO--4', 'CO-a', 'PI-Z', 'CR-9999', ''];
    const drawn = fc.sample(nearly(['C', 'O', 'P', 'R', 'A', 'I', '-', '4', '9', 'Z', 'a', 'é', ' ', '\n']), 600);
    const samples = [...chosen, ...chosenMore, ...drawn];
    const answers = await accepted('claims_reason_check', 'reason_code', samples);
    samples.forEach((value, i) => expect(answers[i], JSON.stringify(value)).toBe(isReasonCode(value)));
    expect(answers.filter(Boolean).length).toBeGreaterThan(5);
  });

  it('takes a place of service exactly when it is two digits', async () => {
    const chosen = ['11', '02', '99', '1', '123', '1a', 'a1', ' 1', '1 ', '', 'é', '1\n', '٣٣'];
    const drawn = fc.sample(nearly(['0', '1', '9', 'a', ' ', 'é', '-', '\n']), 400);
    const samples = [...chosen, ...drawn];
    const answers = await accepted('claims_place_of_service_check', 'place_of_service', samples);
    samples.forEach((value, i) => expect(answers[i], JSON.stringify(value)).toBe(PLACE_OF_SERVICE.test(value)));
  });
});
