import { z } from 'zod';
import { refusalFrom } from '#server/sources/account-refusal';
import type { ProviderConfig } from '#server/sources/provider-config';
import type { ProviderHttp } from '#server/sources/provider-http';
import { SourceError } from '#server/sources/source-error';
import { GOOGLE_CALENDAR_ANSWERS } from './google-calendar.answers';

const PROVIDER = 'Google Calendar';
/** Events asked for per page (Google's default; it may answer fewer and say so with `nextPageToken`). */
const EVENTS_PER_PAGE = 250;
/**
 * Pages read of one list before giving up: 2,500 events of one calendar in at most 7 days is no calendar a
 * digest can show, and a bound keeps a provider that always answers `nextPageToken` from looping.
 */
const MAX_PAGES = 10;

/** Every list of Calendar API v3 pages the same way (Events: list, CalendarList: list). */
const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item).default([]), nextPageToken: z.string().optional() });

const calendarListSchema = pageOf(
  z.object({
    id: z.string(),
    summary: z.string().default(''),
    summaryOverride: z.string().optional(),
    backgroundColor: z.string().optional(),
    primary: z.boolean().optional(),
    /** Shown in the user's Google Calendar. */
    selected: z.boolean().optional(),
    timeZone: z.string().optional(),
  }),
);
export type GoogleCalendar = z.infer<typeof calendarListSchema>['items'][number];

const eventTimeSchema = z.object({
  dateTime: z.string().optional(),
  date: z.string().optional(),
  timeZone: z.string().optional(),
});

const eventsSchema = pageOf(
  z.object({
    id: z.string(),
    status: z.string().optional(),
    summary: z.string().optional(),
    htmlLink: z.string().default(''),
    start: eventTimeSchema,
    end: eventTimeSchema,
    /**
     * 'default', 'birthday', 'workingLocation', 'outOfOffice', 'focusTime' or 'fromGmail' (Events resource;
     * https://developers.google.com/calendar/api/guides/event-types). Unset means 'default'; a type Google
     * adds later is kept as it comes, for the connector to decide.
     */
    eventType: z.string().default('default'),
  }),
);
export type GoogleEvent = z.infer<typeof eventsSchema>['items'][number];

/** Calendar API v3, read with one account's access token. */
export function googleCalendarClient(
  deps: { http: ProviderHttp; providers: ProviderConfig },
  accessToken: string,
) {
  const base = `${deps.providers.baseUrls.googleApi}/calendar/v3`;
  const headers = { authorization: `Bearer ${accessToken}` };
  /**
   * Every item of a list, following `nextPageToken` (Google may answer fewer items than asked for and
   * still have more) for at most MAX_PAGES pages.
   */
  async function allPages<T>(
    url: URL,
    schema: z.ZodType<{ items: T[]; nextPageToken?: string }>,
    cache: { defaultSeconds: number; minSeconds: number; maxSeconds: number },
    what: string,
  ): Promise<T[]> {
    const items: T[] = [];
    const pageUrl = new URL(url);
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await deps.http.json(
        {
          provider: PROVIDER,
          private: true,
          url: new URL(pageUrl),
          headers,
          cache,
          refusal: refusalFrom(GOOGLE_CALENDAR_ANSWERS),
        },
        schema,
      );
      items.push(...answer.items);
      if (!answer.nextPageToken) return items;
      pageUrl.searchParams.set('pageToken', answer.nextPageToken);
    }
    throw new SourceError('too_large', `${PROVIDER} has more than ${MAX_PAGES} pages of ${what}`);
  }

  // Calendars change rarely, events more often; both are the user's own, keyed by token in the cache.
  return {
    calendars: (): Promise<GoogleCalendar[]> =>
      allPages(
        new URL(`${base}/users/me/calendarList`),
        calendarListSchema,
        { defaultSeconds: 300, minSeconds: 60, maxSeconds: 900 },
        'calendars',
      ),
    /** Every event of every type (no `eventTypes` filter: Google then answers them all). */
    events: (calendarId: string, timeMin: string, timeMax: string): Promise<GoogleEvent[]> => {
      const url = new URL(`${base}/calendars/${encodeURIComponent(calendarId)}/events`);
      url.searchParams.set('timeMin', timeMin);
      url.searchParams.set('timeMax', timeMax);
      url.searchParams.set('singleEvents', 'true');
      url.searchParams.set('orderBy', 'startTime');
      url.searchParams.set('maxResults', String(EVENTS_PER_PAGE));
      return allPages(
        url,
        eventsSchema,
        { defaultSeconds: 60, minSeconds: 30, maxSeconds: 300 },
        'events in this period',
      );
    },
  };
}
