/**
 * Writing a computed answer: a 50-row Claims page, as the server now writes it (fast-json-stringify compiled
 * from the route's zod response schema, src/server/plugins/answer-serializer.ts) against the zod serializer it
 * replaced (check and copy the answer, then JSON.stringify), on the same page read from the bench server, in
 * this one run. Reported as each one's time per answer and their ratio; it passes when both write the same JSON.
 */
import { isDeepStrictEqual } from 'node:util';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { claimPageSchema } from '@/features/claims/claims.schema';
import { answerSerializerCompiler } from '@/server/plugins/answer-serializer';
import type { BenchContext, BenchFigure, BenchPart } from './bench.types';

type Serialize = (data: unknown) => string;

function microsPerCall(serialize: Serialize, data: unknown, calls: number): number {
  for (let i = 0; i < Math.min(calls, 1000); i += 1) serialize(data);
  const started = performance.now();
  for (let i = 0; i < calls; i += 1) serialize(data);
  return ((performance.now() - started) / calls) * 1000;
}

const serializerBench: BenchPart = async (ctx: BenchContext): Promise<BenchFigure[]> => {
  const { cookie } = await ctx.signIn('billing_admin');
  const response = await fetch(`${ctx.baseUrl}/api/claims?limit=50`, { headers: { cookie } });
  if (!response.ok) throw new Error(`GET /api/claims answered ${response.status}`);
  const page: unknown = await response.json();
  const route = { schema: claimPageSchema, method: 'GET', url: '/api/claims', httpStatus: '200' };
  const zod = zodSerializerCompiler(route) as Serialize;
  const compiled = answerSerializerCompiler(false)(route) as Serialize;
  const calls = ctx.quick ? 500 : 20_000;
  const zodMicros = microsPerCall(zod, page, calls);
  const compiledMicros = microsPerCall(compiled, page, calls);
  const same = isDeepStrictEqual(JSON.parse(compiled(page)), JSON.parse(zod(page)));
  return [
    {
      figure: 'Writing a 50-row Claims page: compiled serializer against the zod serializer',
      goal: 'reported; the same JSON',
      measured:
        `${compiledMicros.toFixed(1)} µs against ${zodMicros.toFixed(1)} µs per answer ` +
        `(${(zodMicros / compiledMicros).toFixed(1)}× faster)${same ? '' : '; the JSON differs'}`,
      pass: same,
    },
  ];
};

export default serializerBench;
