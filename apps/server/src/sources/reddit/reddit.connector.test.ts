import { type RedditSource, redditSourceSchema } from '@digest/contracts';
import type { RedditContent } from '@digest/contracts/content';
import { describe, expect, it } from 'vitest';
import {
  connectorDeps,
  fakeProvidersForFile,
  itReportsProviderFailures,
  itSaysProviderDown,
  providerDownMessage,
  sourceFailure,
} from '#server/sources/sources.test-support';
import { testClock } from '#server-test/test-clock';
import { createRedditFake } from '#test/fakes/providers/reddit';
import { redditClient } from './reddit.client';
import { redditConnector, subredditList } from './reddit.connector';

const reddit = createRedditFake();
const fakes = fakeProvidersForFile([reddit], '/reddit');

const CONTEXT = { userId: 'user-1', timezone: 'UTC', locale: 'en-US' };
type Mode = 'public' | 'oauth';

/** The fake's variables; without the app credentials Reddit is read through its public endpoints. */
function envFor(mode: Mode, overrides: Record<string, string> = {}) {
  const env = Object.fromEntries(
    Object.entries(fakes.env).filter(([name]) => mode === 'oauth' || !name.startsWith('REDDIT_CLIENT_')),
  );
  return { env: { ...env, ...overrides } };
}

function depsFor(mode: Mode, options: { timeoutMs?: number; env?: Record<string, string> } = {}) {
  const clock = testClock(new Date());
  const deps = connectorDeps(envFor(mode, options.env), {
    clock,
    timeoutMs: options.timeoutMs,
  });
  return { deps, clock };
}

function posts(
  settings: Partial<RedditSource> = {},
  options: { mode?: Mode; timeoutMs?: number } = {},
): Promise<RedditContent> {
  const { deps } = depsFor(options.mode ?? 'public', options);
  const source = redditSourceSchema.parse({ type: 'REDDIT', sourceName: 'programming', ...settings });
  return redditConnector(deps).fetchContent(source, CONTEXT);
}

const byId = (content: RedditContent, id: string) => content.posts.find((post) => post.id === id);

describe('subreddit posts', () => {
  it('gives the hot posts, 6 by default, leaving out pinned and NSFW posts', async () => {
    const content = await posts();
    expect(content.subreddit).toBe('programming');
    expect(content.posts.map((post) => post.id)).toEqual([
      '1gwd3x1',
      '1gwa7pq',
      '1gwbn4t',
      '1gw8h1c',
      '1gw7zz0',
      '1gw6c5e',
    ]);
    expect(content.posts[0]).toMatchObject({
      title: 'PostgreSQL 18: asynchronous I/O in practice',
      ups: 1843,
      numComments: 212,
    });
    expect(content.posts[0]?.url).toMatch(/^https:\/\/www\.reddit\.com\/r\/programming\/comments\/1gwd3x1\//);
  });

  it('gives nothing for 0 posts without asking Reddit, and 10 at most', async () => {
    expect((await posts({ numberOfPosts: 0 })).posts).toEqual([]);
    expect(fakes.hits('/reddit')).toBe(0);
    expect((await posts({ numberOfPosts: 10 })).posts).toHaveLength(10);
  });

  it('shows the preview picture (unescaped), else a picture thumbnail, else none', async () => {
    const content = await posts({ numberOfPosts: 10 });
    expect(byId(content, '1gwd3x1')?.image).toBe(
      'https://external-preview.redd.it/pg18-async-io.png?auto=webp&s=1a2b3c4d5e6f',
    );
    expect(byId(content, '1gwbn4t')?.image).toBe('https://b.thumbs.redditmedia.com/Hk2pq8Lw1mV3sA0e.jpg');
    expect(byId(content, '1gw8h1c')?.image).toBe('');
    expect(byId(content, '1gwa7pq')?.image).toBe('');
  });

  it('shows no pictures when images are hidden', async () => {
    const content = await posts({ numberOfPosts: 10, images: 'hide' });
    expect(content.posts.map((post) => post.image).filter(Boolean)).toEqual([]);
  });

  it('gives the first paragraph of the self text by default', async () => {
    const content = await posts();
    expect(byId(content, '1gwa7pq')?.selfText).toBe(
      '<p>We had 40 YAML files and three people who understood them. <strong>Nobody</strong> wanted to touch them.</p>',
    );
    expect(byId(content, '1gwd3x1')?.selfText).toBe('');
  });

  it('gives the whole self text sanitised, its Reddit links made absolute', async () => {
    const selfText = byId(await posts({ postBody: 'full' }), '1gwa7pq')?.selfText ?? '';
    expect(selfText).toMatch(/<a href="https:\/\/www\.reddit\.com\/r\/nixos"[^>]*>r\/nixos<\/a>/);
    expect(selfText).toContain('<li>builds: 14 min → 6 min</li>');
    expect(selfText).not.toContain('class=');
    expect(selfText).not.toContain('SC_OFF');
  });

  it('gives no self text when post content is hidden', async () => {
    const content = await posts({ postBody: 'hide' });
    expect(content.posts.map((post) => post.selfText).filter(Boolean)).toEqual([]);
  });
});

describe('subreddits that cannot be read', () => {
  it.each([
    ['private_club', 'r/private_club is private: only its approved members can read it'],
    ['banned_example', 'r/banned_example was banned by Reddit'],
    ['no_such_sub_42', 'r/no_such_sub_42 does not exist'],
  ])('says why r/%s cannot be read', async (name, message) => {
    const error = await sourceFailure(posts({ sourceName: name }));
    expect(error).toMatchObject({ kind: 'not_found', statusCode: 404, message });
  });

  it('names an unknown subreddit through the OAuth API too', async () => {
    const error = await sourceFailure(posts({ sourceName: 'no_such_sub_42' }, { mode: 'oauth' }));
    expect(error.message).toBe('r/no_such_sub_42 does not exist');
  });
});

describe('when Reddit refuses this server its JSON API (403 to unauthenticated requests)', () => {
  const blocked = async <T>(read: () => Promise<T>) => {
    reddit.blockServer(true);
    try {
      return await read();
    } finally {
      reddit.blockServer(false);
    }
  };

  it('reads the subreddit through its public feed: titles, links, pictures and self text, counts unknown', async () => {
    const content = await blocked(() => posts({ numberOfPosts: 10 }));
    expect(fakes.hits('/reddit', '/r/programming/.rss')).toBe(1);
    expect(content.subreddit).toBe('programming');
    expect(content.posts).toHaveLength(10);
    const first = byId(content, '1gwd3x1');
    expect(first).toMatchObject({
      title: 'PostgreSQL 18: asynchronous I/O in practice',
      ups: null,
      numComments: null,
      image: 'https://b.thumbs.redditmedia.com/7dQe1kPj2x9gq3yZ.jpg',
    });
    expect(first?.url).toMatch(/^https:\/\/www\.reddit\.com\/r\/programming\/comments\/1gwd3x1\//);
    expect(byId(content, '1gwa7pq')?.selfText).toBe(
      '<p>We had 40 YAML files and three people who understood them. <strong>Nobody</strong> wanted to touch them.</p>',
    );
    // "submitted by … [link] [comments]" is Reddit's feed furniture, not the post.
    expect(content.posts.map((post) => post.selfText).join('')).not.toMatch(/submitted by|\[comments\]/);
  });

  it('never says a readable subreddit "was not found" when Reddit refuses the server and its feed too', async () => {
    const error = await blocked(() => sourceFailure(posts({ sourceName: 'private_club' })));
    expect(error.kind).toBe('blocked');
    expect(error.message).toBe(
      "Reddit refuses requests from this server (403): the server needs a Reddit app (REDDIT_CLIENT_ID) to use its API, and r/private_club's public feed could not be read either (Reddit's feed of r/private_club answered 403: access refused)",
    );
    expect(error.message).not.toMatch(/not found|does not exist/);
  });

  it('still says a subreddit that exists nowhere does not exist', async () => {
    const error = await blocked(() => sourceFailure(posts({ sourceName: 'no_such_sub_42' })));
    expect(error).toMatchObject({ kind: 'not_found', message: 'r/no_such_sub_42 does not exist' });
  });

  it('gives no subreddit list but says the posts come from feeds (access: feed)', async () => {
    const page = await blocked(() => subredditList(redditClient(depsFor('public').deps), { limit: 20 }));
    expect(page).toEqual({ subreddits: [], after: null, access: 'feed' });
    const search = await blocked(() =>
      subredditList(redditClient(depsFor('public').deps), { limit: 20, search: 'program' }),
    );
    expect(search.access).toBe('feed');
  });

  it('reads the API, not the feed, with a Reddit app configured', async () => {
    const content = await blocked(() => posts({}, { mode: 'oauth' }));
    expect(content.posts[0]?.ups).toBe(1843);
    expect(fakes.hits('/reddit', '.rss')).toBe(0);
  });
});

describe("Reddit's rate limit", () => {
  it('backs off for the seconds x-ratelimit-reset counts from now, and says when to retry', async () => {
    reddit.limitReached(412);
    try {
      const error = await sourceFailure(posts({ sourceName: 'worldnews' }));
      expect(error).toMatchObject({ kind: 'rate_limited', statusCode: 429 });
      // 412 s from now (Reddit's unit), not the epoch second 412.
      expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(411);
      expect(error.retryAfterSeconds).toBeLessThanOrEqual(412);
      expect(error.message).toMatch(/^Reddit answered 429: rate-limited, retry in 41[12] s$/);
    } finally {
      reddit.limitReached(undefined);
    }
  });

  it('sends its rate-limit headers with every answer, as Reddit does', async () => {
    const response = await fetch(`${fakes.env.REDDIT_BASE_URL}/r/programming/hot.json`, {
      headers: { 'user-agent': 'web:test:1.0 (by /u/test)' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+\.0$/);
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(600);
  });
});

describe('with a Reddit app configured', () => {
  it('reads the OAuth API with one app token, asked for once', async () => {
    const { deps } = depsFor('oauth');
    const connector = redditConnector(deps);
    const source = redditSourceSchema.parse({ type: 'REDDIT', sourceName: 'programming' });
    const first = await connector.fetchContent(source, CONTEXT);
    await connector.fetchContent({ ...source, sourceName: 'worldnews' }, CONTEXT);
    expect(first.posts).toHaveLength(6);
    expect(fakes.hits('/reddit', '/api/v1/access_token')).toBe(1);
    expect(fakes.hits('/reddit', '/oauth/r/')).toBe(2);
    expect(fakes.hits('/reddit', '/r/')).toBe(0);
  });

  it('asks for a new token once the old one has expired', async () => {
    const { deps, clock } = depsFor('oauth');
    const connector = redditConnector(deps);
    const source = redditSourceSchema.parse({ type: 'REDDIT', sourceName: 'programming' });
    await connector.fetchContent(source, CONTEXT);
    clock.advance(24 * 3600 * 1000);
    await connector.fetchContent(source, CONTEXT);
    expect(fakes.hits('/reddit', '/api/v1/access_token')).toBe(2);
  });

  it('says so when Reddit refuses the app credentials', async () => {
    const { deps } = depsFor('oauth', { env: { REDDIT_CLIENT_SECRET: 'not-the-secret' } });
    const source = redditSourceSchema.parse({ type: 'REDDIT', sourceName: 'programming' });
    const error = await sourceFailure(redditConnector(deps).fetchContent(source, CONTEXT));
    expect(error.message).toBe('Reddit refused this server’s app credentials (REDDIT_CLIENT_ID)');
  });
});

describe('Reddit failures', () => {
  itReportsProviderFailures({
    fakes,
    prefix: '/reddit',
    provider: 'Reddit',
    also: {
      shape: '<!doctype html><p>reddit is down</p>',
      messages: { upstream: providerDownMessage('Reddit', 500) },
    },
    read: (timeoutMs) => posts({}, { timeoutMs }),
  });

  itSaysProviderDown({
    fakes,
    prefix: '/reddit',
    provider: 'Reddit',
    body: '<!doctype html><h1>all of our servers are busy right now</h1>',
    read: () => posts(),
  });

  it('says Reddit is not answering, not that the server lacks an app, when it refuses the API and its feed is down', async () => {
    reddit.blockServer(true);
    reddit.feedsDown(503);
    try {
      const error = await sourceFailure(posts());
      expect(error).toMatchObject({
        kind: 'upstream',
        providerStatus: 503,
        message: providerDownMessage('Reddit', 503),
      });
    } finally {
      reddit.blockServer(false);
      reddit.feedsDown(undefined);
    }
  });
});

describe('subreddit lists', () => {
  it('lists popular subreddits with name, description, subscribers, link and icon, NSFW left out', async () => {
    const { subreddits, after } = await subredditList(redditClient(depsFor('public').deps), { limit: 20 });
    expect(subreddits).toHaveLength(13);
    expect(subreddits.map((entry) => entry.name)).not.toContain('nsfw_example');
    expect(after).toBeNull();
    expect(subreddits[0]).toEqual({
      name: 'AskReddit',
      description: 'r/AskReddit is the place to ask and answer thought-provoking questions.',
      subscribers: 50213477,
      url: 'https://www.reddit.com/r/AskReddit/',
      icon: 'https://styles.redditmedia.com/t5_2qh1i/styles/communityIcon_p6kb2m6b185b1.png?width=256&s=13ab25fa6e3a2b5c7e5d3c7f0f2c1d9b2c0e1a4f',
    });
    expect(subreddits.find((entry) => entry.name === 'programming')?.icon).toBe('');
  });

  it('pages on with `after`', async () => {
    const client = redditClient(depsFor('oauth').deps);
    const first = await subredditList(client, { limit: 5 });
    expect(first.subreddits.map((entry) => entry.name)).toEqual([
      'AskReddit',
      'funny',
      'worldnews',
      'programming',
      'pics',
    ]);
    expect(first.after).toBe('t5_2qh0u');
    const next = await subredditList(client, { limit: 5, after: first.after ?? '' });
    expect(next.subreddits.map((entry) => entry.name)).toEqual([
      'aww',
      'videos',
      'technology',
      'learnprogramming',
    ]);
  });

  it('searches subreddits by name and description', async () => {
    const { subreddits } = await subredditList(redditClient(depsFor('public').deps), {
      limit: 20,
      search: 'program',
    });
    expect(subreddits.map((entry) => entry.name)).toEqual([
      'programming',
      'learnprogramming',
      'ProgrammerHumor',
    ]);
  });
});
