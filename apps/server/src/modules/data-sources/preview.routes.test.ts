import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectAccount } from '#server/modules/accounts/test-support';
import { receiveTestNewsletter } from '#server/modules/newsletters/test-support';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { testClock } from '#server-test/test-clock';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { googleApiFake } from '#test/fakes/providers/google-api';
import { hackerNewsFake } from '#test/fakes/providers/hacker-news';
import { oauthFakeProviders } from '#test/fakes/providers/oauth';

let fakes: FakeProviders;
let api: TestApi;
let ada: TestUser;
let mallory: TestUser;
let adasGoogle = '';

beforeAll(async () => {
  fakes = await startFakeProviders({
    providers: [...oauthFakeProviders, hackerNewsFake, googleApiFake({ moveToToday: false })],
  });
  api = await startTestApi({ fakes, clock: testClock(new Date('2026-11-21T12:00:00Z')) });
  ada = await signUp(api);
  mallory = await signUp(api);
  adasGoogle = await connectAccount(api, ada, 'google');
});
afterAll(async () => {
  await api?.close();
  await fakes?.close();
});
afterEach(() => fakes.setFailure('/hn', undefined));

const preview = (source: unknown, user: TestUser | null = ada) =>
  api.app.inject({
    method: 'POST',
    url: '/api/data-sources/preview',
    headers: user?.headers ?? {},
    payload: { source },
  });

describe('POST /api/data-sources/preview', () => {
  it('answers the content the block of an issue gets: as many stories as the source asks for', async () => {
    const response = await preview({ type: 'HACKER_NEWS', numberOfPosts: 3 });
    expect(response.statusCode, response.body).toBe(200);
    const { content } = response.json();
    expect(content.items).toHaveLength(3);
    expect(Object.keys(content.items[0])).toContain('storyUrl');
  });

  it("leaves out the items the source's conditions leave out of the issue (points, comments)", async () => {
    const response = await preview({
      type: 'HACKER_NEWS',
      numberOfPosts: 10,
      conditions: { minPoints: 500 },
    });
    expect(response.statusCode, response.body).toBe(200);
    const scores = (response.json().content.items as { score: number }[]).map((item) => item.score);
    expect(scores).toEqual([812, 654, 597]);
  });

  it('refuses a bad condition with the schema message', async () => {
    const response = await preview({ type: 'HACKER_NEWS', conditions: { minPoints: -1 } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('Points at least must be 0 or more');
  });

  it("answers today's date in the user's zone without calling any provider", async () => {
    const response = await preview({ type: 'DATE' });
    expect(response.statusCode).toBe(200);
    expect(response.json().content).toBeTypeOf('object');
  });

  it('reads only the caller’s own connected account: another user’s account is not connected', async () => {
    const source = { type: 'GOOGLE_CALENDAR', eventType: 'today', selectedEvents: [{ tokenId: adasGoogle }] };
    const own = await preview(source, ada);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().content.errors).toEqual([]);
    const other = await preview(source, mallory);
    expect(other.json().content.errors).toHaveLength(1);
    expect(JSON.stringify(other.json().content.days)).not.toContain('startTime');
  });

  it('previews the caller’s latest newsletters, never another user’s', async () => {
    await receiveTestNewsletter(api.database.db, ada.userId, { subject: 'For Ada only' });
    const own = await preview({ type: 'NEWSLETTERS' }, ada);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().content.items.map((item: { subject: string }) => item.subject)).toEqual([
      'For Ada only',
    ]);
    const other = await preview({ type: 'NEWSLETTERS' }, mallory);
    expect(other.json().content).toEqual({ items: [] });
  });

  it.each([
    [{ type: 'NEWSPAPER' }, 'Source type must be one of'],
    [{ type: 'NEWSLETTERS', count: 21 }, 'Number of newsletters must be at most 20'],
    [{ type: 'NEWSLETTERS', senders: 'everyone' }, "Senders must be 'all' or a list of chosen senders"],
    [{ type: 'HACKER_NEWS', numberOfPosts: 11 }, 'Number of posts must be at most 10'],
    [{ type: 'RSS', feedLink: 'ftp://example.com/feed' }, 'Feed link must be an http(s) URL'],
    [{ type: 'REDDIT', sourceName: 'r/a' }, 'Subreddit must be 2 to 21 letters'],
    [{ type: 'WEATHER', latitude: 91, longitude: 0, locationName: 'Nowhere' }, 'Latitude must be between'],
    [{ type: 'HACKER_NEWS', colour: 'red' }, 'colour'],
  ])('refuses %j with 400 and says why', async (source, message) => {
    const response = await preview(source);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('refuses a body without a source, and a caller without a session', async () => {
    const empty = await api.app.inject({
      method: 'POST',
      url: '/api/data-sources/preview',
      headers: ada.headers,
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
    expect((await preview({ type: 'DATE' }, null)).statusCode).toBe(401);
  });

  it("answers a provider's failure with its status and message, as the other data-source calls do", async () => {
    fakes.setFailure('/hn', { status: 500 });
    const response = await preview({ type: 'HACKER_NEWS' });
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toMatch(/Hacker News/);
  });
});
