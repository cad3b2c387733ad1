import { type SourceInputOf, sourceSchema } from '@digest/contracts';
import type { Tweet, TwitterContent } from '@digest/contracts/content';
import { afterEach, describe, expect, it } from 'vitest';
import type { SourceContext } from '#server/sources/connector';
import {
  connectorDeps,
  fakeAccessToken,
  fakeProvidersForFile,
  itReportsProviderFailures,
  itSaysProviderDown,
  providerDownMessage,
  sourceFailure,
  testAccountTokens,
  withProviderFailure,
} from '#server/sources/sources.test-support';
import { twitterFake } from '#test/fakes/providers/twitter';
import { type TweetOptions, twitterConnectors, twitterReader } from './twitter.connector';

const USER = 'user-1';
const ADA_X_ID = '1461482927403458561';
const GRACE = '1111111111';
const MAYA = '4444444444';
const OLD_SCOPES = ['tweet.read', 'users.read', 'list.read', 'offline.access'];
const LINUS = '2222222222';
const accounts = testAccountTokens(USER, {
  'tok-x': {
    provider: 'TWITTER',
    accessToken: fakeAccessToken('twitter', ADA_X_ID),
    providerAccountId: ADA_X_ID,
  },
  'tok-revoked': { provider: 'TWITTER', accessToken: 'fake-twitter-access.1.100', providerAccountId: '1' },
  // Connected before the app asked for follows.read: X granted (and we stored) the scopes asked for then.
  'tok-old': {
    provider: 'TWITTER',
    accessToken: fakeAccessToken('twitter', ADA_X_ID, OLD_SCOPES),
    providerAccountId: ADA_X_ID,
    scopes: OLD_SCOPES,
  },
  // The same grant, stored without the scopes (X did not say them): X itself refuses.
  'tok-unknown-scopes': {
    provider: 'TWITTER',
    accessToken: fakeAccessToken('twitter', ADA_X_ID, OLD_SCOPES),
    providerAccountId: ADA_X_ID,
  },
});
const context: SourceContext = { userId: USER, timezone: 'UTC', locale: 'en-US' };

const xApi = twitterFake();
const fakes = fakeProvidersForFile([xApi], '/twitter');

/** The query of the last request X received on a path matching `path`. */
function lastQuery(path: RegExp): Record<string, string> {
  const request = xApi.received.findLast((candidate) => path.test(candidate.path));
  return Object.fromEntries(request?.query ?? []);
}

// A fresh cache each time, so a failure switched on in the fake is not hidden by an earlier answer. The
// short timeout only where the provider hangs: a normal answer may take longer on a busy machine.
const reader = (timeoutMs?: number) => twitterReader(connectorDeps(fakes, { accounts, timeoutMs }));
const connectors = () => twitterConnectors(connectorDeps(fakes, { accounts }));

const options = (overrides: Partial<TweetOptions> = {}): TweetOptions => ({
  tweetType: 'latest',
  limit: 6,
  perUser: 3,
  includeRetweets: false,
  images: 'show',
  ...overrides,
});
const texts = (tweets: Tweet[]) => tweets.map((tweet) => tweet.text.slice(0, 30));

async function fetchSource(
  input: SourceInputOf<'TWITTER_TWEETS' | 'TWITTER_SEARCH'>,
): Promise<TwitterContent> {
  const source = sourceSchema.parse(input);
  const all = connectors();
  if (source.type === 'TWITTER_TWEETS') return all.tweets.fetchContent(source, context);
  if (source.type === 'TWITTER_SEARCH') return all.search.fetchContent(source, context);
  throw new Error('not a Twitter source');
}

describe('tweets of chosen users', () => {
  it('takes the latest of each user, per-user limit first, newest first, without retweets or replies', async () => {
    const tweets = await reader().usersTweets(USER, 'tok-x', [GRACE, LINUS], options({ perUser: 2 }));
    expect(texts(tweets)).toEqual([
      'Finally wrote up how our incre',
      'Kiln day. Three bowls survived',
      'New kernel scheduler patch set',
      'The scheduler rewrite finally ',
    ]);
  });

  it('orders popular tweets by likes plus retweets and stops at the limit', async () => {
    const tweets = await reader().usersTweets(
      USER,
      'tok-x',
      [GRACE, LINUS],
      options({ tweetType: 'popular', perUser: 2, limit: 3 }),
    );
    expect(tweets.map((tweet) => tweet.likesCount + tweet.retweetsCount)).toEqual([1500, 1130, 640]);
  });

  it('includes retweets when asked, marked as such', async () => {
    const tweets = await reader().usersTweets(
      USER,
      'tok-x',
      [GRACE],
      options({ includeRetweets: true, perUser: 1 }),
    );
    expect(tweets).toHaveLength(1);
    expect(tweets[0]).toMatchObject({ isRetweeted: true, referencedTweets: [{ type: 'retweeted' }] });
    expect(lastQuery(/^\/2\/users\/1111111111\/tweets$/).exclude).toBe('replies');
  });

  it('asks X for the fields and expansions a tweet shows, and leaves retweets and replies out', async () => {
    await reader().usersTweets(USER, 'tok-x', [GRACE], options({ perUser: 4 }));
    expect(lastQuery(/^\/2\/users\/1111111111\/tweets$/)).toEqual({
      max_results: '12',
      exclude: 'retweets,replies',
      'tweet.fields': 'created_at,public_metrics,attachments,referenced_tweets,entities,note_tweet',
      expansions: 'author_id,attachments.media_keys,referenced_tweets.id',
      'media.fields': 'type,url,preview_image_url',
      'user.fields': 'name,username,profile_image_url,public_metrics',
    });
  });

  it('gives each tweet its author, link, counts, date and media, or no media when images are hidden', async () => {
    const [kiln] = (
      await fetchSource({
        type: 'TWITTER_TWEETS',
        tokenId: 'tok-x',
        tweetType: 'latest',
        limit: 2,
        twitterUsers: [{ twitterUserId: GRACE, username: 'gracechen' }],
      })
    ).tweets.filter((tweet) => tweet.text.startsWith('Kiln'));
    expect(kiln).toMatchObject({
      url: `https://x.com/gracechen/status/${kiln?.id}`,
      user: { twitterUserId: GRACE, fullName: 'Grace Chen', username: 'gracechen', followersCount: 48210 },
      media: [{ type: 'photo', url: 'https://pbs.twimg.com/media/GcKiln1aAAA1xyz.jpg' }],
      likesCount: 410,
      retweetsCount: 8,
      date: '2026-11-21T07:10:00.000Z',
      isRetweeted: false,
      isQuoted: false,
      isReplied: false,
    });
    expect(kiln?.user.image).toMatch(/^https:\/\/pbs\.twimg\.com\/profile_images\//);
    const [video] = await reader().usersTweets(USER, 'tok-x', [LINUS], options({ perUser: 1 }));
    expect(video?.media).toEqual([
      {
        type: 'video',
        url: expect.stringContaining('ext_tw_video_thumb'),
        previewUrl: expect.stringContaining('ext_tw_video_thumb'),
      },
    ]);
    const hidden = await reader().usersTweets(
      USER,
      'tok-x',
      [LINUS],
      options({ perUser: 1, images: 'hide' }),
    );
    expect(hidden[0]?.media).toEqual([]);
  });

  it('reads nothing for a limit of 0 or no users', async () => {
    fakes.resetHits();
    expect(await reader().usersTweets(USER, 'tok-x', [GRACE], options({ limit: 0 }))).toEqual([]);
    expect(await reader().usersTweets(USER, 'tok-x', [], options())).toEqual([]);
    expect(fakes.hits('/twitter')).toBe(0);
  });

  it('leaves out a user X does not know and keeps the others', async () => {
    const tweets = await reader().usersTweets(USER, 'tok-x', ['999', LINUS], options({ perUser: 1 }));
    expect(texts(tweets)).toEqual(['New kernel scheduler patch set']);
  });
});

describe('timeline, search and lists', () => {
  it("reads the account's home timeline with a per-author cap", async () => {
    const tweets = await reader().timeline(USER, 'tok-x', options({ perUser: 1, limit: 4 }));
    expect(tweets.map((tweet) => tweet.user.username)).toEqual([
      'mayaortiz',
      'osweekly',
      'gracechen',
      'linuspark',
    ]);
    const popular = await reader().timeline(
      USER,
      'tok-x',
      options({ tweetType: 'popular', perUser: 3, limit: 2 }),
    );
    expect(texts(popular)).toEqual(['New typeface preview: a grotes', 'This week: a new release of th']);
  });

  it('sends the search filters as operators: retweets, replies, links only, images only', async () => {
    const search = (phrase: string, filters: Partial<SourceInputOf<'TWITTER_SEARCH'>> = {}) =>
      fetchSource({ type: 'TWITTER_SEARCH', tokenId: 'tok-x', search: phrase, limit: 20, ...filters }).then(
        (content) => content.tweets,
      );
    expect((await search('compiler')).map((tweet) => tweet.isRetweeted)).toEqual([true, false, false]);
    expect(lastQuery(/search/).query).toBe('compiler');
    expect(texts(await search('compiler', { hideRetweets: true, linksOnly: true }))).toEqual([
      'This week: a new release of th',
      'Finally wrote up how our incre',
    ]);
    expect(lastQuery(/search/).query).toBe('compiler -is:retweet has:links');
    await search('incremental compiler', {
      hideRetweets: true,
      hideReplies: true,
      linksOnly: true,
      imagesOnly: true,
    });
    expect(lastQuery(/search/)).toMatchObject({
      query: 'incremental compiler -is:retweet -is:reply has:links has:images',
      max_results: '60',
    });
    expect(texts(await search('scheduler'))).toEqual([
      'New kernel scheduler patch set',
      '@linuspark Agreed, the schedul',
      'The scheduler rewrite finally ',
    ]);
    expect(texts(await search('scheduler', { hideReplies: true }))).not.toContain(
      '@linuspark Agreed, the schedul',
    );
    expect(texts(await search('survived', { imagesOnly: true }))).toEqual(['Kiln day. Three bowls survived']);
    expect(await search('scheduler', { imagesOnly: true })).toEqual([]);
    const popular = await search('scheduler', { tweetType: 'popular', limit: 1 });
    expect(texts(popular)).toEqual(['The scheduler rewrite finally ']);
  });

  it('refuses a search whose first word has 2 characters or fewer', async () => {
    const search = { tweetType: 'latest', limit: 5, images: 'show' } as const;
    const filters = { hideRetweets: false, hideReplies: false, linksOnly: false, imagesOnly: false };
    await expect(
      reader().search(USER, 'tok-x', 'go compiler', { ...search, ...filters }),
    ).rejects.toMatchObject({
      kind: 'invalid_request',
    });
  });

  it("lists the account's own and followed lists and reads a list's tweets", async () => {
    expect(await reader().lists(USER, 'tok-x')).toEqual([
      { listId: '1600000000000000001', listName: 'Open source' },
      { listId: '1600000000000000002', listName: 'Design people' },
    ]);
    const tweets = await reader().listTweets(
      USER,
      'tok-x',
      '1600000000000000001',
      options({ perUser: 2, limit: 8 }),
    );
    expect(tweets.map((tweet) => tweet.user.username)).toEqual([
      'osweekly',
      'linuspark',
      'linuspark',
      'osweekly',
    ]);
    await expect(reader().listTweets(USER, 'tok-x', '42', options())).rejects.toMatchObject({
      kind: 'not_found',
      message: 'X (Twitter): list not found',
    });
  });

  it('suggests followed accounts by page and finds a username exactly or among followed accounts', async () => {
    const users = (queryType: 'suggestions' | 'search', search = '', limit = 10, page = 1) =>
      reader()
        .users(USER, 'tok-x', { queryType, search, limit, page })
        .then((list) => list.map((user) => user.username));
    expect(await users('suggestions')).toEqual(['gracechen', 'linuspark', 'osweekly', 'mayaortiz']);
    expect(await users('suggestions', '', 2, 2)).toEqual(['osweekly', 'mayaortiz']);
    expect(await users('search', '@GraceHopperFans')).toEqual(['gracehopperfans']);
    expect(await users('search', 'park')).toEqual(['linuspark']);
    expect(await users('search', 'nobody-here')).toEqual([]);
  });
});

describe("X's access rules: scopes, access tier, long posts", () => {
  afterEach(() => xApi.setTier('basic'));

  it('shows the whole text of a long post (note_tweet), not the first 280 characters X puts in text', async () => {
    const tweets = await reader().usersTweets(USER, 'tok-x', [MAYA], options({ perUser: 5, limit: 5 }));
    const long = tweets.find((tweet) => tweet.id === '1860000000000000017');
    expect(long?.text.length).toBeGreaterThan(280);
    expect(long?.text).toMatch(/^Notes from a week of drawing a new serif.*goes up on Friday\.$/);
    expect(long?.text).not.toContain('…');
  });

  it('asks to reconnect an account connected without follows.read before listing accounts, without asking X', async () => {
    fakes.resetHits();
    const error = await sourceFailure(
      reader().users(USER, 'tok-old', { queryType: 'suggestions', search: '', limit: 10, page: 1 }),
    );
    expect(error).toMatchObject({ kind: 'not_connected', statusCode: 409 });
    expect(error.message).toBe(
      'X (Twitter) has not let Digest read the accounts you follow: reconnect your X account on the Connected accounts page to grant follows.read.',
    );
    expect(fakes.hits('/twitter', '/2/users/')).toBe(0);
    // What that account was granted still works.
    expect(await reader().timeline(USER, 'tok-old', options())).toHaveLength(6);
  });

  it("turns X's 403 for a scope the token lacks into the same request to reconnect, never a raw 403", async () => {
    const error = await sourceFailure(
      reader().users(USER, 'tok-unknown-scopes', {
        queryType: 'suggestions',
        search: '',
        limit: 10,
        page: 1,
      }),
    );
    // X answered this one (403), unlike the check of the stored scopes before asking.
    expect(error).toMatchObject({ kind: 'not_connected', providerStatus: 403 });
    expect(error.message).toMatch(
      /^X \(Twitter\) has not let Digest read the accounts you follow: reconnect/,
    );
  });

  it.each([
    ['home timeline', () => reader().timeline(USER, 'tok-x', options()), 'your home timeline'],
    [
      'search',
      () =>
        reader().search(USER, 'tok-x', 'compiler', {
          ...options(),
          hideRetweets: false,
          hideReplies: false,
          linksOnly: false,
          imagesOnly: false,
        }),
      'search',
    ],
    ['lists', () => reader().lists(USER, 'tok-x'), 'your lists'],
    [
      "users' posts",
      () => reader().usersTweets(USER, 'tok-x', [GRACE], options()),
      'the posts of the accounts you chose',
    ],
  ])('says the %s needs a paid X API tier on the Free tier, not "reconnect"', async (_name, read, what) => {
    xApi.setTier('free', ADA_X_ID);
    const error = await sourceFailure(read());
    expect(error).toMatchObject({ kind: 'tier_required', statusCode: 502, providerStatus: 403 });
    expect(error.message).toBe(
      `X (Twitter) does not let this server read ${what}: it needs a paid X API access tier (Basic or higher), which the server's operator must subscribe to.`,
    );
  });

  it('says the app must be attached to a project when X answers client-not-enrolled', async () => {
    xApi.setTier('not-enrolled');
    const error = await sourceFailure(reader().timeline(USER, 'tok-x', options()));
    expect(error).toMatchObject({ kind: 'tier_required', providerStatus: 403 });
    expect(error.message).toMatch(
      /refuses this server's app: it is not attached to a project with X API access/,
    );
    expect(error.message).not.toMatch(/reconnect/);
  });

  it("says when the app's monthly cap is used up (429 usage-capped)", async () => {
    const error = await withProviderFailure(
      fakes,
      '/twitter',
      {
        status: 429,
        body: {
          title: 'UsageCapExceeded',
          detail: 'Usage cap exceeded: Monthly product cap',
          type: 'https://api.twitter.com/2/problems/usage-capped',
          period: 'Monthly',
          scope: 'Product',
        },
      },
      () => sourceFailure(reader().timeline(USER, 'tok-x', options())),
    );
    expect(error).toMatchObject({ kind: 'rate_limited', statusCode: 429 });
    expect(error.message).toMatch(/monthly read allowance/);
  });
});

describe('twitter failures', () => {
  const read = (timeoutMs?: number) => reader(timeoutMs).timeline(USER, 'tok-x', options());

  it('asks to reconnect an account X refuses, and calls an account the user does not own not connected', async () => {
    await expect(reader().timeline(USER, 'tok-revoked', options())).rejects.toMatchObject({
      kind: 'not_connected',
      message: 'X (Twitter) refused the connected account: reconnect your account',
    });
    await expect(reader().timeline('someone-else', 'tok-x', options())).rejects.toMatchObject({
      kind: 'not_connected',
    });
  });

  it('says when to retry after a 429, from x-rate-limit-reset', async () => {
    const reset = Math.floor(Date.now() / 1000) + 900;
    const error = await withProviderFailure(
      fakes,
      '/twitter',
      {
        status: 429,
        headers: { 'x-rate-limit-reset': String(reset), 'x-rate-limit-remaining': '0' },
        body: { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
      },
      () => sourceFailure(read()),
    );
    expect(error.message).toMatch(/^X \(Twitter\) answered 429: rate-limited, retry in (899|900) s$/);
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(899);
  });

  itReportsProviderFailures({
    fakes,
    prefix: '/twitter',
    provider: 'X (Twitter)',
    also: { notJson: true, messages: { upstream: providerDownMessage('X (Twitter)', 500) } },
    read,
  });

  // X's problem body for its own failure; a 5xx is X being down, not a refused account.
  itSaysProviderDown({
    fakes,
    prefix: '/twitter',
    provider: 'X (Twitter)',
    body: { title: 'Service Unavailable', detail: 'Service Unavailable', type: 'about:blank', status: 503 },
    read,
  });
});
