import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppDeps } from '@/server/context';

export function systemRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/api/health',
      {
        config: { permission: 'public' },
        schema: { tags: ['system'], response: { 200: z.object({ status: z.literal('ok'), database: z.boolean() }) } },
      },
      async () => {
        await deps.db.execute(sql`select 1`);
        return { status: 'ok' as const, database: true };
      },
    );
  };
}
