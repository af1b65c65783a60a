import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import {
  managedProviderListSchema,
  managedProviderSchema,
  newProviderSchema,
  providerPatchSchema,
  providerSchema,
} from '../providers.schema';
import { createProvider, listActiveProviders, listAllProviders, updateProvider } from './providers.queries';

export function providersRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const errors = {
      400: errorEnvelopeSchema,
      403: errorEnvelopeSchema,
      404: errorEnvelopeSchema,
      409: errorEnvelopeSchema,
    };
    api.get(
      '/api/providers',
      {
        config: { permission: 'appointments:read' },
        schema: { tags: ['providers'], response: { 200: z.array(providerSchema) } },
      },
      () => listActiveProviders(deps.db),
    );
    // Settings → Providers: the admin maintains the providers (a reset keeps them).
    api.get(
      '/api/admin/providers',
      {
        config: { permission: 'system:admin' },
        schema: { tags: ['providers'], response: { 200: managedProviderListSchema } },
      },
      async () => ({ items: await listAllProviders(deps.db) }),
    );
    api.post(
      '/api/admin/providers',
      {
        config: { permission: 'system:admin' },
        schema: {
          tags: ['providers'],
          description: 'Adds a provider who can be booked; audited.',
          body: newProviderSchema,
          response: { 201: managedProviderSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await createProvider(deps.db, requestContext(request, deps), request.body)),
    );
    api.patch(
      '/api/admin/providers/:id',
      {
        config: { permission: 'system:admin' },
        schema: {
          tags: ['providers'],
          description:
            'Renames a provider, changes the specialty, or deactivates (no new bookings; past records stay) or reactivates them; audited.',
          params: idParamsSchema,
          body: providerPatchSchema,
          response: { 200: managedProviderSchema, ...errors },
        },
      },
      (request) => updateProvider(deps.db, requestContext(request, deps), request.params.id, request.body),
    );
  };
}
