import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import { userSettingsPatchSchema, userSettingsSchema } from '../settings.schema';
import { getUserSettings, updateUserSettings } from './settings.queries';

export function settingsRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/api/settings',
      { config: { permission: 'settings:own' }, schema: { tags: ['settings'], response: { 200: userSettingsSchema } } },
      (request) => getUserSettings(deps.db, requestContext(request, deps)),
    );
    api.patch(
      '/api/settings',
      {
        config: { permission: 'settings:own' },
        schema: {
          tags: ['settings'],
          body: userSettingsPatchSchema,
          response: { 200: userSettingsSchema, 400: errorEnvelopeSchema },
        },
      },
      (request) => updateUserSettings(deps.db, requestContext(request, deps), request.body),
    );
  };
}
