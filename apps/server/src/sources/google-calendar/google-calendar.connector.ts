import type { GoogleCalendarSource } from '@digest/contracts';
import type {
  CalendarContent,
  CalendarDay,
  CalendarEvent,
  CalendarEventKind,
} from '@digest/contracts/content';
import { DateTime } from 'luxon';
import type { Connector, SourceContext, SourcesDeps } from '#server/sources/connector';
import { httpUrlOrEmpty } from '#server/sources/safe-link';
import { SourceError } from '#server/sources/source-error';
import {
  type CalendarPeriod,
  type CalendarTimeFormat,
  calendarPeriod,
  dayLabel,
  formatDuration,
  formatTime,
  periodLabel,
} from './calendar-period';
import { type GoogleCalendar, type GoogleEvent, googleCalendarClient } from './google-calendar.client';

type AccountChoice = NonNullable<GoogleCalendarSource['selectedEvents']>[number];

/** Google's colour of the default calendar, for calendars that carry none. */
const DEFAULT_COLOR = '#039be5';

const isHolidays = (calendar: GoogleCalendar) => calendar.id.endsWith('#holiday@group.v.calendar.google.com');
/**
 * The contacts' birthdays calendar Google had before birthdays became `birthday` events of the primary
 * calendar. An account that still lists it has the same birthdays in its primary calendar too, so it is
 * never read: each birthday would show twice.
 */
const isOldBirthdays = (calendar: GoogleCalendar) =>
  calendar.id.endsWith('#contacts@group.v.calendar.google.com');

/**
 * Which of an account's calendars the user asked for: `events` means the account's own calendars that
 * Google Calendar shows (the primary one and every other calendar it has selected), `holidays` the
 * public-holiday calendars. Birthdays are events of the primary calendar, so `birthdays` alone reads it.
 */
export function chosenCalendars(calendars: GoogleCalendar[], choice: AccountChoice): GoogleCalendar[] {
  return calendars.filter((calendar) => {
    if (isHolidays(calendar)) return choice.holidays;
    if (isOldBirthdays(calendar)) return false;
    if (calendar.primary === true && choice.birthdays) return true;
    return choice.events && (calendar.primary === true || calendar.selected === true);
  });
}

/**
 * What a Google event is in the block, by its `eventType`, or undefined to leave it out
 * (https://developers.google.com/calendar/api/guides/event-types):
 * - `default` and `fromGmail` (a flight or a booking Gmail found) are things happening: events.
 * - `birthday`: a contact's birthday (or anniversary), shown as one, only when birthdays are asked for.
 * - `outOfOffice`: the owner is away, which changes what their day holds, so it shows as a line of its
 *   own, never as a meeting.
 * - `workingLocation` ("Home", "Office" on every workday) and `focusTime` (time the owner blocked for
 *   themselves) are settings of the owner's week, not appointments: listed, they would crowd out the
 *   meetings of every day, so they are left out.
 * A type Google adds later is left out too, until someone decides how it reads.
 */
function kindOf(
  event: GoogleEvent,
  calendar: GoogleCalendar,
  choice: AccountChoice,
): CalendarEventKind | undefined {
  switch (event.eventType) {
    case 'default':
    case 'fromGmail':
      // A holiday calendar is read only when holidays were asked for.
      return choice.events || isHolidays(calendar) ? 'event' : undefined;
    case 'birthday':
      return choice.birthdays ? 'birthday' : undefined;
    case 'outOfOffice':
      return choice.events ? 'outOfOffice' : undefined;
    default:
      return undefined;
  }
}

interface PlacedEvent {
  day: string;
  /** Sort key: all-day events first, then by start instant. */
  sortKey: number;
  event: CalendarEvent;
}

/**
 * Puts one Google event on its day of the period. A timed event belongs to the day it starts on (one that
 * began the evening before belongs to that evening); an all-day event still running when the period
 * starts, such as a conference, shows on the first day.
 */
function placeEvent(
  event: GoogleEvent,
  kind: CalendarEventKind,
  calendar: GoogleCalendar,
  account: string,
  period: CalendarPeriod,
  zone: string,
  timeFormat: CalendarTimeFormat,
): PlacedEvent | undefined {
  const common = {
    kind,
    title: event.summary?.trim() || '(No title)',
    color: calendar.backgroundColor ?? DEFAULT_COLOR,
    calendarLink: httpUrlOrEmpty(event.htmlLink),
    account,
  };
  const allDay = (startDate: string) => {
    // All-day events are calendar dates, the same in every zone.
    const firstDay = period.days[0] ?? '';
    const day = startDate < firstDay ? firstDay : startDate;
    if (!period.days.includes(day)) return undefined;
    return {
      day,
      sortKey: Number.NEGATIVE_INFINITY,
      event: { ...common, startTime: '', endTime: '', duration: 'All day' },
    };
  };
  if (event.start.date) return allDay(event.start.date);
  if (!event.start.dateTime || !event.end.dateTime) return undefined;
  const start = DateTime.fromISO(event.start.dateTime, { zone });
  const end = DateTime.fromISO(event.end.dateTime, { zone });
  if (!start.isValid || !end.isValid) return undefined;
  // Calendar saves a day off as time from midnight to midnight: it reads as whole days, shown while it lasts.
  const midnight = (time: DateTime) => time.equals(time.startOf('day'));
  if (kind === 'outOfOffice' && midnight(start) && midnight(end) && end > period.start) {
    return allDay(start.toISODate() ?? '');
  }
  const day = start.toISODate() ?? '';
  if (!period.days.includes(day)) return undefined;
  return {
    day,
    sortKey: start.toMillis(),
    event: {
      ...common,
      startTime: formatTime(start, timeFormat),
      endTime: formatTime(end, timeFormat),
      duration: formatDuration(end.diff(start, 'minutes').minutes),
    },
  };
}

async function eventsOfAccount(
  deps: SourcesDeps,
  context: SourceContext,
  choice: AccountChoice,
  period: CalendarPeriod,
  timeFormat: CalendarTimeFormat,
): Promise<PlacedEvent[]> {
  const { accessToken, account } = await deps.accounts.accessToken(context.userId, choice.tokenId, 'GOOGLE');
  const email = account.email ?? choice.email;
  const client = googleCalendarClient(deps, accessToken);
  const calendars = chosenCalendars(await client.calendars(), choice);
  const timeMin = period.start.toISO() ?? '';
  const timeMax = period.end.toISO() ?? '';
  const perCalendar = await Promise.all(
    calendars.map(async (calendar) => {
      const events = await client.events(calendar.id, timeMin, timeMax);
      return events.map((event) => {
        const kind = event.status === 'cancelled' ? undefined : kindOf(event, calendar, choice);
        return kind && placeEvent(event, kind, calendar, email, period, context.timezone, timeFormat);
      });
    }),
  );
  return perCalendar.flat().filter((placed) => placed !== undefined);
}

/** Groups placed events by day, in the period's order, each day sorted (all-day first). */
function groupByDay(placed: PlacedEvent[], period: CalendarPeriod, context: SourceContext): CalendarDay[] {
  return period.days
    .map((date) => ({
      date,
      label: dayLabel(date, context.timezone, context.locale),
      events: placed
        .filter((item) => item.day === date)
        .sort((a, b) => a.sortKey - b.sortKey)
        .map((item) => item.event),
    }))
    .filter((day) => day.events.length > 0);
}

/**
 * Google Calendar (docs/product.md §3): the chosen calendars of every selected account for today, tomorrow or the
 * next 7 days in the owner's zone. An account that cannot be read is listed in `errors`; the others
 * still show.
 */
export function googleCalendarConnector(deps: SourcesDeps): Connector<'GOOGLE_CALENDAR'> {
  return {
    type: 'GOOGLE_CALENDAR',
    async fetchContent(source, context): Promise<CalendarContent> {
      const period = calendarPeriod(source.eventType, deps.clock.now(), context.timezone);
      const results = await Promise.allSettled(
        (source.selectedEvents ?? []).map((choice) =>
          eventsOfAccount(deps, context, choice, period, source.eventTime),
        ),
      );
      const errors: CalendarContent['errors'] = [];
      const placed: PlacedEvent[] = [];
      results.forEach((result, index) => {
        if (result.status === 'fulfilled') placed.push(...result.value);
        else {
          const choice = source.selectedEvents?.[index];
          if (!(result.reason instanceof SourceError)) throw result.reason;
          errors.push({ email: choice?.email || (choice?.tokenId ?? ''), message: result.reason.message });
        }
      });
      return {
        timeStatus: source.eventType,
        timePeriod: periodLabel(period, context.locale),
        days: groupByDay(placed, period, context),
        errors,
      };
    },
  };
}
