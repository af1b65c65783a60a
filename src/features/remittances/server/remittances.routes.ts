import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { acceptX12Body, x12BodyOf } from '@/server/plugins/x12-body';
import { requestContext } from '@/server/request-context';
import {
  remittanceDetailSchema,
  remittanceListQuerySchema,
  remittancePageSchema,
  remittanceImportSchema,
} from '../remittances.schema';
import { importRemittances, listRemittances, remittanceDetail } from './remittances.queries';

/** The largest 835 accepted: about 100,000 claims of a typical remittance. */
export const ERA_BODY_LIMIT = 20 * 1024 * 1024;

/** Remittances (docs/remittances.md): import an 835, list the imports, open one, export it. */
export function remittancesRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    // An 835 is text: read as a string, up to ERA_BODY_LIMIT, on these routes only (the plugin's own context).
    acceptX12Body(app, ERA_BODY_LIMIT);
    const api = app.withTypeProvider<ZodTypeProvider>();
    const errors = {
      400: errorEnvelopeSchema,
      404: errorEnvelopeSchema,
      415: errorEnvelopeSchema,
      422: errorEnvelopeSchema,
    };
    api.post(
      '/api/remittances',
      {
        config: { permission: 'remittances:write' },
        bodyLimit: ERA_BODY_LIMIT,
        schema: {
          tags: ['remittances'],
          description:
            'Imports a file of X12 835 remittances (005010X221A1; one or more transaction sets, one per payment), ' +
            'sent as the body with Content-Type application/edi-x12 or text/plain: balances each, posts the claims ' +
            'that match and balance, and sends the rest to the work queue, all in one transaction (a file that does ' +
            'not read or balance posts nothing). 201 with a summary of each remittance in file order; 200 when every ' +
            'one had been imported before (same payer and trace number: its earlier summary, nothing posted again).',
          response: { 200: remittanceImportSchema, 201: remittanceImportSchema, ...errors },
        },
      },
      async (request, reply) => {
        const result = await importRemittances(deps.db, requestContext(request, deps), x12BodyOf(request.body));
        return reply.code(result.duplicate ? 200 : 201).send({ remittances: result.remittances });
      },
    );
    api.get(
      '/api/remittances',
      {
        config: { permission: 'remittances:read' },
        schema: {
          tags: ['remittances'],
          description: 'The imported remittances, newest first (keyset-paged).',
          querystring: remittanceListQuerySchema,
          response: { 200: remittancePageSchema, ...errors },
        },
      },
      (request) => listRemittances(deps.db, request.query),
    );
    api.get(
      '/api/remittances/:id',
      {
        config: { permission: 'remittances:read' },
        schema: {
          tags: ['remittances'],
          description: "One remittance with each claim's posting and adjustments; an audited PHI read.",
          params: idParamsSchema,
          response: { 200: remittanceDetailSchema, ...errors },
        },
      },
      (request) => remittanceDetail(deps.db, requestContext(request, deps), request.params.id),
    );
    api.get(
      '/api/remittances/:id/export',
      {
        config: { permission: 'remittances:read' },
        schema: {
          tags: ['remittances'],
          description: 'The same as the detail, for the CSV download; audited as export.csv.',
          params: idParamsSchema,
          response: { 200: remittanceDetailSchema, ...errors },
        },
      },
      (request) => remittanceDetail(deps.db, requestContext(request, deps), request.params.id, 'export.csv'),
    );
  };
}
