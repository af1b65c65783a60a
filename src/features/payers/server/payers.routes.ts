import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import {
  activePayerSchema,
  newPayerSchema,
  payerListSchema,
  payerPatchSchema,
  payerRecordSchema,
} from '../payers.schema';
import { createPayer, listActivePayers, listPayers, updatePayer } from './payers.queries';

/** Settings → Payers: the admin maintains the payers claims are billed to (docs/payers.md). */
export function payersRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const errors = {
      400: errorEnvelopeSchema,
      403: errorEnvelopeSchema,
      404: errorEnvelopeSchema,
      409: errorEnvelopeSchema,
    };
    api.get(
      '/api/payers',
      {
        // Whoever registers a patient's insurance picks its payer; the admin's list below has more.
        config: { permission: 'coverage:write' },
        schema: {
          tags: ['payers'],
          description: "The active payers a patient's policy can name, with each one's claim filing indicator.",
          response: { 200: z.array(activePayerSchema) },
        },
      },
      () => listActivePayers(deps.db),
    );
    api.get(
      '/api/admin/payers',
      { config: { permission: 'system:admin' }, schema: { tags: ['payers'], response: { 200: payerListSchema } } },
      async () => ({ items: await listPayers(deps.db) }),
    );
    api.post(
      '/api/admin/payers',
      {
        config: { permission: 'system:admin' },
        schema: {
          tags: ['payers'],
          description: 'Adds a payer claims can be imported for; audited.',
          body: newPayerSchema,
          response: { 201: payerRecordSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await createPayer(deps.db, requestContext(request, deps), request.body)),
    );
    api.patch(
      '/api/admin/payers/:id',
      {
        config: { permission: 'system:admin' },
        schema: {
          tags: ['payers'],
          description: "Changes a payer's payer id, timely-filing limit or status (the name stays); audited.",
          params: idParamsSchema,
          body: payerPatchSchema,
          response: { 200: payerRecordSchema, ...errors },
        },
      },
      (request) => updatePayer(deps.db, requestContext(request, deps), request.params.id, request.body),
    );
  };
}
