import type { ScheduleType } from './digests';
import type { SourceType } from './sources';

/**
 * "While you were away" (issue 17): resuming a digest paused for longer than its period may send one
 * catch-up issue with what came while it was paused. One rule for the web app (whether the resume
 * confirmation offers it) and the server (whether `PATCH /digests/{id}` accepts `catchUp: true`).
 */

/** The catch-up issue's mark: its banner in the mail and the words added to its subject. */
export const CATCH_UP_TITLE = 'While you were away';

/**
 * The kinds whose content of a past window can be read: feed items published then, newsletters received
 * then, the Hacker News stories posted then, best first. The other kinds describe today (weather, date,
 * calendar, Stripe figures) or are not read by date (Reddit, X, YouTube, Product Hunt); they are left out of
 * the catch-up, and the next issue on the schedule shows them as usual.
 */
export const CATCH_UP_KINDS = ['RSS', 'NEWSLETTERS', 'HACKER_NEWS'] as const satisfies readonly SourceType[];

export function catchesUp(type: SourceType): boolean {
  return (CATCH_UP_KINDS as readonly SourceType[]).includes(type);
}

export const CATCH_UP_MESSAGES = {
  notPaused: 'This Digest is not paused, so there is nothing to catch up.',
  notLongEnough: 'A catch-up issue is offered only when a Digest was paused for longer than its period.',
  noSources: 'None of this Digest’s sources can catch up (RSS feeds, Newsletters and Hacker News can).',
} as const;

const DAY_MS = 86_400_000;

/** `pausedAt` plus one calendar month (31 January → the last day of February), at the same UTC time. */
function oneMonthAfter(pausedAt: Date): number {
  const year = pausedAt.getUTCFullYear();
  const month = pausedAt.getUTCMonth() + 1;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(pausedAt.getUTCDate(), lastDay);
  return Date.UTC(
    year,
    month,
    day,
    pausedAt.getUTCHours(),
    pausedAt.getUTCMinutes(),
    pausedAt.getUTCSeconds(),
    pausedAt.getUTCMilliseconds(),
  );
}

/**
 * Whether a digest paused at `pausedAt` has been paused for longer than its period at `now`: a daily one
 * longer than a day, a weekly one longer than 7 days, a monthly one longer than one calendar month. Shorter
 * pauses missed at most one issue, and the next one on the schedule covers them.
 */
export function pausedLongerThanPeriod(scheduleType: ScheduleType, pausedAt: Date, now: Date): boolean {
  const paused = now.getTime() - pausedAt.getTime();
  if (scheduleType === 'daily') return paused > DAY_MS;
  if (scheduleType === 'weekly') return paused > 7 * DAY_MS;
  return now.getTime() > oneMonthAfter(pausedAt);
}
