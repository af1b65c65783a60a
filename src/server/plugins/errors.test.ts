import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { MAX_BODY_DEPTH, nestsDeeperThan } from './errors';

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signInAs(t.app, 'admin');
});
afterAll(async () => {
  await t.close();
});

async function patientCount(): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: string }>('select count(*) as n from patients');
  return Number(rows[0]?.n);
}

function nested(depth: number): string {
  return `{"name":"A","notes":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

describe('a JSON body nested too deep', () => {
  it.each([65, 5_000, 500_000])(
    'is refused with a 400 naming the rule at %i levels, nothing written',
    async (depth) => {
      const before = await patientCount();
      const res = await admin.request({
        method: 'POST',
        url: '/api/patients',
        headers: { 'content-type': 'application/json' },
        payload: nested(depth),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: {
          code: 'VALIDATION_FAILED',
          message: `body: nested deeper than ${MAX_BODY_DEPTH} levels`,
          fields: [{ field: 'body', message: `nested deeper than ${MAX_BODY_DEPTH} levels` }],
        },
      });
      expect(await patientCount()).toBe(before);
    },
  );

  it('up to the limit the body reaches the schema, which names the field as usual', async () => {
    // The body itself is one level; the array inside it makes the rest.
    const res = await admin.request({
      method: 'POST',
      url: '/api/patients',
      headers: { 'content-type': 'application/json' },
      payload: nested(MAX_BODY_DEPTH - 1),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { message: string } }>().error.message).not.toContain('nested deeper');
    expect(res.json<{ error: { message: string } }>().error.message).toContain('notes');
  });

  it('counts only brackets outside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(`{"a":"${'['.repeat(100)}"}`, 2)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\"${'['.repeat(100)}"}`, 2)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\\\",${'['.repeat(3)}`, 2)).toBe(true);
    expect(nestsDeeperThan('[[]]', 2)).toBe(false);
    expect(nestsDeeperThan('[[[]]]', 2)).toBe(true);
  });
});
