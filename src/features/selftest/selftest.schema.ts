import { z } from 'zod';

/**
 * The admin test runners (`POST /api/run-tests`): real in-process checks of the running system, never
 * canned results. Shared by the server (selftest feature) and the
 * /compliance screen that shows the results.
 */
export const TEST_TYPES = ['unit', 'integration'] as const;
export const testTypeSchema = z.enum(TEST_TYPES);
export type TestType = z.infer<typeof testTypeSchema>;

export const runTestsRequestSchema = z.object({ testType: testTypeSchema });

export const testOutcomeSchema = z.object({
  testId: z.string(),
  module: z.string(),
  description: z.string(),
  /** 'PASS' or 'FAIL'. */
  status: z.enum(['PASS', 'FAIL']),
  /** Why a check failed (absent when it passed). */
  message: z.string().optional(),
  durationMs: z.number().int().nonnegative(),
});
export type TestOutcome = z.infer<typeof testOutcomeSchema>;

export const runTestsResponseSchema = z.object({
  success: z.boolean(),
  summary: z.object({ total: z.number().int(), passed: z.number().int(), failed: z.number().int() }),
  tests: z.array(testOutcomeSchema),
  /** Set when the runner itself could not run (not when a check failed). */
  error: z.string().nullable(),
});
export type RunTestsResponse = z.infer<typeof runTestsResponseSchema>;
