import type { PortalAppointment } from './portal.schema';

/**
 * The visits a patient comes to the portal for first: those still ahead on the practice's `day` (a visit
 * today until it is completed or missed), soonest first; then the past ones, most recent first. In date order
 * alone, a patient with a year of visits scrolled past all of them to find the next one.
 */
export function splitVisits(
  visits: readonly PortalAppointment[],
  day: string,
): { upcoming: PortalAppointment[]; past: PortalAppointment[] } {
  const ahead = (v: PortalAppointment) => v.date > day || (v.date === day && v.status === 'Scheduled');
  const byTime = (a: PortalAppointment, b: PortalAppointment) =>
    a.date.localeCompare(b.date) || a.time.localeCompare(b.time) || a.id - b.id;
  return {
    upcoming: visits.filter(ahead).sort(byTime),
    past: visits.filter((v) => !ahead(v)).sort((a, b) => byTime(b, a)),
  };
}
