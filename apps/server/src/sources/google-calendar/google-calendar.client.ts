import { z } from 'zod';
import { reconnectOnRefusal } from '#server/sources/account-refusal';
import type { ProviderConfig } from '#server/sources/provider-config';
import type { ProviderHttp } from '#server/sources/provider-http';

const PROVIDER = 'Google Calendar';
/** The most events one calendar gives for a period (the API's page size we ask for). */
const MAX_EVENTS_PER_CALENDAR = 250;

const calendarListSchema = z.object({
  items: z
    .array(
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
    )
    .default([]),
});
export type GoogleCalendar = z.infer<typeof calendarListSchema>['items'][number];

const eventTimeSchema = z.object({
  dateTime: z.string().optional(),
  date: z.string().optional(),
  timeZone: z.string().optional(),
});

const eventsSchema = z.object({
  items: z
    .array(
      z.object({
        id: z.string(),
        status: z.string().optional(),
        summary: z.string().optional(),
        htmlLink: z.string().default(''),
        start: eventTimeSchema,
        end: eventTimeSchema,
      }),
    )
    .default([]),
});
export type GoogleEvent = z.infer<typeof eventsSchema>['items'][number];

/** Calendar API v3, read with one account's access token. */
export function googleCalendarClient(
  deps: { http: ProviderHttp; providers: ProviderConfig },
  accessToken: string,
) {
  const base = `${deps.providers.baseUrls.googleApi}/calendar/v3`;
  const headers = { authorization: `Bearer ${accessToken}` };
  // Calendars change rarely, events more often; both are the user's own, keyed by token in the cache.
  return {
    calendars: async (): Promise<GoogleCalendar[]> => {
      const answer = await deps.http
        .json(
          {
            provider: PROVIDER,
            private: true,
            url: `${base}/users/me/calendarList`,
            headers,
            cache: { defaultSeconds: 300, minSeconds: 60, maxSeconds: 900 },
          },
          calendarListSchema,
        )
        .catch(reconnectOnRefusal(PROVIDER));
      return answer.items;
    },
    events: async (calendarId: string, timeMin: string, timeMax: string): Promise<GoogleEvent[]> => {
      const url = new URL(`${base}/calendars/${encodeURIComponent(calendarId)}/events`);
      url.searchParams.set('timeMin', timeMin);
      url.searchParams.set('timeMax', timeMax);
      url.searchParams.set('singleEvents', 'true');
      url.searchParams.set('orderBy', 'startTime');
      url.searchParams.set('maxResults', String(MAX_EVENTS_PER_CALENDAR));
      const answer = await deps.http
        .json(
          {
            provider: PROVIDER,
            private: true,
            url,
            headers,
            cache: { defaultSeconds: 60, minSeconds: 30, maxSeconds: 300 },
          },
          eventsSchema,
        )
        .catch(reconnectOnRefusal(PROVIDER));
      return answer.items;
    },
  };
}
