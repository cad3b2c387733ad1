import {
  type ClockChange,
  isIanaTimeZone,
  monthsOnLastDay,
  type NextSend,
  nextSends,
  type Schedule,
} from '@digest/contracts';
import { formatTime12, ordinal, wallClockTime, wallDay, wallTime } from './format';

/** How many sends the schedule popup and the digest page list. */
export const NEXT_SENDS_COUNT = 5;

export interface NextSendLine {
  /** The send's instant (ISO), unique in the list. */
  key: string;
  /** 'Sun, Nov 1, 7:00 am' in the owner's zone. */
  when: string;
  /** The same instant in the viewer's zone, when that is another zone; else null. */
  yourTime: string | null;
  /** What the owner should know about this send: clock changes, a skipped time, a short month. */
  notes: string[];
}

export interface NextSendsView {
  lines: NextSendLine[];
  /** For a monthly day 29–31: the days it falls back to in the 12 months from the first send; else null. */
  shortMonths: string | null;
}

export interface NextSendsOptions {
  now?: Date;
  /** The viewer's zone; defaults to the browser's. */
  viewerTimeZone?: string;
  locale?: string;
}

/** 'America/New_York' → 'New York': how a zone is named in a sentence ('7:00 am New York time'). */
export function placeOfZone(timeZone: string): string {
  return (timeZone.split('/').pop() ?? timeZone).replaceAll('_', ' ');
}

/** 'clocks go back', 'clocks go forward 30 minutes': an hour goes without saying. */
function clocksGo(change: ClockChange): string {
  return `clocks go ${change.direction}${change.minutes === 60 ? '' : ` ${change.minutes} minutes`}`;
}

/** 'A, B, C and D'. */
function listed(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function sendNotes(
  send: NextSend,
  schedule: Schedule,
  timeZone: string,
  sameZone: boolean,
  locale: string | undefined,
): string[] {
  const time = wallClockTime(send.at, timeZone);
  // "Your time" is the viewer's clock: the owner's zone is named when the viewer is elsewhere.
  const where = sameZone ? '' : ` in ${placeOfZone(timeZone)}`;
  const whose = sameZone ? 'your time' : `${placeOfZone(timeZone)} time`;
  const notes = send.clockChanges.map((change) => {
    const day = wallDay(change.at, timeZone, locale);
    if (send.timeSkipped && change.at.getTime() === send.at.getTime()) {
      return `${clocksGo(change)}${where} on ${day}: ${formatTime12(schedule.time)} does not exist that day, so this issue comes at ${time} ${whose}`;
    }
    return `${clocksGo(change)}${where} on ${day}: this issue still comes at ${time} ${whose}`;
  });
  if (send.lastDayOfMonth !== null) {
    const month = send.at.toLocaleDateString(locale, { timeZone, month: 'long' });
    notes.push(
      `${month} has ${send.lastDayOfMonth} days: this issue comes on the ${ordinal(send.lastDayOfMonth)}`,
    );
  }
  return notes;
}

/**
 * The next sends of `schedule` in the owner's `timeZone`, as the schedule popup and the digest page show
 * them: the scheduler's own slots (`nextSends` of @digest/contracts), written in the owner's zone and in the
 * viewer's when it differs, each with its notes. Null for a zone this browser does not know.
 */
export function nextSendsView(
  schedule: Schedule,
  timeZone: string,
  {
    now = new Date(),
    viewerTimeZone = Intl.DateTimeFormat().resolvedOptions().timeZone,
    locale,
  }: NextSendsOptions = {},
): NextSendsView | null {
  if (!isIanaTimeZone(timeZone)) return null;
  const sameZone = viewerTimeZone === timeZone || !isIanaTimeZone(viewerTimeZone);
  const sends = nextSends(schedule, timeZone, now, NEXT_SENDS_COUNT);
  const lines = sends.map((send) => ({
    key: send.at.toISOString(),
    when: wallTime(send.at, timeZone, locale),
    yourTime: sameZone ? null : wallTime(send.at, viewerTimeZone, locale),
    notes: sendNotes(send, schedule, timeZone, sameZone, locale),
  }));
  return { lines, shortMonths: shortMonthsText(schedule, timeZone, sends[0]?.at ?? now, locale) };
}

/** 'The 31st falls back to the month's last day on Apr 30, Jun 30, Sep 30, Nov 30 and Feb 28.' */
function shortMonthsText(schedule: Schedule, timeZone: string, first: Date, locale?: string): string | null {
  if (schedule.scheduleType !== 'monthly') return null;
  const months = monthsOnLastDay(schedule.monthDay, timeZone, first);
  if (months.length === 0) return null;
  const days = months.map(({ year, month, day }) =>
    new Date(Date.UTC(year, month, day)).toLocaleDateString(locale, {
      timeZone: 'UTC',
      month: 'short',
      day: 'numeric',
    }),
  );
  return `The ${ordinal(schedule.monthDay)} falls back to the month's last day on ${listed(days)}.`;
}
