import { describe, expect, it } from 'vitest';
import { statusVariant } from './status-variant';

describe('status badge variants', () => {
  it('maps the named statuses, whatever their case', () => {
    expect(['Paid', 'Approved', 'Scheduled', 'Completed'].map(statusVariant)).toEqual(Array(4).fill('default'));
    // A Closed claim is paid, nothing left owed: the badge of Paid.
    expect(statusVariant('Closed')).toBe('default');
    expect(['Pending', 'review'].map(statusVariant)).toEqual(['secondary', 'secondary']);
    expect(['Denied', 'Cancelled', 'cancelled'].map(statusVariant)).toEqual(Array(3).fill('destructive'));
  });

  it('gives any other status the neutral outline', () => {
    expect(['No-Show', 'Rescheduled', 'Written Off'].map(statusVariant)).toEqual(Array(3).fill('outline'));
  });
});
