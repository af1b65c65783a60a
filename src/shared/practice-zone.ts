/**
 * The practice's time zone (an IANA name such as America/Los_Angeles). Every "today", due date, age and
 * day boundary is a calendar day in this zone, on the server and in the browser alike, so that a clinic
 * whose server runs in UTC (or whose staff work from another zone) still turns the day over at its own
 * midnight. Until the practice has chosen one, it is the server's own zone.
 */

/** The zone this process runs in (the server's, or the browser's before the session says otherwise). */
export function processTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

let practiceTimeZone = processTimeZone();

export function currentPracticeTimeZone(): string {
  return practiceTimeZone;
}

export function setPracticeTimeZone(zone: string): void {
  if (isTimeZone(zone)) practiceTimeZone = zone;
}

/**
 * How far the server's clock is ahead of this process's, in milliseconds. The browser sets it from the
 * session answer, so that its "today" and "now" are the server's even when the computer's own clock is
 * wrong (or a test server runs at another moment); the server itself reads its injected clock and leaves it 0.
 */
let serverClockOffsetMs = 0;

export function setServerTime(serverTime: string, receivedAt: number = Date.now()): void {
  const at = Date.parse(serverTime);
  if (!Number.isNaN(at)) serverClockOffsetMs = at - receivedAt;
}

/**
 * The server's own clock, once the server has registered it (registerPracticeClock): what fills in a row's
 * creation time when a write leaves it out, so that no time is ever the database's own now() or this
 * machine's clock while the app runs on another (a test server started at a chosen moment).
 */
let registeredClock: (() => Date) | null = null;

/** The server registers its clock (src/server/app-clock.ts) at start; the browser never does. */
export function registerPracticeClock(clock: () => Date): void {
  registeredClock = clock;
}

/** The practice's "now": the server's registered clock, or this process's corrected by the server's (setServerTime). */
export function practiceNow(): Date {
  return registeredClock ? registeredClock() : new Date(Date.now() + serverClockOffsetMs);
}

/** An IANA zone name this runtime knows. */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Every zone name this runtime knows, for the Settings picker. */
export function knownTimeZones(): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

// Building a formatter is costly and "today" is asked on every request: one per zone.
const dayFormatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(instant: Date, zone: string) {
  let formatter = dayFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    dayFormatters.set(zone, formatter);
  }
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return parts as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
}

/**
 * The last day computed, by zone and whole second: every zone's offset is a whole number of seconds, so all
 * instants of one second fall on one day. The server asks "today" on every request (the answer cache's key),
 * and formatToParts cost ~4% of its CPU under the claims-list load; at thousands of requests a second
 * nearly all of them now reuse the answer.
 */
let lastDay: { zone: string; second: number; day: string } | null = null;

/** The calendar day (YYYY-MM-DD) that `instant` falls on in `zone`. */
export function dayInZone(instant: Date, zone: string = practiceTimeZone): string {
  const second = Math.floor(instant.getTime() / 1000);
  if (lastDay !== null && lastDay.second === second && lastDay.zone === zone) return lastDay.day;
  const p = partsIn(instant, zone);
  const day = `${String(p.year).padStart(4, '0')}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
  if (Number.isFinite(second)) lastDay = { zone, second, day };
  return day;
}

/** How far `zone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: Date, zone: string): number {
  const p = partsIn(instant, zone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant a calendar day (YYYY-MM-DD) begins in `zone`: its local midnight. */
export function startOfDayInZone(day: string, zone: string = practiceTimeZone): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const wallMidnight = Date.UTC(y, m - 1, d);
  // The offset at midnight itself can differ from the one a few hours off (a DST change that day): settle it.
  let guess = wallMidnight - offsetAt(new Date(wallMidnight), zone);
  guess = wallMidnight - offsetAt(new Date(guess), zone);
  return new Date(guess);
}

/** The wall-clock time (HH:mm, 24-hour, for comparing with slot times) of `instant` in `zone`. */
export function timeInZone(instant: Date, zone: string = practiceTimeZone): string {
  const p = partsIn(instant, zone);
  return `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
}
