/**
 * Google Calendar API v3 (`GOOGLE_API_BASE_URL`): the calendar list and the events of each calendar,
 * from fixtures recorded around 2026-11-21. Events are filtered by `timeMin`/`timeMax` exactly as Google
 * does (an event is returned when it ends after timeMin and starts before timeMax; an all-day event
 * spans its dates in the calendar's zone), so a connector that computes its period in the wrong zone
 * gets the wrong events.
 *
 * The primary calendar carries every event type Google answers (`default`, `birthday` — contacts'
 * birthdays live there now, not in a calendar of their own —, `workingLocation`, `outOfOffice`,
 * `focusTime`, `fromGmail`). Lists come in pages as Google sends them: at most `maxResults` items (250 by
 * default, 2500 at most) or fewer when the fake's `pageSize` is smaller, as Google may answer (its
 * reference: "the number of events in the resulting page may be less than this value"), with a
 * `nextPageToken` while more are left and the `nextSyncToken` only on the last page.
 *
 * By default the recorded days are moved to the current date (by whole days, so local times stay as
 * recorded): in development the calendar always has events this week. Tests that need exact instants
 * (zones, daylight saving) take the fixtures as recorded with `{ moveToToday: false }`.
 */
import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import type { FakeProvider, FakeRequest, FakeResponse } from '../fake-provider';
import { fakeBearer } from './fake-bearer';

const RECORDED_ON = '2026-11-21';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/google-api/${name}`, import.meta.url), 'utf8'));

interface EventTime {
  dateTime?: string;
  date?: string;
  timeZone?: string;
}
interface FixtureEvent {
  start: EventTime;
  end: EventTime;
  [field: string]: unknown;
}

const EVENT_FILES: Record<string, string> = {
  'ada.lovelace@gmail.com': 'events-primary.json',
  'c_8f1d2e3a4b5c6d7e@group.calendar.google.com': 'events-work.json',
  'c_0a9b8c7d6e5f4a3b@group.calendar.google.com': 'events-old-project.json',
  'en.usa#holiday@group.v.calendar.google.com': 'events-holidays.json',
};
const PRIMARY = 'ada.lovelace@gmail.com';

/** Google's error body. */
function googleError(status: number, reason: string, message: string): FakeResponse {
  const statusName: Record<number, string> = {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    404: 'NOT_FOUND',
  };
  return {
    status,
    headers: status === 401 ? { 'www-authenticate': 'Bearer realm="https://accounts.google.com/"' } : {},
    body: {
      error: {
        code: status,
        message,
        errors: [{ message, domain: 'global', reason }],
        status: statusName[status],
      },
    },
  };
}

const UNAUTHENTICATED = googleError(
  401,
  'authError',
  'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
);

/** RFC 3339 with an offset, as Google requires for timeMin/timeMax. */
const isRfc3339 = (value: string) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value);

function shiftTime(time: EventTime, days: number): EventTime {
  if (time.date)
    return { ...time, date: DateTime.fromISO(time.date).plus({ days }).toISODate() ?? time.date };
  if (!time.dateTime) return time;
  const shifted = DateTime.fromISO(time.dateTime, { setZone: true }).plus({ days });
  return { ...time, dateTime: shifted.toISO({ suppressMilliseconds: true }) ?? time.dateTime };
}

/** The instant an event time stands for; an all-day date is midnight in the calendar's zone. */
const instantOf = (time: EventTime, calendarZone: string) =>
  time.date
    ? DateTime.fromISO(time.date, { zone: calendarZone }).toMillis()
    : DateTime.fromISO(time.dateTime ?? '').toMillis();

function listEvents(
  request: FakeRequest,
  calendarId: string,
  shiftDays: number,
  pageSize: number,
): FakeResponse {
  const file = EVENT_FILES[calendarId === 'primary' ? PRIMARY : calendarId];
  if (!file) return googleError(404, 'notFound', 'Not Found');
  const timeMin = request.query.get('timeMin');
  const timeMax = request.query.get('timeMax');
  for (const [name, value] of [
    ['timeMin', timeMin],
    ['timeMax', timeMax],
  ] as const) {
    if (value !== null && !isRfc3339(value)) return googleError(400, 'badRequest', `Bad Request (${name})`);
  }
  if (request.query.get('orderBy') === 'startTime' && request.query.get('singleEvents') !== 'true') {
    return googleError(400, 'invalid', 'The requested ordering is not available for the particular query.');
  }
  const maxResults = Number(request.query.get('maxResults') ?? 250);
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 2500) {
    return googleError(400, 'invalid', 'Invalid value for: maxResults');
  }
  const recorded = fixture(file);
  const zone: string = recorded.timeZone;
  const items = (recorded.items as FixtureEvent[])
    .map((event) => ({
      ...event,
      start: shiftTime(event.start, shiftDays),
      end: shiftTime(event.end, shiftDays),
    }))
    .filter(
      (event) =>
        (timeMin === null || instantOf(event.end, zone) > DateTime.fromISO(timeMin).toMillis()) &&
        (timeMax === null || instantOf(event.start, zone) < DateTime.fromISO(timeMax).toMillis()),
    )
    .sort((a, b) => instantOf(a.start, zone) - instantOf(b.start, zone));
  return page(request, recorded, items, Math.min(maxResults, pageSize));
}

/** The page token carries the offset of the next page (Google's tokens are opaque too). */
const tokenOf = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
function offsetOf(token: string): number | undefined {
  const match = /^offset:(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}

/** One page of `items`: the page `pageToken` names (the first without one), a token for the next while any is left. */
function page(
  request: FakeRequest,
  recorded: Record<string, unknown>,
  items: unknown[],
  size: number,
): FakeResponse {
  const token = request.query.get('pageToken');
  const offset = token === null ? 0 : offsetOf(token);
  if (offset === undefined) return googleError(400, 'invalid', 'Invalid page token value.');
  const { nextSyncToken, ...rest } = recorded;
  const next = offset + size;
  return {
    body: {
      ...rest,
      items: items.slice(offset, next),
      ...(next < items.length ? { nextPageToken: tokenOf(next) } : { nextSyncToken }),
    },
  };
}

export function googleApiFake(options: { moveToToday?: boolean; pageSize?: number } = {}): FakeProvider {
  const moveToToday = options.moveToToday ?? true;
  const pageSize = options.pageSize ?? 2500;
  return {
    prefix: '/google-api',
    env: { GOOGLE_API_BASE_URL: '' },
    handle(request) {
      if (fakeBearer(request, 'google') === undefined) return UNAUTHENTICATED;
      if (request.path === '/calendar/v3/users/me/calendarList') {
        const list = fixture('calendar-list.json');
        return page(
          request,
          list,
          list.items,
          Math.min(Number(request.query.get('maxResults') ?? 100), pageSize),
        );
      }
      const events = /^\/calendar\/v3\/calendars\/([^/]+)\/events$/.exec(request.path);
      if (events?.[1]) {
        const today = DateTime.utc().startOf('day');
        const recorded = DateTime.fromISO(RECORDED_ON, { zone: 'utc' });
        const shiftDays = moveToToday ? Math.round(today.diff(recorded, 'days').days) : 0;
        return listEvents(request, decodeURIComponent(events[1]), shiftDays, pageSize);
      }
      return googleError(404, 'notFound', 'Not Found');
    },
  };
}
