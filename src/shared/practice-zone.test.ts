import { afterEach, describe, expect, it } from 'vitest';
import { today } from './api';
import {
  dayInZone,
  isTimeZone,
  practiceNow,
  processTimeZone,
  setPracticeTimeZone,
  setServerTime,
  startOfDayInZone,
  timeInZone,
} from './practice-zone';

afterEach(() => {
  setPracticeTimeZone(processTimeZone());
  setServerTime(new Date().toISOString());
});

describe("the browser's now", () => {
  it("is the server's clock, whatever this computer's clock says", () => {
    // The session answered at this computer's 12:00 that it was 09:30 on the server: 2.5 hours behind.
    setServerTime('2026-11-24T09:30:00.000Z', Date.parse('2026-11-24T12:00:00.000Z'));
    const shown = practiceNow().getTime() - Date.now();
    expect(Math.abs(shown + 2.5 * 3600_000)).toBeLessThan(1000);
    setPracticeTimeZone('UTC');
    expect(today()).toBe(new Date(Date.now() - 2.5 * 3600_000).toISOString().slice(0, 10));
  });

  it('ignores a server time that is not a date', () => {
    setServerTime('2026-11-24T09:30:00.000Z', Date.parse('2026-11-24T09:30:00.000Z'));
    setServerTime('not a time');
    expect(Math.abs(practiceNow().getTime() - Date.now())).toBeLessThan(1000);
  });
});

describe('the practice time zone', () => {
  it("turns the day over at the practice's midnight, not the server's", () => {
    // 10:03 PM on Tuesday 24 November in Los Angeles is already Wednesday in UTC.
    const evening = new Date('2026-11-25T06:03:00Z');
    expect(dayInZone(evening, 'America/Los_Angeles')).toBe('2026-11-24');
    expect(dayInZone(evening, 'UTC')).toBe('2026-11-25');
    expect(timeInZone(evening, 'America/Los_Angeles')).toBe('22:03');
    setPracticeTimeZone('America/Los_Angeles');
    expect(today(evening)).toBe('2026-11-24');
    setPracticeTimeZone('Asia/Tokyo');
    expect(today(evening)).toBe('2026-11-25');
  });

  it('finds the instant a day begins, across daylight-saving changes', () => {
    expect(startOfDayInZone('2026-11-24', 'America/Los_Angeles').toISOString()).toBe('2026-11-24T08:00:00.000Z');
    expect(startOfDayInZone('2026-07-01', 'America/Los_Angeles').toISOString()).toBe('2026-07-01T07:00:00.000Z');
    // The day clocks go back (1 November 2026) and the day they go forward (8 March 2026) start at midnight PDT/PST.
    expect(startOfDayInZone('2026-11-01', 'America/Los_Angeles').toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(startOfDayInZone('2026-03-08', 'America/Los_Angeles').toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(startOfDayInZone('2026-11-24', 'Asia/Kolkata').toISOString()).toBe('2026-11-23T18:30:00.000Z');
    expect(startOfDayInZone('2026-11-24', 'UTC').toISOString()).toBe('2026-11-24T00:00:00.000Z');
  });

  it('knows real zone names and refuses others, keeping the zone it had', () => {
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    setPracticeTimeZone('America/Chicago');
    setPracticeTimeZone('Not/AZone');
    expect(dayInZone(new Date('2026-11-25T05:30:00Z'))).toBe('2026-11-24');
  });
});
