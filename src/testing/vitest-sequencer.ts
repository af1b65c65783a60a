import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (each a minute or more on a busy two-core runner, against seconds for the
 * rest): started first, so the others fill the workers around them instead of one of them running on
 * alone at the end. Vitest orders by the durations it cached, but a fresh clone (CI) has no cache.
 */
const SLOWEST_FIRST = [
  'src/server/crash.test.ts',
  'src/testing/field-masking.property.test.ts',
  'src/server/hostile-input.test.ts',
  'src/features/analytics/server/analytics.rollup.test.ts',
  'src/features/worklist/server/worklist.open-follow-ups.test.ts',
  'src/features/portal/server/portal.cross-patient.test.ts',
];

function rank(spec: TestSpecification): number {
  const index = SLOWEST_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
  return index === -1 ? SLOWEST_FIRST.length : index;
}

/**
 * Vitest's order with the slowest files first. `TEST_ORDER=reverse` runs the files in the opposite order,
 * to show that no file depends on another having run before it.
 */
export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
    return process.env.TEST_ORDER === 'reverse' ? sorted.reverse() : sorted;
  }
}
