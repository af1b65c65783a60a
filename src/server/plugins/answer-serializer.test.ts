import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { claimPageSchema } from '@/features/claims/claims.schema';
import { answerSerializerCompiler, checking } from './answer-serializer';

const route = { method: 'GET', url: '/api/x', httpStatus: '200' };
const serializerFor = (schema: z.ZodType, check: boolean) =>
  answerSerializerCompiler(check)({ ...route, schema }) as (data: unknown) => string;

const page = {
  items: [
    {
      id: 7,
      patient: 'Ana "Nena" Ruiz',
      accountNumber: 'ACC-2026-7',
      procedure: '99213',
      provider: 'Dr. Ana Gutierrez',
      payer: 'Aetna',
      serviceDate: '2026-11-03',
      billedCents: 15000,
      paidCents: 0,
      daysAR: 12,
      balanceCents: 15000,
      status: 'Denied',
      frequencyCode: '1',
      reason: 'CO-197',
      denialDescription: null,
      // A column the query read but the schema does not name: never sent.
      patientId: 42,
    },
  ],
  nextCursor: null,
  total: 1,
};

describe('the answer serializer', () => {
  it('writes what the schema names, as the zod serializer does, and leaves other fields out', () => {
    const text = serializerFor(claimPageSchema, false)(page);
    const { patientId: _left, ...shown } = page.items[0]!;
    expect(JSON.parse(text)).toEqual({ ...page, items: [shown] });
    expect(text).not.toContain('patientId');
    expect(serializerFor(claimPageSchema, true)(page)).toBe(text);
  });

  it('checked, still refuses an answer outside its schema', () => {
    const wrong = { ...page, items: [{ ...page.items[0], billedCents: '15000' }] };
    expect(() => serializerFor(claimPageSchema, true)(wrong)).toThrow();
  });

  it('checked, refuses an answer the compiled serializer writes differently, naming the route', () => {
    const dropsTotal = (data: unknown) => JSON.stringify({ ...(data as object), total: null });
    expect(() => checking(dropsTotal, (data) => JSON.stringify(data), 'GET /api/x')(page)).toThrow(
      /GET \/api\/x: the compiled serializer wrote/,
    );
  });

  it('keeps the zod serializer for a schema JSON Schema cannot express', () => {
    const schema = z.object({ at: z.date() });
    const at = new Date('2026-12-02T10:00:00Z');
    expect(serializerFor(schema, true)({ at })).toBe('{"at":"2026-12-02T10:00:00.000Z"}');
  });

  it('checks in every test run (NODE_ENV=test)', () => {
    expect(process.env.NODE_ENV).toBe('test');
  });
});
