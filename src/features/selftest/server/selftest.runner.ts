import type { RunTestsResponse, TestOutcome } from '../selftest.schema';

/** One check of the self-test: it passes when `run` resolves and fails with the message it throws. */
export interface SelfCheck {
  testId: string;
  module: string;
  description: string;
  run(): Promise<void>;
}

/** Fails a check with a message saying what was found (assertions of the self-test, not of a test framework). */
export function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** Collects every mismatch of a table of cases, so one failure message names all of them (at most 5). */
export function mismatches(problems: string[]): void {
  if (problems.length === 0) return;
  const shown = problems.slice(0, 5).join('; ');
  throw new Error(problems.length > 5 ? `${shown}; and ${problems.length - 5} more` : shown);
}

/** Runs the checks one after another (they share the database) and answers in the shape the /compliance runners show. */
export async function runChecks(checks: readonly SelfCheck[]): Promise<RunTestsResponse> {
  const tests: TestOutcome[] = [];
  for (const check of checks) {
    const started = performance.now();
    let message: string | undefined;
    try {
      await check.run();
    } catch (err) {
      message = err instanceof Error ? err.message : String(err);
    }
    tests.push({
      testId: check.testId,
      module: check.module,
      description: check.description,
      status: message === undefined ? 'PASS' : 'FAIL',
      ...(message === undefined ? {} : { message: message.slice(0, 500) }),
      durationMs: Math.round(performance.now() - started),
    });
  }
  const passed = tests.filter((t) => t.status === 'PASS').length;
  return {
    success: passed === tests.length,
    summary: { total: tests.length, passed, failed: tests.length - passed },
    tests,
    error: null,
  };
}
