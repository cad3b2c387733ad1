import { googleCalendarSourceSchema, type SourceInputOf } from '@digest/contracts';
import type { CalendarContent } from '@digest/contracts/content';
import { describe, expect, it } from 'vitest';
import type { SourceContext } from '#server/sources/connector';
import {
  connectorDeps,
  fakeAccessToken,
  fakeProvidersForFile,
  HANG_TIMEOUT_MS,
  providerFailureCases,
  testAccountTokens,
  withProviderFailure,
} from '#server/sources/sources.test-support';
import { testClock } from '#server-test/test-clock';
import { googleApiFake } from '#test/fakes/providers/google-api';
import { googleCalendarConnector } from './google-calendar.connector';

const USER = 'user-1';
const ADA = { tokenId: 'tok-ada', email: 'ada.lovelace@gmail.com' };
const accounts = testAccountTokens(USER, {
  'tok-ada': { provider: 'GOOGLE', accessToken: fakeAccessToken('google', 'ada'), email: ADA.email },
  'tok-revoked': { provider: 'GOOGLE', accessToken: 'revoked-token', email: 'grace@example.com' },
});

const fakes = fakeProvidersForFile([googleApiFake({ moveToToday: false })], '/google-api');
/** Google answering two items a page, as it may whatever maxResults asks for. */
const pagedFakes = fakeProvidersForFile([googleApiFake({ moveToToday: false, pageSize: 2 })], '/google-api');
const singleFakes = fakeProvidersForFile([googleApiFake({ moveToToday: false, pageSize: 1 })], '/google-api');

/** The fixtures were recorded on Saturday 2026-11-21; noon UTC is 07:00 in New York, 17:30 in Kolkata. */
async function calendar(
  settings: Partial<SourceInputOf<'GOOGLE_CALENDAR'>>,
  options: { timezone: string; now?: string; timeoutMs?: number; fakes?: { env: Record<string, string> } },
): Promise<CalendarContent> {
  const clock = testClock(new Date(options.now ?? '2026-11-21T12:00:00Z'));
  const deps = connectorDeps(options.fakes ?? fakes, { accounts, clock, timeoutMs: options.timeoutMs });
  const source = googleCalendarSourceSchema.parse({
    type: 'GOOGLE_CALENDAR',
    selectedEvents: [{ ...ADA, events: true }],
    ...settings,
  });
  const context: SourceContext = { userId: USER, timezone: options.timezone, locale: 'en-US' };
  return googleCalendarConnector(deps).fetchContent(source, context);
}

const titlesByDay = (content: CalendarContent) =>
  Object.fromEntries(content.days.map((day) => [day.date, day.events.map((event) => event.title)]));

const times = (content: CalendarContent) =>
  content.days.flatMap((day) =>
    day.events.map((event) => `${event.title} ${event.startTime}-${event.endTime}`),
  );

describe('google calendar periods in the owner zone', () => {
  it("shows today's events of New York's local day, 23:30 included and 00:30 the next day not", async () => {
    const content = await calendar({ eventType: 'today' }, { timezone: 'America/New_York' });
    expect(content.timeStatus).toBe('today');
    expect(content.timePeriod).toBe('Sat, Nov 21');
    expect(times(content)).toEqual([
      'Team stand-up 9:00 AM-9:30 AM',
      'Sprint demo (Bengaluru) 11:30 AM-12:30 PM',
      'Design review 1:00 PM-2:30 PM',
      'Call with the Mumbai office 2:00 PM-2:45 PM',
      'Late deploy 11:30 PM-12:15 AM',
    ]);
    expect(content.days.map((day) => day.label)).toEqual(['Saturday, November 21']);
  });

  it("ends Kolkata's today at Kolkata's midnight, in 24-hour times", async () => {
    const content = await calendar({ eventType: 'today', eventTime: '24h' }, { timezone: 'Asia/Kolkata' });
    expect(times(content)).toEqual([
      'Team stand-up 19:30-20:00',
      'Sprint demo (Bengaluru) 22:00-23:00',
      'Design review 23:30-01:00',
    ]);
  });

  it("shows tomorrow's events of Kolkata, all-day birthdays first", async () => {
    const content = await calendar(
      {
        eventType: 'tomorrow',
        eventTime: '24h',
        selectedEvents: [{ ...ADA, events: true, birthdays: true }],
      },
      { timezone: 'Asia/Kolkata' },
    );
    expect(content.timeStatus).toBe('tomorrow');
    expect(content.timePeriod).toBe('Sun, Nov 22');
    expect(times(content)).toEqual([
      "Grace Chen's birthday -",
      'Call with the Mumbai office 00:30-01:15',
      'Late deploy 10:00-10:45',
      'Early run 11:00-12:00',
    ]);
    expect(content.days[0]?.events[0]).toMatchObject({ kind: 'birthday', color: '#039be5' });
  });

  it("shows tomorrow's events of New York, not the ones of its today", async () => {
    const content = await calendar({ eventType: 'tomorrow' }, { timezone: 'America/New_York' });
    expect(titlesByDay(content)).toEqual({ '2026-11-22': ['Early run'] });
  });

  it('keeps a 25-hour day whole when daylight saving ends (New York, 1 November)', async () => {
    const content = await calendar(
      { eventType: 'tomorrow' },
      { timezone: 'America/New_York', now: '2026-10-31T12:00:00Z' },
    );
    expect(times(content)).toEqual([
      'Early bird swim 12:30 AM-1:15 AM',
      'Late call with Sydney 11:30 PM-12:30 AM',
    ]);
  });

  it('groups the next 7 days by day with durations, colours and links', async () => {
    const content = await calendar(
      { eventType: 'week', selectedEvents: [{ ...ADA, events: true, holidays: true }] },
      { timezone: 'America/New_York' },
    );
    expect(content.timePeriod).toBe('Nov 21 – Nov 27');
    expect(titlesByDay(content)).toEqual({
      '2026-11-21': [
        'Team stand-up',
        'Sprint demo (Bengaluru)',
        'Design review',
        'Call with the Mumbai office',
        'Late deploy',
      ],
      '2026-11-22': ['Early run'],
      '2026-11-23': ['Conference'],
      '2026-11-24': ['Quarterly planning'],
      '2026-11-25': ['Flight to Boston (BA 213)'],
      '2026-11-26': ['Thanksgiving Day', 'Thanksgiving dinner'],
      '2026-11-27': ['Day off'],
    });
    const events = content.days.flatMap((day) => day.events);
    const byTitle = (title: string) => events.find((event) => event.title === title);
    expect(byTitle('Design review')).toMatchObject({
      duration: '1h 30m',
      color: '#039be5',
      account: ADA.email,
    });
    expect(byTitle('Call with the Mumbai office')?.duration).toBe('45m');
    expect(byTitle('Quarterly planning')).toMatchObject({ duration: '2h', color: '#f4511e' });
    expect(byTitle('Thanksgiving Day')).toMatchObject({
      duration: 'All day',
      startTime: '',
      color: '#0b8043',
    });
    expect(byTitle('Team stand-up')?.calendarLink).toMatch(
      /^https:\/\/www\.google\.com\/calendar\/event\?eid=/,
    );
    expect(content.days[5]?.label).toBe('Thursday, November 26');
  });

  it('reads only the holiday calendar when events and birthdays are off', async () => {
    const content = await calendar(
      { eventType: 'week', selectedEvents: [{ ...ADA, events: false, holidays: true, birthdays: false }] },
      { timezone: 'America/New_York' },
    );
    expect(titlesByDay(content)).toEqual({ '2026-11-26': ['Thanksgiving Day'] });
  });

  it('shows nothing without accounts, and leaves out hidden calendars and cancelled events', async () => {
    expect((await calendar({ selectedEvents: [] }, { timezone: 'UTC' })).days).toEqual([]);
    const titles = times(await calendar({ eventType: 'week' }, { timezone: 'America/New_York' })).join('\n');
    expect(titles).not.toContain('Old project retro');
    expect(titles).not.toContain('Cancelled sync');
  });
});

describe('google calendar event types (Events resource `eventType`)', () => {
  const week = (choice: { events?: boolean; birthdays?: boolean }) =>
    calendar(
      { eventType: 'week', selectedEvents: [{ ...ADA, holidays: false, ...choice }] },
      { timezone: 'America/New_York' },
    );
  const events = (content: CalendarContent) => content.days.flatMap((day) => day.events);

  it('shows contacts’ birthdays from the primary calendar as birthdays, only with birthdays on', async () => {
    const withBirthdays = events(await week({ events: true, birthdays: true }));
    expect(withBirthdays.filter((event) => event.kind === 'birthday')).toEqual([
      expect.objectContaining({ title: "Grace Chen's birthday", startTime: '', duration: 'All day' }),
    ]);
    expect(withBirthdays.filter((event) => event.kind === 'event').length).toBeGreaterThan(5);
    const withoutBirthdays = events(await week({ events: true, birthdays: false }));
    expect(withoutBirthdays.map((event) => event.title)).not.toContain("Grace Chen's birthday");
  });

  it('reads the birthdays alone when events are off', async () => {
    const content = await week({ events: false, birthdays: true });
    expect(titlesByDay(content)).toEqual({ '2026-11-22': ["Grace Chen's birthday"] });
  });

  it('leaves out working locations and focus time: they are no meetings', async () => {
    const titles = events(await week({ events: true, birthdays: true })).map((event) => event.title);
    expect(titles).not.toContain('Home');
    expect(titles).not.toContain('Focus time');
  });

  it('shows a whole day off on each day it lasts, from the first day of the period', async () => {
    const content = await calendar(
      { eventType: 'today', selectedEvents: [{ ...ADA, events: true }] },
      { timezone: 'America/New_York', now: '2026-11-27T15:00:00Z' },
    );
    expect(titlesByDay(content)).toEqual({ '2026-11-27': ['Day off'] });
    const after = await calendar(
      { eventType: 'today', selectedEvents: [{ ...ADA, events: true }] },
      { timezone: 'America/New_York', now: '2026-11-28T15:00:00Z' },
    );
    expect(after.days).toEqual([]);
  });

  it('shows time out of office as a line of its own kind, and an event from Gmail as an event', async () => {
    const all = events(await week({ events: true }));
    expect(all.find((event) => event.title === 'Day off')).toMatchObject({
      kind: 'outOfOffice',
      startTime: '',
      duration: 'All day',
    });
    expect(all.find((event) => event.title === 'Flight to Boston (BA 213)')).toMatchObject({
      kind: 'event',
      startTime: '8:15 AM',
      endTime: '10:40 AM',
    });
  });
});

describe('google calendar pages (nextPageToken)', () => {
  it('reads every page of the calendar list and of the events', async () => {
    const settings = {
      eventType: 'week' as const,
      selectedEvents: [{ ...ADA, events: true, holidays: true }],
    };
    const whole = await calendar(settings, { timezone: 'America/New_York' });
    pagedFakes.resetHits();
    const paged = await calendar(settings, { timezone: 'America/New_York', fakes: pagedFakes });
    expect(paged).toEqual(whole);
    expect(pagedFakes.hits('/google-api', '/calendar/v3/users/me/calendarList')).toBe(2);
    expect(pagedFakes.hits('/google-api', '/calendar/v3/calendars/')).toBeGreaterThan(4);
  });

  it('stops after 10 pages of one calendar and says the period has too many events', async () => {
    const content = await calendar(
      { eventType: 'week', selectedEvents: [{ ...ADA, events: true }] },
      { timezone: 'America/New_York', fakes: singleFakes },
    );
    expect(content.days).toEqual([]);
    expect(content.errors).toEqual([
      { email: ADA.email, message: 'Google Calendar has more than 10 pages of events in this period' },
    ]);
  });
});

describe('google calendar failures', () => {
  it('keeps the other accounts when one is refused, and asks to reconnect it', async () => {
    const content = await calendar(
      {
        eventType: 'tomorrow',
        selectedEvents: [
          {
            tokenId: 'tok-revoked',
            email: 'grace@example.com',
            events: true,
            holidays: false,
            birthdays: false,
          },
          { ...ADA, events: true, holidays: false, birthdays: false },
        ],
      },
      { timezone: 'America/New_York' },
    );
    expect(titlesByDay(content)).toEqual({ '2026-11-22': ['Early run'] });
    expect(content.errors).toEqual([
      {
        email: 'grace@example.com',
        message: 'Google Calendar refused the connected account: reconnect your account',
      },
    ]);
  });

  it("reports an account that is not the user's as not connected", async () => {
    const content = await calendar(
      { selectedEvents: [{ tokenId: 'someone-elses', email: 'x@example.com' }] },
      { timezone: 'UTC' },
    );
    expect(content.errors).toEqual([
      { email: 'x@example.com', message: 'This source is not connected yet.' },
    ]);
  });

  const cases = providerFailureCases('Google Calendar', {
    notJson: true,
    messages: {
      rate_limited: 'Google Calendar is limiting requests right now: retry in 30 s',
      upstream: 'Google Calendar is not answering right now (it answered 500): try again later',
    },
  });
  for (const { rule, failure, error } of cases) {
    it(`shows the account's failure in the content: ${rule}, "${error.message}"`, async () => {
      const content = await withProviderFailure(fakes, '/google-api', failure, () =>
        calendar({}, { timezone: 'UTC', timeoutMs: failure === 'hang' ? HANG_TIMEOUT_MS : undefined }),
      );
      expect(content.days).toEqual([]);
      expect(content.errors).toEqual([{ email: ADA.email, message: error.message }]);
    });
  }
});

describe('Google Calendar’s answers and what the user reads (google-calendar.answers.ts)', () => {
  /** Google's error body, as the Calendar API sends it. */
  const googleError = (code: number, reason: string, message: string, status: string, detail?: string) => ({
    error: {
      code,
      message,
      errors: [{ message, domain: 'global', reason }],
      status,
      ...(detail
        ? {
            details: [
              {
                '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                reason: detail,
                domain: 'googleapis.com',
              },
            ],
          }
        : {}),
    },
  });
  const cases = [
    {
      rule: 'a rate limit Google answers with 403 is a rate limit, not a refused account',
      failure: {
        status: 403,
        body: googleError(403, 'rateLimitExceeded', 'Rate Limit Exceeded', 'PERMISSION_DENIED'),
      },
      message: 'Google Calendar is limiting requests right now: retry later',
    },
    {
      rule: 'the project’s daily quota used up (403 quotaExceeded)',
      failure: {
        status: 403,
        body: googleError(403, 'quotaExceeded', 'Quota exceeded', 'PERMISSION_DENIED'),
      },
      message: 'This server used up its daily Google Calendar quota: the calendar shows again tomorrow',
    },
    {
      rule: 'the Calendar API not enabled in the server’s project is the operator’s to fix',
      failure: {
        status: 403,
        body: googleError(
          403,
          'accessNotConfigured',
          'Google Calendar API has not been used in project 1',
          'PERMISSION_DENIED',
          'SERVICE_DISABLED',
        ),
      },
      message: "The Google Calendar API is not enabled in this server's Google Cloud project",
    },
    {
      rule: 'a grant without the calendar scope: reconnect and allow it',
      failure: {
        status: 403,
        body: googleError(
          403,
          'insufficientPermissions',
          'Request had insufficient authentication scopes.',
          'PERMISSION_DENIED',
          'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
        ),
      },
      message: 'Google Calendar was not allowed to be read: reconnect your account and allow calendar access',
    },
    {
      rule: 'a revoked grant (401): reconnect',
      failure: { status: 401, body: googleError(401, 'authError', 'Invalid Credentials', 'UNAUTHENTICATED') },
      message: 'Google Calendar refused the connected account: reconnect your account',
    },
    {
      rule: 'its own failure (503 backendError): Google Calendar is down',
      failure: { status: 503, body: googleError(503, 'backendError', 'Backend Error', 'UNAVAILABLE') },
      message: 'Google Calendar is not answering right now (it answered 503): try again later',
    },
  ];
  for (const { rule, failure, message } of cases) {
    it(rule, async () => {
      const content = await withProviderFailure(fakes, '/google-api', failure, () =>
        calendar({}, { timezone: 'UTC' }),
      );
      expect(content.errors).toEqual([{ email: ADA.email, message }]);
    });
  }
});
