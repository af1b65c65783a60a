import { describe, expect, it } from 'vitest';
import { appClockFromEnv } from './app-clock';

describe('the app clock', () => {
  it('is the real time without TEST_CLOCK_START', () => {
    let real = 1_000_000;
    const clock = appClockFromEnv({}, () => real);
    expect(clock().getTime()).toBe(1_000_000);
    real += 5000;
    expect(clock().getTime()).toBe(1_005_000);
  });

  it('starts at TEST_CLOCK_START in a test server and runs at real speed', () => {
    let real = Date.parse('2030-01-05T23:50:00Z');
    const clock = appClockFromEnv({ NODE_ENV: 'test', TEST_CLOCK_START: '2026-11-24T10:00:00Z' }, () => real);
    expect(clock().toISOString()).toBe('2026-11-24T10:00:00.000Z');
    real += 90_000;
    expect(clock().toISOString()).toBe('2026-11-24T10:01:30.000Z');
  });

  it('refuses TEST_CLOCK_START outside NODE_ENV=test, and a value that is not a date and time', () => {
    expect(() => appClockFromEnv({ NODE_ENV: 'production', TEST_CLOCK_START: '2026-11-24T10:00:00Z' })).toThrow(
      'TEST_CLOCK_START is only for tests: it needs NODE_ENV=test',
    );
    expect(() => appClockFromEnv({ TEST_CLOCK_START: '2026-11-24T10:00:00Z' })).toThrow(/NODE_ENV=test/);
    for (const bad of ['tomorrow', '2026-11-24', '2026-13-45T10:00:00Z']) {
      expect(() => appClockFromEnv({ NODE_ENV: 'test', TEST_CLOCK_START: bad })).toThrow(
        'TEST_CLOCK_START must be an ISO 8601 date and time',
      );
    }
  });
});
