import { isIanaTimeZone, type Schedule, TIME_PATTERN } from '@digest/contracts';
import { IANAZone } from 'luxon';

/**
 * When a digest's next issue goes out (docs/design.md §6). A slot is the schedule's local `HH:mm` on a matching
 * day in the owner's IANA zone:
 * - a local time that does not exist that day (spring-forward gap) runs at the first instant after the gap;
 * - a local time that occurs twice (fall-back overlap) runs once, at its first occurrence;
 * - a monthly day 29–31 in a shorter month runs on that month's last day.
 *
 * luxon alone is not enough: it moves a gap time forward by the gap's length (02:30 → 03:30) and picks
 * an overlap's occurrence from the offset of *today*, so the instants are resolved here from the zone's
 * offsets.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The same check as the profile's time zone field, so a zone a user could save is one we can schedule. */
export const isValidTimeZone = isIanaTimeZone;

/** The singleton key of a slot's build job: one build per digest and slot, however many schedulers run. */
export function slotKey(digestId: string, slot: Date): string {
  return `${digestId}:${slot.toISOString()}`;
}

/** A calendar day as a UTC midnight timestamp: calendar arithmetic without any zone in the way. */
type CalendarDay = number;

function calendarDay(year: number, month: number, day: number): CalendarDay {
  return Date.UTC(year, month, day);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

function zoneOf(timeZone: string): IANAZone {
  if (!isValidTimeZone(timeZone)) {
    throw new RangeError(`Unknown time zone "${timeZone}": expected an IANA name such as Europe/London`);
  }
  return IANAZone.create(timeZone);
}

function minutesOfDay(time: string): number {
  if (!TIME_PATTERN.test(time)) throw new RangeError(`Schedule time "${time}" is not HH:mm`);
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
}

/** The local calendar day of an instant in the zone. */
function localDay(zone: IANAZone, instant: number): CalendarDay {
  const local = new Date(instant + zone.offset(instant) * MINUTE_MS);
  return calendarDay(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
}

/**
 * The first instant after a spring-forward gap that swallows local wall time `wall`: the transition
 * itself. It lies after `wall` read with the new offset and at or before `wall` read with the old one.
 */
function endOfGap(zone: IANAZone, wall: number, offsetBefore: number, offsetAfter: number): number {
  let stillBefore = wall - offsetAfter * MINUTE_MS;
  let alreadyAfter = wall - offsetBefore * MINUTE_MS;
  while (alreadyAfter - stillBefore > 1) {
    const middle = Math.floor((stillBefore + alreadyAfter) / 2);
    if (zone.offset(middle) === offsetBefore) stillBefore = middle;
    else alreadyAfter = middle;
  }
  return alreadyAfter;
}

/**
 * The instant of local wall time `wall` (a local date and time written as if it were UTC). Zones change
 * offset at most once in two days, so the offsets a day before and after are the only candidates.
 */
function instantOfWallTime(zone: IANAZone, wall: number): number {
  const offsetBefore = zone.offset(wall - DAY_MS);
  const offsetAfter = zone.offset(wall + DAY_MS);
  const occurrences = [offsetBefore, offsetAfter]
    .map((offset) => wall - offset * MINUTE_MS)
    .filter((instant) => wall - zone.offset(instant) * MINUTE_MS === instant);
  if (occurrences.length > 0) return Math.min(...occurrences);
  return endOfGap(zone, wall, offsetBefore, offsetAfter);
}

/** The days a schedule runs on, from the month or day of `from` onwards, in order, without end. */
function* runDays(schedule: Schedule, from: CalendarDay): Generator<CalendarDay, never> {
  const start = new Date(from);
  if (schedule.scheduleType === 'monthly') {
    // Date.UTC carries month 12 into January of the next year, so the month index can simply grow.
    const year = start.getUTCFullYear();
    for (let month = start.getUTCMonth(); ; month += 1) {
      yield calendarDay(year, month, Math.min(schedule.monthDay, daysInMonth(year, month)));
    }
  }
  if (schedule.scheduleType === 'weekly') {
    const daysToWeekDay = (schedule.weekDay - start.getUTCDay() + 7) % 7;
    for (let day = from + daysToWeekDay * DAY_MS; ; day += 7 * DAY_MS) yield day;
  }
  for (let day = from; ; day += DAY_MS) yield day;
}

/**
 * The first slot of `schedule` in `timeZone` strictly after `after`. Throws a RangeError for a zone
 * that is not an IANA name this runtime knows.
 */
export function nextRunAfter(schedule: Schedule, timeZone: string, after: Date): Date {
  const zone = zoneOf(timeZone);
  const time = minutesOfDay(schedule.time) * MINUTE_MS;
  // From the day before: a slot of the previous local day can still be ahead of `after` around an overlap.
  const days = runDays(schedule, localDay(zone, after.getTime()) - DAY_MS);
  for (;;) {
    const slot = instantOfWallTime(zone, days.next().value + time);
    if (slot > after.getTime()) return new Date(slot);
  }
}
