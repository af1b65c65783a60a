import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { can } from '@/shared/access';
import { errorEnvelopeSchema } from '@/shared/api';
import { actorOf, recordNow } from '@/features/audit/server/audit.queries';
import type { AppDeps } from '@/server/context';
import { HttpError } from '@/server/plugins/errors';
import { requestContext } from '@/server/request-context';
import { REQUIREMENTS } from '../rtm.requirements';
import { reqIdParamsSchema, requirementListSchema, verificationSchema, type Verification } from '../rtm.schema';
import { EXTRA_PERMISSION, VERIFIERS, type Measured } from './rtm.verify';

/**
 * The requirements traceability matrix. The list is fixed; each requirement is verified on its own call so the
 * screen can show them complete one after another. Every verification is audited ('rtm.verify', with
 * the measured result): the server records what it found, not what a client reports.
 */
export function rtmRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/api/rtm/requirements',
      {
        config: { permission: 'rtm:run' },
        schema: { tags: ['rtm'], response: { 200: requirementListSchema } },
      },
      () => [...REQUIREMENTS],
    );
    api.post(
      '/api/rtm/verify/:reqId',
      {
        config: { permission: 'rtm:run' },
        schema: {
          tags: ['rtm'],
          description: 'Verifies one requirement against the live system, read-only (writes are rolled back).',
          params: reqIdParamsSchema,
          response: {
            200: verificationSchema,
            400: errorEnvelopeSchema,
            403: errorEnvelopeSchema,
            404: errorEnvelopeSchema,
          },
        },
      },
      async (request): Promise<Verification> => {
        const ctx = requestContext(request, deps);
        const requirement = REQUIREMENTS.find((r) => r.reqId === request.params.reqId);
        if (!requirement) throw new HttpError(404, 'NOT_FOUND', `No requirement ${request.params.reqId}.`);
        const extra = EXTRA_PERMISSION[requirement.reqId];
        if (extra && !can(ctx.user.role, extra)) {
          // Refused and audited as the access gate refuses a route the role may not call.
          await recordNow(deps.db, {
            ...actorOf(ctx),
            action: 'access.denied',
            resource: `POST /api/rtm/verify/${requirement.reqId}`,
            detail: 'FORBIDDEN',
            at: deps.clock(),
          });
          throw new HttpError(403, 'FORBIDDEN', 'You do not have permission to do this.');
        }
        let measured: Measured;
        try {
          measured = await VERIFIERS[requirement.reqId]({ app, deps, ctx });
        } catch (err) {
          request.log.error({ err, reqId: requirement.reqId }, 'a traceability verification failed to run');
          const message = err instanceof Error ? err.message : String(err);
          measured = {
            passed: false,
            result: 'ERROR',
            detail: `The verification could not run: ${message.slice(0, 300)}`,
          };
        }
        await recordNow(deps.db, {
          ...actorOf(ctx),
          action: 'rtm.verify',
          resource: `rtm/${requirement.reqId}`,
          detail: `${requirement.testId} ${measured.passed ? 'passed' : 'FAILED'} (${measured.result})`,
          at: deps.clock(),
        });
        return { reqId: requirement.reqId, testId: requirement.testId, ...measured };
      },
    );
  };
}
