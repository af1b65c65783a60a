import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '@/shared/api';
import { actorOf, recordNow } from '@/features/audit/server/audit.queries';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import {
  runTestsRequestSchema,
  runTestsResponseSchema,
  type RunTestsResponse,
  type TestType,
} from '../selftest.schema';
import { integrationChecks } from './selftest.integration';
import { runChecks } from './selftest.runner';
import { unitChecks } from './selftest.unit';

/**
 * `POST /api/run-tests` (admin): runs the real in-process unit or integration checks and answers
 * their real results. A failing check is a result (success false, error null). When the runner itself
 * cannot run (it throws outside a check), the answer is still 200 in the same shape with `error` set and
 * no tests, so the /compliance screen can show 'Error running tests'; the run is audited either way.
 */
export function selftestRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    app.withTypeProvider<ZodTypeProvider>().post(
      '/api/run-tests',
      {
        config: { permission: 'system:admin' },
        schema: {
          tags: ['system'],
          description: 'Runs the unit or integration self-test against the running system (admin).',
          body: runTestsRequestSchema,
          response: { 200: runTestsResponseSchema, 400: errorEnvelopeSchema },
        },
      },
      async (request) => {
        const ctx = requestContext(request, deps);
        const { testType } = request.body;
        let result: RunTestsResponse;
        try {
          const checks = testType === 'unit' ? unitChecks(deps.db) : integrationChecks(app, deps);
          result = await runChecks(checks);
        } catch (err) {
          request.log.error({ err }, 'the self-test runner failed');
          const message = err instanceof Error ? err.message : String(err);
          result = { success: false, summary: { total: 0, passed: 0, failed: 0 }, tests: [], error: message };
        }
        await recordNow(deps.db, {
          ...actorOf(ctx),
          action: 'selftest.run',
          resource: `selftest/${testType}`,
          detail: describeRun(testType, result),
          at: deps.clock(),
        });
        return result;
      },
    );
  };
}

function describeRun(testType: TestType, result: RunTestsResponse): string {
  if (result.error !== null) return `${testType} tests could not run: ${result.error.slice(0, 200)}`;
  const { total, passed, failed } = result.summary;
  const failedIds = result.tests.filter((t) => t.status !== 'PASS').map((t) => t.testId);
  return `${testType} tests: ${passed}/${total} passed, ${failed} failed${failedIds.length ? ` (${failedIds.join(', ')})` : ''}`;
}
