import { describe, expect, it } from 'vitest';
import { periodEndingToday, previousPeriod } from './period';

describe('periods', () => {
  it('ends today and counts both ends', () => {
    expect(periodEndingToday(new Date(2026, 10, 22, 15), 30)).toEqual({
      days: 30,
      start: '2026-10-24',
      end: '2026-11-22',
    });
    expect(periodEndingToday(new Date(2026, 10, 22, 15), 1)).toEqual({
      days: 1,
      start: '2026-11-22',
      end: '2026-11-22',
    });
  });

  it('gives the period of the same length just before, across a month end', () => {
    expect(previousPeriod({ days: 7, start: '2026-03-01', end: '2026-03-07' })).toEqual({
      days: 7,
      start: '2026-02-22',
      end: '2026-02-28',
    });
  });
});
