import { describe, expect, it } from 'vitest';
import type { PortalAppointment } from './portal.schema';
import { splitVisits } from './portal.visits';

const visit = (id: number, date: string, time: string, status: PortalAppointment['status']): PortalAppointment => ({
  id,
  provider: 'Dr. Ana Gutierrez',
  reason: 'Follow-up',
  date,
  time,
  status,
});

describe('splitVisits', () => {
  it('puts what is ahead first, soonest at the top, and the past after it, newest first', () => {
    const visits = [
      visit(1, '2026-11-30', '09:00', 'Scheduled'),
      visit(2, '2026-03-04', '08:30', 'Completed'),
      visit(3, '2026-11-24', '15:30', 'Scheduled'),
      visit(4, '2026-11-24', '09:00', 'Completed'),
      visit(5, '2026-11-24', '08:00', 'No-Show'),
      visit(6, '2026-11-20', '10:00', 'Scheduled'),
      visit(7, '2026-11-30', '09:00', 'Scheduled'),
    ];
    const { upcoming, past } = splitVisits(visits, '2026-11-24');
    // Today's visit is ahead until it is done or missed; one never marked, on a past day, is past.
    expect(upcoming.map((v) => v.id)).toEqual([3, 1, 7]);
    expect(past.map((v) => v.id)).toEqual([4, 5, 6, 2]);
  });

  it('leaves either side empty when every visit is on the other', () => {
    expect(splitVisits([visit(1, '2026-01-02', '09:00', 'Completed')], '2026-11-24').upcoming).toEqual([]);
    expect(splitVisits([visit(1, '2027-01-02', '09:00', 'Scheduled')], '2026-11-24').past).toEqual([]);
    expect(splitVisits([], '2026-11-24')).toEqual({ upcoming: [], past: [] });
  });
});
