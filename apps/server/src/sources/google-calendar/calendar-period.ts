import { DateTime } from 'luxon';

export type CalendarEventType = 'today' | 'tomorrow' | 'week';
export type CalendarTimeFormat = '12h' | '24h';

/** The days a calendar block shows, as instants and as local dates of the owner's zone. */
export interface CalendarPeriod {
  /** First instant of the first day, in the owner's zone. */
  start: DateTime;
  /** First instant after the last day (exclusive). */
  end: DateTime;
  /** Local dates (ISO) of every day in the period, in order. */
  days: string[];
}

const DAYS_IN_WEEK_VIEW = 7;

/**
 * Today, tomorrow or the next 7 days (today included) in `zone`. Day boundaries are local midnights
 * computed by the calendar, not by adding 24 h, so a day that gains or loses an hour to daylight saving
 * keeps its true length.
 */
export function calendarPeriod(eventType: CalendarEventType, now: Date, zone: string): CalendarPeriod {
  const today = DateTime.fromJSDate(now, { zone }).startOf('day');
  const first = eventType === 'tomorrow' ? today.plus({ days: 1 }) : today;
  const count = eventType === 'week' ? DAYS_IN_WEEK_VIEW : 1;
  const days = Array.from({ length: count }, (_, index) => first.plus({ days: index }).toISODate() ?? '');
  return { start: first, end: first.plus({ days: count }), days };
}

/** '9:00 AM' (12h) or '09:00' (24h), in the instant's own zone. */
export function formatTime(time: DateTime, format: CalendarTimeFormat): string {
  return format === '12h' ? time.toFormat('h:mm a') : time.toFormat('HH:mm');
}

/** '45m', '2h', '1h 30m'. */
export function formatDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = Math.round(minutes % 60);
  if (hours === 0) return `${rest}m`;
  return rest === 0 ? `${hours}h` : `${hours}h ${rest}m`;
}

/** 'Saturday, November 21' in the owner's locale. */
export function dayLabel(isoDate: string, zone: string, locale: string): string {
  return DateTime.fromISO(isoDate, { zone }).setLocale(locale).toFormat('cccc, LLLL d');
}

/** 'Sat, Nov 21' for one day, 'Nov 21 – Nov 27' for several. */
export function periodLabel(period: CalendarPeriod, locale: string): string {
  const first = period.start.setLocale(locale);
  if (period.days.length === 1) return first.toFormat('ccc, LLL d');
  const last = period.end.minus({ days: 1 }).setLocale(locale);
  return `${first.toFormat('LLL d')} – ${last.toFormat('LLL d')}`;
}
