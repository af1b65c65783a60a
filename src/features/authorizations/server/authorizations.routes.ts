import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import {
  authorizationDecisionSchema,
  authorizationExportQuerySchema,
  authorizationExportSchema,
  authorizationListSchema,
  authorizationQuerySchema,
  authorizationSchema,
} from '../authorizations.schema';
import { decideAuthorization, exportAuthorizations, listAuthorizations } from './authorizations.queries';

const errors = { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema };

export function authorizationsRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/api/authorizations',
      {
        config: { permission: 'authorizations:read', cacheable: true },
        schema: {
          tags: ['authorizations'],
          querystring: authorizationQuerySchema,
          response: { 200: authorizationListSchema, ...errors },
        },
      },
      (request) => listAuthorizations(deps.db, requestContext(request, deps), request.query),
    );
    api.get(
      '/api/authorizations/export',
      {
        config: { permission: 'authorizations:read' },
        schema: {
          tags: ['authorizations'],
          description: 'Every row matching the filters, for the CSV export; audited as an export.',
          querystring: authorizationExportQuerySchema,
          response: { 200: authorizationExportSchema, 422: errorEnvelopeSchema, ...errors },
        },
      },
      (request) => exportAuthorizations(deps.db, requestContext(request, deps), request.query),
    );
    api.patch(
      '/api/authorizations/:id',
      {
        config: { permission: 'authorizations:write' },
        schema: {
          tags: ['authorizations'],
          params: idParamsSchema,
          body: authorizationDecisionSchema,
          response: { 200: authorizationSchema, ...errors },
        },
      },
      (request) => decideAuthorization(deps.db, requestContext(request, deps), request.params.id, request.body),
    );
  };
}
