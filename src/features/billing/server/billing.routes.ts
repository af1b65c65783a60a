import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import {
  guestPaymentReceiptSchema,
  guestPaymentRequestSchema,
  guestStatementRequestSchema,
  guestStatementSchema,
} from '../billing.schema';
import { lookupGuestStatement, payAsGuest } from './billing.queries';

const errors = { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema };

export function billingRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    // An account number and a date of birth are all a guest needs: rate-limited like sign-in, so they
    // cannot be guessed at speed.
    const rateLimit = { max: deps.config.loginRateLimitPerMinute, timeWindow: '1 minute' };

    api.post(
      '/api/guest/statement',
      {
        config: { permission: 'guest:pay', rateLimit },
        schema: {
          tags: ['billing'],
          body: guestStatementRequestSchema,
          response: { 200: guestStatementSchema, ...errors },
        },
      },
      (request) => lookupGuestStatement(deps.db, requestContext(request, deps), request.body),
    );
    api.post(
      '/api/guest/payments',
      {
        config: { permission: 'guest:pay', rateLimit },
        schema: {
          tags: ['billing'],
          body: guestPaymentRequestSchema,
          response: { 201: guestPaymentReceiptSchema, ...errors },
        },
      },
      async (request, reply) => {
        const receipt = await payAsGuest(deps.db, requestContext(request, deps), request.body);
        return reply.code(201).send(receipt);
      },
    );
  };
}
