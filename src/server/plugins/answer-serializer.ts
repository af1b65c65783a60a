import { isDeepStrictEqual } from 'node:util';
import fastJsonStringify from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { z } from 'zod';

type Serialize = (data: unknown) => string;
type CompilerInput = Parameters<FastifySerializerCompiler<unknown>>[0];

/**
 * Answers written by fast-json-stringify from each route's zod response schema, turned into JSON Schema
 * (docs/performance.md, "Answers serialised from their schemas"). The zod serializer checks and copies the whole
 * answer before JSON.stringify writes it: ~115 µs for a 50-row Claims page, against ~18 µs for a serializer
 * compiled from the schema, on every computed list. Like zod it writes only the fields the schema names, so a
 * column a query adds never reaches the client.
 *
 * What fast-json-stringify does not do is check: it coerces a value to its field's type instead of refusing
 * it. So with `check` (NODE_ENV=test: every unit, API and browser test) each answer is also serialised by zod,
 * which throws on an answer outside its schema as it always did, and the two texts must hold the same JSON,
 * else the request fails naming the route. A schema JSON Schema cannot express (a date, say) keeps zod's
 * serializer.
 */
export function answerSerializerCompiler(check: boolean): FastifySerializerCompiler<unknown> {
  return (input: CompilerInput) => {
    const checked = zodSerializerCompiler(input as Parameters<typeof zodSerializerCompiler>[0]) as Serialize;
    const fast = compiled(input);
    if (!fast) return checked;
    return check ? checking(fast, checked, `${input.method} ${input.url}`) : fast;
  };
}

/** `fast`, whose every answer must hold the JSON `checked` (which throws on an answer outside its schema) writes. */
export function checking(fast: Serialize, checked: Serialize, route: string): Serialize {
  return (data) => {
    const expected = checked(data);
    const text = fast(data);
    if (!isDeepStrictEqual(JSON.parse(text), JSON.parse(expected))) {
      throw new Error(
        `${route}: the compiled serializer wrote ${text.slice(0, 300)} where the schema's is ${expected.slice(0, 300)}`,
      );
    }
    return text;
  };
}

function compiled({ schema }: CompilerInput): Serialize | null {
  const zodSchema = schemaOf(schema);
  if (!zodSchema) return null;
  try {
    return fastJsonStringify(
      z.toJSONSchema(zodSchema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' }) as object,
    ) as Serialize;
  } catch {
    return null;
  }
}

/** The zod schema a route declares for a status code (directly, or as fastify-type-provider-zod accepts it). */
function schemaOf(schema: unknown): z.ZodType | null {
  if (schema instanceof z.ZodType) return schema;
  if (typeof schema === 'object' && schema !== null && 'properties' in schema) {
    const inner = schema.properties;
    if (inner instanceof z.ZodType) return inner;
  }
  return null;
}
