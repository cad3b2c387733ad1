import * as z from 'zod/mini';
import { common, flag, id, inputSchema, text, uniqueOptions } from './fields';
import type { ItemList, SourceKind } from './source-kind';

/**
 * 'event' for a meeting or appointment, 'birthday' for a contact's birthday, 'outOfOffice' for time the
 * account's owner is away (a line of its own, not a meeting).
 */
export type CalendarEventKind = 'event' | 'birthday' | 'outOfOffice';

export interface CalendarEvent {
  kind: CalendarEventKind;
  title: string;
  /** Formatted in the owner's zone per eventTime ('9:00 AM' or '09:00'); '' for all-day events. */
  startTime: string;
  endTime: string;
  /** e.g. '1h 30m', 'All day'. */
  duration: string;
  /** CSS colour of the calendar. */
  color: string;
  calendarLink: string;
  /** The account (e-mail) the event came from. */
  account: string;
}

export interface CalendarDay {
  /** ISO date in the owner's zone. */
  date: string;
  /** e.g. 'Sunday, November 22'. */
  label: string;
  events: CalendarEvent[];
}

export interface CalendarContent {
  /** 'today' | 'tomorrow' | 'week'. */
  timeStatus: string;
  /** Human period, e.g. 'Nov 22 – Nov 28'. */
  timePeriod: string;
  days: CalendarDay[];
  /** Accounts that could not be read, with why (the other accounts still show). */
  errors: { email: string; message: string }[];
}

export const CALENDAR_EVENT_TYPES = ['today', 'tomorrow', 'week'] as const;
export const CALENDAR_TIME_FORMATS = ['12h', '24h'] as const;

export const CALENDAR_EVENT_OPTIONS = [
  { value: 'today', label: "Today's" },
  { value: 'tomorrow', label: "Tomorrow's" },
  { value: 'week', label: 'Next 7 days of events' },
] as const;
export const CALENDAR_TIME_OPTIONS = [
  { value: '12h', label: '12 Hours' },
  { value: '24h', label: '24 Hours' },
] as const;

const LABEL = 'Google Calendar';

const calendarAccountSchema = z.strictObject({
  tokenId: id('Calendar account'),
  email: z._default(text(254), ''),
  events: flag(true),
  holidays: flag(false),
  birthdays: flag(false),
});

const googleCalendarShape = {
  type: z.literal('GOOGLE_CALENDAR'),
  ...common(LABEL),
  eventType: z._default(
    z.enum(CALENDAR_EVENT_TYPES, { error: "Events must be 'today', 'tomorrow' or 'week'" }),
    'week',
  ),
  eventTime: z._default(
    z.enum(CALENDAR_TIME_FORMATS, { error: "Time format must be '12h' or '24h'" }),
    '12h',
  ),
  selectedEvents: z.optional(z.array(calendarAccountSchema).check(z.maxLength(20))),
};

/** One entry per calendar account (the first). */
export const googleCalendarSourceSchema = inputSchema(googleCalendarShape, (settings) =>
  uniqueOptions(settings, 'selectedEvents', (account) => String(account.tokenId)),
);
export type GoogleCalendarSource = z.output<typeof googleCalendarSourceSchema>;

/** The events of every day, in order. */
const calendarEvents: ItemList<CalendarContent> = {
  count: (content) => content.days.reduce((sum, day) => sum + day.events.length, 0),
  keep: (content, count) => {
    let left = count;
    const days = content.days.flatMap((day) => {
      const events = day.events.slice(0, Math.max(left, 0));
      left -= events.length;
      return events.length > 0 ? [{ ...day, events }] : [];
    });
    return { ...content, days };
  },
};

export const googleCalendarKind = {
  type: 'GOOGLE_CALENDAR',
  label: LABEL,
  schema: googleCalendarSourceSchema,
  storedSchema: z.object(googleCalendarShape),
  category: 'everyday',
  popular: true,
  dataPath: 'google-calendar',
  accountProvider: 'GOOGLE',
  readsPrivateData: true,
  searched: false,
  count: null,
  icon: { key: 'calendar', label: 'Google Calendar' },
  title: () => LABEL,
  hasNews: (content) => content.days.some((day) => day.events.length > 0),
  items: calendarEvents,
} as const satisfies SourceKind<CalendarContent, GoogleCalendarSource>;
