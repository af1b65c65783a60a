import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import { poolWaitsOfDatabase } from '@/server/db/pool-waits';
import { HttpError } from '@/server/plugins/errors';
import {
  databasePoolResponseSchema,
  resetRequestSchema,
  resetResponseSchema,
  seedRequestSchema,
  seedResponseSchema,
} from '../system.schema';
import { databaseIsUp, reseedDemoClinic, resetSystem } from './system.queries';

export function systemRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const errors = { 400: errorEnvelopeSchema, 403: errorEnvelopeSchema };
    api.get(
      '/api/health',
      {
        config: { permission: 'public' },
        schema: { tags: ['system'], response: { 200: z.object({ status: z.literal('ok'), database: z.boolean() }) } },
      },
      async () => ({ status: 'ok' as const, database: await databaseIsUp(deps.db) }),
    );
    api.get(
      '/api/system/database-pool',
      {
        config: { permission: 'system:admin' },
        schema: {
          tags: ['system'],
          description:
            "The server's connections to PostgreSQL and the time its requests waited for one since it started.",
          response: { 200: databasePoolResponseSchema, 403: errorEnvelopeSchema, 503: errorEnvelopeSchema },
        },
      },
      () => {
        const waits = poolWaitsOfDatabase(deps.db);
        if (!waits) throw new HttpError(503, 'POOL_NOT_TIMED', 'This server does not time its database connections.');
        return waits;
      },
    );
    api.post(
      '/api/seed',
      {
        config: { permission: 'system:admin' },
        schema: {
          tags: ['system'],
          description:
            "Replaces the clinic's records with the demo clinic; users, settings, providers, payers, compliance lists and the audit trail stay.",
          body: seedRequestSchema,
          response: { 200: seedResponseSchema, ...errors },
        },
      },
      (request) => reseedDemoClinic(deps.db, requestContext(request, deps)),
    );
    api.post(
      '/api/system/reset',
      {
        config: { permission: 'system:admin' },
        schema: {
          tags: ['system'],
          description:
            "Clears the clinic's records; staff accounts, settings, providers, payers and the audit trail stay; patient accounts are deactivated.",
          body: resetRequestSchema,
          response: { 200: resetResponseSchema, ...errors },
        },
      },
      (request) => resetSystem(deps.db, requestContext(request, deps)),
    );
  };
}
