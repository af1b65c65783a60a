import { clientOf } from '@/server/request-client';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { registrationResponseSchema, registrationSchema } from '@/features/auth/auth.schema';
import { registerPatientAccount } from './users.registration.queries';

export function registrationRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    app.withTypeProvider<ZodTypeProvider>().post(
      '/api/auth/register',
      {
        // Open to anyone (the guest landing), rate-limited like sign-in against scripted sign-ups.
        config: {
          permission: 'public',
          rateLimit: { max: deps.config.loginRateLimitPerMinute, timeWindow: '1 minute' },
        },
        schema: {
          tags: ['auth'],
          body: registrationSchema,
          response: { 201: registrationResponseSchema, 400: errorEnvelopeSchema, 409: errorEnvelopeSchema },
        },
      },
      async (request, reply) => {
        const created = await registerPatientAccount(
          deps.db,
          request.body,
          deps.clock(),
          request.auth?.user ?? null,
          clientOf(request),
        );
        return reply.code(201).send({ email: created.email });
      },
    );
  };
}
