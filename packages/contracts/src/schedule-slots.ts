import { type Schedule, TIME_PATTERN } from './digests';
import { isIanaTimeZone } from './users';

/**
 * When a digest's issues go out (docs/design.md §6): the scheduler's next slot and the next sends the
 * schedule popup and the digest page list, one computation for both. A slot is the schedule's local `HH:mm`
 * on a matching day in the owner's IANA zone:
 * - a local time that does not exist that day (spring-forward gap) runs at the first instant after the gap;
 * - a local time that occurs twice (fall-back overlap) runs once, at its first occurrence;
 * - a monthly day 29–31 in a shorter month runs on that month's last day.
 *
 * Zone offsets come from Intl (what luxon's IANAZone reads too), so the web app computes the same slots live
 * without shipping a date library; the instants are resolved here from those offsets, since a date library
 * moves a gap time forward by the gap's length (02:30 → 03:30) and picks an overlap's occurrence from the
 * offset of *today*.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** A calendar day as a UTC midnight timestamp: calendar arithmetic without any zone in the way. */
type CalendarDay = number;

function calendarDay(year: number, month: number, day: number): CalendarDay {
  return Date.UTC(year, month, day);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** One formatter per zone: building an Intl.DateTimeFormat costs far more than using one. */
const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
  let format = wallClockFormats.get(timeZone);
  if (!format) {
    if (!isIanaTimeZone(timeZone)) {
      throw new RangeError(`Unknown time zone "${timeZone}": expected an IANA name such as Europe/London`);
    }
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClockFormats.set(timeZone, format);
  }
  return format;
}

/**
 * Minutes east of UTC of `timeZone` at `instant` (Europe/London in summer: 60). Throws a RangeError for a
 * zone that is not an IANA name this runtime knows.
 */
export function timeZoneOffset(timeZone: string, instant: number): number {
  const parts: Record<string, number> = {};
  for (const part of wallClockFormat(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
  // Some engines write midnight as 24 even in the h23 cycle.
  const wall = Date.UTC(year, month - 1, day, hour === 24 ? 0 : hour, minute, second);
  return Math.round((wall - Math.floor(instant / 1000) * 1000) / MINUTE_MS);
}

function minutesOfDay(time: string): number {
  if (!TIME_PATTERN.test(time)) throw new RangeError(`Schedule time "${time}" is not HH:mm`);
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
}

type Offset = (instant: number) => number;

function offsetsOf(timeZone: string): Offset {
  wallClockFormat(timeZone);
  return (instant) => timeZoneOffset(timeZone, instant);
}

/** The local calendar day of an instant in the zone. */
function localDay(offset: Offset, instant: number): CalendarDay {
  const local = new Date(instant + offset(instant) * MINUTE_MS);
  return calendarDay(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
}

/**
 * The first instant in (`from`, `to`] whose offset is not `from`'s: where the zone's clocks changed.
 * `to` must have another offset than `from`.
 */
function transitionBetween(offset: Offset, from: number, to: number): number {
  const before = offset(from);
  let stillBefore = from;
  let alreadyAfter = to;
  while (alreadyAfter - stillBefore > 1) {
    const middle = Math.floor((stillBefore + alreadyAfter) / 2);
    if (offset(middle) === before) stillBefore = middle;
    else alreadyAfter = middle;
  }
  return alreadyAfter;
}

/**
 * The instant of local wall time `wall` (a local date and time written as if it were UTC), and whether that
 * time did not exist (a gap swallowed it, so the instant is the gap's end). Zones change offset at most once in
 * two days, so the offsets a day before and after are the only candidates.
 */
function instantOfWallTime(offset: Offset, wall: number): { instant: number; skipped: boolean } {
  const offsetBefore = offset(wall - DAY_MS);
  const offsetAfter = offset(wall + DAY_MS);
  const occurrences = [offsetBefore, offsetAfter]
    .map((minutes) => wall - minutes * MINUTE_MS)
    .filter((instant) => wall - offset(instant) * MINUTE_MS === instant);
  if (occurrences.length > 0) return { instant: Math.min(...occurrences), skipped: false };
  // The gap lies between `wall` read with the new offset and `wall` read with the old one.
  const instant = transitionBetween(offset, wall - offsetAfter * MINUTE_MS, wall - offsetBefore * MINUTE_MS);
  return { instant, skipped: true };
}

/** The day a monthly schedule runs in a month: its day, or the month's last day when the month is shorter. */
function monthlyRunDay(monthDay: number, year: number, month: number): number {
  return Math.min(monthDay, daysInMonth(year, month));
}

/** The days a schedule runs on, from the month or day of `from` onwards, in order, without end. */
function* runDays(schedule: Schedule, from: CalendarDay): Generator<CalendarDay, never> {
  const start = new Date(from);
  if (schedule.scheduleType === 'monthly') {
    // Date.UTC carries month 12 into January of the next year, so the month index can simply grow.
    const year = start.getUTCFullYear();
    for (let month = start.getUTCMonth(); ; month += 1) {
      yield calendarDay(year, month, monthlyRunDay(schedule.monthDay, year, month));
    }
  }
  if (schedule.scheduleType === 'weekly') {
    const daysToWeekDay = (schedule.weekDay - start.getUTCDay() + 7) % 7;
    for (let day = from + daysToWeekDay * DAY_MS; ; day += 7 * DAY_MS) yield day;
  }
  for (let day = from; ; day += DAY_MS) yield day;
}

interface Slot {
  instant: number;
  /** The local day it runs on. */
  day: CalendarDay;
  skipped: boolean;
}

function firstSlotAfter(schedule: Schedule, offset: Offset, after: number): Slot {
  const time = minutesOfDay(schedule.time) * MINUTE_MS;
  // From the day before: a slot of the previous local day can still be ahead of `after` around an overlap.
  const days = runDays(schedule, localDay(offset, after) - DAY_MS);
  for (;;) {
    const day = days.next().value;
    const { instant, skipped } = instantOfWallTime(offset, day + time);
    if (instant > after) return { instant, day, skipped };
  }
}

/**
 * The first slot of `schedule` in `timeZone` strictly after `after`. Throws a RangeError for a zone
 * that is not an IANA name this runtime knows.
 */
export function nextRunAfter(schedule: Schedule, timeZone: string, after: Date): Date {
  return new Date(firstSlotAfter(schedule, offsetsOf(timeZone), after.getTime()).instant);
}

/** A change of the zone's clocks (daylight saving time starting or ending, or the zone's rules changing). */
export interface ClockChange {
  /** The first instant of the new offset. */
  at: Date;
  /** 'forward' when the offset grew (spring), 'back' when it shrank (autumn). */
  direction: 'forward' | 'back';
  /** How far the clocks moved: 60, or 30 on Lord Howe Island. */
  minutes: number;
}

export interface NextSend {
  at: Date;
  /** The zone's clock changes after the previous send (or the start) and up to this send, in order. */
  clockChanges: ClockChange[];
  /** The schedule's time did not exist that day (clocks went forward over it): `at` is the gap's end. */
  timeSkipped: boolean;
  /** For a monthly day 29–31 in a shorter month: the day of month it runs on instead (its last day). */
  lastDayOfMonth: number | null;
}

/** The zones that change their clocks change them at most once a day: one look per day finds each change. */
function clockChangesBetween(offset: Offset, from: number, to: number): ClockChange[] {
  const changes: ClockChange[] = [];
  let start = from;
  while (start < to) {
    const end = Math.min(start + DAY_MS, to);
    const before = offset(start);
    const after = offset(end);
    if (before !== after) {
      const at = transitionBetween(offset, start, end);
      const moved = offset(at) - before;
      changes.push({ at: new Date(at), direction: moved > 0 ? 'forward' : 'back', minutes: Math.abs(moved) });
    }
    start = end;
  }
  return changes;
}

/**
 * The next `count` sends of `schedule` in `timeZone` after `after`: the scheduler's slots one after another
 * (each the first slot after the one before), with what an owner should know about each: a clock change on
 * the way, a time that did not exist that day, a month too short for the chosen day. Throws a RangeError for
 * an unknown zone.
 */
export function nextSends(schedule: Schedule, timeZone: string, after: Date, count = 5): NextSend[] {
  const offset = offsetsOf(timeZone);
  const sends: NextSend[] = [];
  let previous = after.getTime();
  while (sends.length < count) {
    const slot = firstSlotAfter(schedule, offset, previous);
    const day = new Date(slot.day);
    sends.push({
      at: new Date(slot.instant),
      clockChanges: clockChangesBetween(offset, previous, slot.instant),
      timeSkipped: slot.skipped,
      lastDayOfMonth:
        schedule.scheduleType === 'monthly' && day.getUTCDate() < schedule.monthDay ? day.getUTCDate() : null,
    });
    previous = slot.instant;
  }
  return sends;
}

/** A month in which a monthly schedule runs on the month's last day: `month` 0–11, `day` its last day. */
export interface ShortMonth {
  year: number;
  month: number;
  day: number;
}

/**
 * The months among the `months` starting with `first`'s (its month in `timeZone`) that are too short for a
 * monthly `monthDay`, so its issue comes on their last day. Empty for days 1–28.
 */
export function monthsOnLastDay(monthDay: number, timeZone: string, first: Date, months = 12): ShortMonth[] {
  const start = new Date(localDay(offsetsOf(timeZone), first.getTime()));
  const short: ShortMonth[] = [];
  for (let index = 0; index < months; index += 1) {
    const month = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + index, 1));
    const day = monthlyRunDay(monthDay, month.getUTCFullYear(), month.getUTCMonth());
    if (day < monthDay) short.push({ year: month.getUTCFullYear(), month: month.getUTCMonth(), day });
  }
  return short;
}
