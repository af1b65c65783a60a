import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { HttpError } from '@/server/plugins/errors';
import { requestContext } from '@/server/request-context';
import { passwordChangeResponseSchema, passwordChangeSchema } from '@/features/auth/auth.schema';
import {
  createdUserSchema,
  managedUserSchema,
  newUserSchema,
  patientLinkSchema,
  userListSchema,
  userPatchSchema,
} from '../users.schema';
import {
  changeOwnPassword,
  createUser,
  linkPatientAccount,
  listUsers,
  resetUserMfa,
  updateUser,
} from './users.queries';

export function usersRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const errors = {
      400: errorEnvelopeSchema,
      403: errorEnvelopeSchema,
      404: errorEnvelopeSchema,
      409: errorEnvelopeSchema,
    };

    api.get(
      '/api/users',
      { config: { permission: 'users:manage' }, schema: { tags: ['users'], response: { 200: userListSchema } } },
      async () => ({ items: await listUsers(deps.db) }),
    );
    api.post(
      '/api/users',
      {
        config: { permission: 'users:manage' },
        schema: {
          tags: ['users'],
          description: 'Creates a staff or guest account; the temporary password is in this answer only.',
          body: newUserSchema,
          response: { 201: createdUserSchema, ...errors },
        },
      },
      async (request, reply) => {
        const created = await createUser(deps.db, requestContext(request, deps), request.body);
        return reply.code(201).send(created);
      },
    );
    api.patch(
      '/api/users/:id',
      {
        config: { permission: 'users:manage' },
        schema: {
          tags: ['users'],
          description: "Changes a user's role or status; their sessions end. The last active admin stays.",
          params: idParamsSchema,
          body: userPatchSchema,
          response: { 200: managedUserSchema, ...errors },
        },
      },
      (request) => updateUser(deps.db, requestContext(request, deps), request.params.id, request.body),
    );
    api.post(
      '/api/users/:id/mfa-reset',
      {
        config: { permission: 'users:manage' },
        schema: {
          tags: ['users'],
          description:
            "Clears a user's authenticator and recovery codes (lost phone); their sessions end and they enrol again at next sign-in.",
          params: idParamsSchema,
          response: { 200: managedUserSchema, ...errors },
        },
      },
      (request) => resetUserMfa(deps.db, requestContext(request, deps), request.params.id),
    );
    api.put(
      '/api/users/:id/patient-link',
      {
        config: { permission: 'users:link_patient' },
        schema: {
          tags: ['users'],
          description:
            "Links a patient account to the patient record with this MRN (one without an account); the account's sessions end.",
          params: idParamsSchema,
          body: patientLinkSchema,
          response: { 200: managedUserSchema, ...errors },
        },
      },
      (request) => linkPatientAccount(deps.db, requestContext(request, deps), request.params.id, request.body),
    );

    api.post(
      '/api/account/password',
      {
        // Guessing the current password through this form is throttled like sign-in.
        config: {
          permission: 'account:password',
          passwordChange: true,
          rateLimit: { max: deps.config.loginRateLimitPerMinute, timeWindow: '1 minute' },
        },
        schema: {
          tags: ['users'],
          description: "Changes the caller's password; the caller's other sessions end.",
          body: passwordChangeSchema,
          response: { 200: passwordChangeResponseSchema, ...errors },
        },
      },
      (request) => {
        const sessionIdHash = request.auth?.sessionIdHash;
        if (!sessionIdHash) throw new HttpError(401, 'UNAUTHENTICATED', 'Please sign in.');
        return changeOwnPassword(deps.db, requestContext(request, deps), sessionIdHash, request.body);
      },
    );
  };
}
