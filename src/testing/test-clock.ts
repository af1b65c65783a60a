/** The day the test template is seeded for; test clocks start on it so seeded data sits around "today". */
export const TEST_TODAY = '2026-11-22';

export interface TestClock {
  (): Date;
  set(date: Date): void;
  advance(ms: number): void;
}

/** A clock tests move by hand: lockouts and session expiry are checked without waiting. */
export function testClock(start = new Date(`${TEST_TODAY}T15:00:00Z`)): TestClock {
  let current = start.getTime();
  const clock = (() => new Date(current)) as TestClock;
  clock.set = (date) => {
    current = date.getTime();
  };
  clock.advance = (ms) => {
    current += ms;
  };
  return clock;
}
