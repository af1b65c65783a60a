import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '@/server/context';
import { providerSchema } from '../providers.schema';
import { listActiveProviders } from './providers.queries';

export function providersRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/api/providers',
      {
        config: { permission: 'appointments:read' },
        schema: { tags: ['providers'], response: { 200: z.array(providerSchema) } },
      },
      () => listActiveProviders(deps.db),
    );
  };
}
