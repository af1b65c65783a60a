import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatTime12 } from './dates';

describe('dates people read', () => {
  it('writes a calendar day as "Jan 18, 2027" and leaves a masked or empty value as it came', () => {
    expect(formatDate('2027-01-18')).toBe('Jan 18, 2027');
    expect(formatDate('2026-12-02')).toBe('Dec 2, 2026');
    expect(formatDate('XX-XX-1984')).toBe('XX-XX-1984');
    expect(formatDate('')).toBe('');
  });

  it('writes times in 12-hour form, from midnight to the last minute of the day', () => {
    expect(['00:05', '09:30', '11:30', '12:00', '13:30', '16:30', '23:59', '08:00:00'].map(formatTime12)).toEqual([
      '12:05 AM',
      '9:30 AM',
      '11:30 AM',
      '12:00 PM',
      '1:30 PM',
      '4:30 PM',
      '11:59 PM',
      '8:00 AM',
    ]);
    expect(formatTime12('not a time')).toBe('not a time');
  });

  it('joins a day and a time', () => {
    expect(formatDateTime('2027-01-18', '11:30')).toBe('Jan 18, 2027 at 11:30 AM');
  });
});
