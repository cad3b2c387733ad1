/**
 * The data-source calls of the connected-account kinds (Google Calendar, X/Twitter, Stripe) through the
 * real API: accounts connected through the fake OAuth servers, providers answered by their fakes over
 * HTTP. One file for the three kinds so the machine starts one API and one database for them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAccount } from '#server/modules/accounts/test-support';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { testClock } from '#server-test/test-clock';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { googleApiFake } from '#test/fakes/providers/google-api';
import { fakeOAuth, oauthFakeProviders } from '#test/fakes/providers/oauth';
import { stripeFake } from '#test/fakes/providers/stripe';
import { twitterFake } from '#test/fakes/providers/twitter';

let fakes: FakeProviders;
let api: TestApi;
let ada: TestUser;
let mallory: TestUser;
const tokens = { google: '', twitter: '', stripe: '' };
let mallorysGoogle = '';

beforeAll(async () => {
  fakes = await startFakeProviders({
    providers: [
      ...oauthFakeProviders,
      googleApiFake({ moveToToday: false }),
      twitterFake(),
      stripeFake({ moveToNow: false }),
    ],
  });
  // The calendar and Stripe fixtures were recorded up to this instant.
  api = await startTestApi({ fakes, clock: testClock(new Date('2026-11-21T12:00:00Z')) });
  ada = await signUp(api);
  mallory = await signUp(api);
  const zone = await api.app.inject({
    method: 'PATCH',
    url: '/api/users/me',
    headers: ada.headers,
    payload: { timezone: { timezone: 'Asia/Kolkata', locale: 'en-US', offset: 330 } },
  });
  expect(zone.statusCode, zone.body).toBe(200);
  for (const provider of ['google', 'twitter', 'stripe'] as const) {
    tokens[provider] = await connectAccount(api, ada, provider);
  }
  mallorysGoogle = await connectAccount(api, mallory, 'google');
});
afterAll(async () => {
  await api?.close();
  await fakes?.close();
});

const get = (url: string, user = ada) => api.app.inject({ method: 'GET', url, headers: user.headers });

describe('POST /api/data-sources/google-calendar', () => {
  const preview = (settings: object, headers = ada.headers) =>
    api.app.inject({
      method: 'POST',
      url: '/api/data-sources/google-calendar',
      headers,
      payload: { settings },
    });

  it("answers the connected calendar's events of today in the user's own zone", async () => {
    const response = await preview({
      type: 'GOOGLE_CALENDAR',
      eventType: 'today',
      eventTime: '24h',
      selectedEvents: [{ tokenId: tokens.google }],
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ timeStatus: 'today', timePeriod: 'Sat, Nov 21', errors: [] });
    expect(body.days[0].events.map((event: { title: string; startTime: string }) => event.startTime)).toEqual(
      ['19:30', '22:00', '23:30'],
    );
  });

  it("shows another user's account as not connected, and refuses bad settings or no session", async () => {
    const theirs = await preview({ type: 'GOOGLE_CALENDAR', selectedEvents: [{ tokenId: mallorysGoogle }] });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().days).toEqual([]);
    expect(theirs.json().errors).toEqual([
      { email: mallorysGoogle, message: expect.stringMatching(/not connected/i) },
    ]);

    const bad = await preview({ type: 'GOOGLE_CALENDAR', eventType: 'month' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/eventType/);

    expect((await preview({ type: 'GOOGLE_CALENDAR' }, {})).statusCode).toBe(401);
  });
});

describe('GET /api/data-sources/twitter/…', () => {
  const q = (params: Record<string, string | number>) =>
    new URLSearchParams({ tokenId: tokens.twitter, ...params } as Record<string, string>).toString();

  it('previews the timeline, chosen users, a search and a list with the connected X account', async () => {
    const timeline = await get(
      `/api/data-sources/twitter/timeline?${q({ tweetType: 'latest', limit: 2, perUserLimit: 1 })}`,
    );
    expect(timeline.statusCode, timeline.body).toBe(200);
    expect(
      timeline.json().tweets.map((tweet: { user: { username: string } }) => tweet.user.username),
    ).toEqual(['mayaortiz', 'osweekly']);

    const users = await get(
      `/api/data-sources/twitter/users/tweets?${q({ ids: '1111111111,2222222222', limit: 3, perUserLimit: 1, tweetType: 'popular' })}`,
    );
    expect(users.json().tweets.map((tweet: { likesCount: number }) => tweet.likesCount)).toEqual([1200, 510]);

    const search = await get(
      `/api/data-sources/twitter/search?${q({ search: 'compiler', hideRetweets: 'true', limit: 20 })}`,
    );
    expect(search.json().tweets).toHaveLength(2);

    const lists = await get(`/api/data-sources/twitter/list?${q({})}`);
    expect(lists.json()).toEqual({
      lists: [
        { listId: '1600000000000000001', listName: 'Open source' },
        { listId: '1600000000000000002', listName: 'Design people' },
      ],
    });
    const listTweets = await get(
      `/api/data-sources/twitter/list/tweets?${q({ listId: '1600000000000000002', limit: 2 })}`,
    );
    expect(
      listTweets.json().tweets.map((tweet: { user: { username: string } }) => tweet.user.username),
    ).toEqual(['mayaortiz', 'gracechen']);

    const suggestions = await get(`/api/data-sources/twitter/users?${q({ queryType: 'suggestions' })}`);
    expect(suggestions.json().users).toHaveLength(4);
  });

  it('refuses a search over 20 tweets or starting with a short word, and a tokenId that is not theirs', async () => {
    expect(
      (await get(`/api/data-sources/twitter/search?${q({ search: 'compiler', limit: 21 })}`)).statusCode,
    ).toBe(400);
    expect((await get(`/api/data-sources/twitter/search?${q({ search: 'go compiler' })}`)).statusCode).toBe(
      400,
    );
    const theirs = await get(`/api/data-sources/twitter/timeline?${q({})}`, mallory);
    expect(theirs.statusCode).toBe(409);
    expect(theirs.json().code).toBe('SOURCE_NOT_CONNECTED');
  });

  it('tells an account connected before follows.read was asked for to reconnect, from its stored scopes', async () => {
    // What the previous version asked X for, and so what X granted and the database holds.
    fakeOAuth.grantScope('twitter', 'tweet.read users.read list.read offline.access');
    const grace = await signUp(api);
    let old = '';
    try {
      old = await connectAccount(api, grace, 'twitter');
    } finally {
      fakeOAuth.grantScope('twitter', undefined);
    }
    const params = new URLSearchParams({ tokenId: old, queryType: 'suggestions' });
    const picker = await get(`/api/data-sources/twitter/users?${params}`, grace);
    expect(picker.statusCode).toBe(409);
    expect(picker.json()).toEqual({
      code: 'SOURCE_NOT_CONNECTED',
      message:
        'X (Twitter) has not let Digest read the accounts you follow: reconnect your X account on the Connected accounts page to grant follows.read.',
    });
    // Connecting again asks for every scope, and the picker works.
    const again = await connectAccount(api, grace, 'twitter');
    const fixed = await get(
      `/api/data-sources/twitter/users?${new URLSearchParams({ tokenId: again, queryType: 'suggestions' })}`,
      grace,
    );
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().users).toHaveLength(4);
  });

  it("answers X's rate limit with 429 and when to retry", async () => {
    const reset = Math.floor(Date.now() / 1000) + 600;
    fakes.setFailure('/twitter', { status: 429, headers: { 'x-rate-limit-reset': String(reset) } });
    try {
      // A request no earlier test made: answers are cached for a few minutes.
      const response = await get(`/api/data-sources/twitter/timeline?${q({ limit: 7 })}`);
      expect(response.statusCode).toBe(429);
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(599);
      expect(response.json().message).toMatch(
        /^X \(Twitter\) answered 429: rate-limited, retry in (599|600) s$/,
      );
    } finally {
      fakes.setFailure('/twitter', undefined);
    }
  });
});

describe('GET /api/data-sources/stripe', () => {
  it("answers each account's figures, another user's account with its message", async () => {
    const response = await get(`/api/data-sources/stripe?tokenIds=${tokens.stripe},${mallorysGoogle}`);
    expect(response.statusCode, response.body).toBe(200);
    const [engines, notMine] = response.json().accounts;
    expect(engines).toMatchObject({
      revenue: 160710,
      currency: 'usd',
      payments: 121,
      customers: 7,
      message: '',
    });
    expect(notMine).toMatchObject({
      tokenId: mallorysGoogle,
      revenue: null,
      message: expect.stringMatching(/not connected/i),
    });
  });

  it('refuses a request without tokenIds', async () => {
    expect((await get('/api/data-sources/stripe')).statusCode).toBe(400);
  });
});
