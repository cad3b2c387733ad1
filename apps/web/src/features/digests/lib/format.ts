import { type DigestVisibility, type LastRun, type ScheduleType, WEEK_DAYS } from '@digest/contracts';

/** Display helpers for digests (docs/product.md §2 cards, §9 constants). Counts use `formatCount` of the contracts. */
export { formatCount } from '@digest/contracts';

const SCHEDULE_LABELS: Record<ScheduleType, string> = {
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
};

export function scheduleTypeLabel(type: ScheduleType): string {
  return SCHEDULE_LABELS[type];
}

/** `HH:mm` (24-hour, stored) → `7:05 am` (docs/product.md §9: shown in 12-hour with am/pm). */
export function formatTime12(time: string): string {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time);
  if (!match) return time;
  const hours = Number(match[1]);
  const minutes = match[2];
  const suffix = hours < 12 ? 'am' : 'pm';
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour12}:${minutes} ${suffix}`;
}

/** 1 → 1st, 2 → 2nd, 11 → 11th, 22 → 22nd (docs/product.md §9 month days 1st to 31st). */
export function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  switch (day % 10) {
    case 1:
      return `${day}st`;
    case 2:
      return `${day}nd`;
    case 3:
      return `${day}rd`;
    default:
      return `${day}th`;
  }
}

export function weekdayName(index: number): string {
  return WEEK_DAYS[index] ?? WEEK_DAYS[0];
}

export interface Schedule {
  scheduleType: ScheduleType;
  time: string;
  weekDay: number;
  monthDay: number;
}

/** The day part of a schedule: the weekday for weekly, the month day for monthly, nothing for daily. */
export function scheduleDay(schedule: Schedule): string | null {
  if (schedule.scheduleType === 'weekly') return weekdayName(schedule.weekDay);
  if (schedule.scheduleType === 'monthly') return `${ordinal(schedule.monthDay)} of the month`;
  return null;
}

/** 'Daily at 7:00 am', 'Weekly on Monday at 7:00 am', 'Monthly on the 1st at 7:00 am'. */
export function scheduleLine(schedule: Schedule): string {
  const time = formatTime12(schedule.time);
  if (schedule.scheduleType === 'weekly') return `Weekly on ${weekdayName(schedule.weekDay)} at ${time}`;
  if (schedule.scheduleType === 'monthly') return `Monthly on the ${ordinal(schedule.monthDay)} at ${time}`;
  return `Daily at ${time}`;
}

/** The Digests page and Digest detail text of a paused digest, which has no next issue. */
export const PAUSED_TEXT = 'Paused';

/** 'Tue, Nov 24': an instant's day on a zone's calendar. */
export function wallDay(at: Date, timeZone: string, locale?: string): string {
  return at.toLocaleDateString(locale, { timeZone, weekday: 'short', month: 'short', day: 'numeric' });
}

/** '7:00 am': an instant on a zone's clock, written like the schedule line. */
export function wallClockTime(at: Date, timeZone: string): string {
  const wallClock = at.toLocaleTimeString('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return formatTime12(wallClock);
}

/** 'Tue, Nov 24, 7:00 am': an instant on a zone's wall clock (the owner's, where the schedule runs). */
export function wallTime(iso: string | Date, timeZone: string, locale?: string): string {
  const at = new Date(iso);
  return `${wallDay(at, timeZone, locale)}, ${wallClockTime(at, timeZone)}`;
}

export interface NextIssueOptions {
  /** The viewer's zone; the owner's zone is named only when it differs. Defaults to the browser's. */
  browserTimeZone?: string;
  /** Defaults to the browser's locale. */
  locale?: string;
}

/**
 * When the next issue goes out, in the owner's zone, where the schedule runs: 'Next issue Tue, Nov 24,
 * 7:00 am', plus '(Europe/London)' when the viewer is elsewhere — the wall time is then the owner's, not
 * theirs. 'Paused' when there is no next issue.
 */
export function nextIssueText(
  nextRunAt: string | null,
  timeZone: string,
  { browserTimeZone = Intl.DateTimeFormat().resolvedOptions().timeZone, locale }: NextIssueOptions = {},
): string {
  if (nextRunAt === null) return PAUSED_TEXT;
  const when = wallTime(nextRunAt, timeZone, locale);
  return timeZone === browserTimeZone ? `Next issue ${when}` : `Next issue ${when} (${timeZone})`;
}

/**
 * Why the latest scheduled issue did not go out ('The issue of Sun, Nov 22, 7:00 am was not sent: …'),
 * or null when it did (or is being built). Owners otherwise only notice that nothing arrived.
 */
export function missedIssueText(lastRun: LastRun | null, timeZone: string, locale?: string): string | null {
  if (!lastRun || lastRun.status === 'built' || lastRun.status === 'queued') return null;
  const reason = lastRun.reason ?? 'it could not be built.';
  return `The issue of ${wallTime(lastRun.slot, timeZone, locale)} was not sent: ${reason}`;
}

/** The owner's mark of a digest (docs/design.md §10): 'Public' while its public link is on, else 'Private'. */
export function visibilityLabel(visibility: DigestVisibility): string {
  return visibility === 'public' ? 'Public' : 'Private';
}
