import { type HackerNewsSource, hackerNewsSourceSchema } from '@digest/contracts';
import type { HackerNewsContent } from '@digest/contracts/content';
import { describe, expect, it } from 'vitest';
import {
  connectorDeps,
  fakeProvidersForFile,
  itReportsProviderFailures,
} from '#server/sources/sources.test-support';
import { hackerNewsFake } from '#test/fakes/providers/hacker-news';
import { hackerNewsConnector } from './hacker-news.connector';

const fakes = fakeProvidersForFile([hackerNewsFake], '/hn');

const CONTEXT = { userId: 'user-1', timezone: 'UTC', locale: 'en-US' };

/** The fake moves its recorded stories to "now", so the real clock is the one that matches it. */
function stories(
  settings: Partial<HackerNewsSource> = {},
  timeoutMs?: number,
  window?: { since: Date; until: Date },
): Promise<HackerNewsContent> {
  const deps = connectorDeps(fakes, { timeoutMs });
  const source = hackerNewsSourceSchema.parse({ type: 'HACKER_NEWS', ...settings });
  return hackerNewsConnector(deps).fetchContent(source, { ...CONTEXT, ...(window ? { window } : {}) });
}

const titles = (content: HackerNewsContent) => content.items.map((item) => item.title);

describe('top stories', () => {
  it('gives the front page by points, 6 by default, with links, comments and score', async () => {
    const content = await stories();
    expect(content.items.map((item) => item.score)).toEqual([812, 654, 597, 402, 311, 288]);
    const [first] = content.items;
    expect(first).toMatchObject({
      title: 'SQLite is not a toy database',
      url: 'https://antonz.org/sqlite-is-not-a-toy-database/',
      numberOfComments: 341,
      score: 812,
    });
    expect(first?.storyUrl).toMatch(/^https:\/\/news\.ycombinator\.com\/item\?id=\d+$/);
    expect(new Date(first?.createdAt ?? '').toISOString()).toBe(first?.createdAt);
  });

  it('links a story without a URL (Ask HN) to its discussion page', async () => {
    const content = await stories();
    const ask = content.items.find((item) => item.title.startsWith('Ask HN'));
    expect(ask?.url).toBe(ask?.storyUrl);
  });

  it('gives nothing for 0 posts without asking Hacker News, and 10 at most', async () => {
    expect(await stories({ numberOfPosts: 0 })).toEqual({ items: [] });
    expect(fakes.hits('/hn')).toBe(0);
    expect((await stories({ numberOfPosts: 10 })).items).toHaveLength(10);
  });

  it('mixes in the best Ask HN stories of the last two days, ordered by points', async () => {
    const content = await stories({ askHN: true });
    expect(titles(content)).toEqual([
      'SQLite is not a toy database',
      'The hardest working font in Manhattan',
      'Postgres 18 released with asynchronous I/O',
      'Ask HN: Who is hiring? (November 2026)',
      'Ask HN: What are you working on this weekend?',
      'Ask HN: What is your favourite debugging story?',
    ]);
    const all = await stories({ askHN: true, numberOfPosts: 10 });
    expect(titles(all)).not.toContain('Ask HN: How did you learn to write well?');
  });
});

describe('latest stories', () => {
  it('gives the newest stories first', async () => {
    const content = await stories({ story: 'latest', numberOfPosts: 4 });
    expect(titles(content)).toEqual([
      'Rust 1.92 release notes',
      'Ask HN: How do you keep notes across machines?',
      'The economics of small satellites',
      'Show HN: A CLI to diff two OpenAPI documents',
    ]);
    const dates = content.items.map((item) => item.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('gives Ask HN and Show HN stories an equal share, newest first', async () => {
    const content = await stories({ story: 'latest', askHN: true, showHN: true });
    expect(titles(content)).toEqual([
      'Rust 1.92 release notes',
      'Ask HN: How do you keep notes across machines?',
      'The economics of small satellites',
      'Show HN: A CLI to diff two OpenAPI documents',
      'Show HN: I made a game about packet routing',
      'Ask HN: Is anyone else tired of dark patterns in SaaS billing?',
    ]);
  });
});

describe('Hacker News failures', () => {
  itReportsProviderFailures({
    fakes,
    prefix: '/hn',
    provider: 'Hacker News',
    also: { notFound: true, shape: { results: [] } },
    read: (timeoutMs) => stories({}, timeoutMs),
  });
});

describe('a catch-up issue: the best stories posted in its window', () => {
  it('gives the stories posted between since and until, most points first, whatever the usual order', async () => {
    const all = await stories({ story: 'latest', numberOfPosts: 10 });
    const times = all.items.map((item) => Date.parse(item.createdAt)).sort((a, b) => a - b);
    // A window that leaves out the newest and the oldest of the latest stories.
    const since = new Date((times[1] ?? 0) - 1);
    const until = new Date(times.at(-2) ?? 0);
    const content = await stories({ story: 'latest', numberOfPosts: 10 }, undefined, { since, until });
    expect(content.items.length).toBeGreaterThan(0);
    for (const item of content.items) {
      expect(Date.parse(item.createdAt)).toBeGreaterThan(since.getTime());
      expect(Date.parse(item.createdAt)).toBeLessThanOrEqual(until.getTime());
    }
    const scores = content.items.map((item) => item.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(titles(content)).not.toContain(all.items[0]?.title);
  });

  it('gives nothing for a window before any story', async () => {
    const content = await stories({}, undefined, { since: new Date(0), until: new Date(1_000) });
    expect(content).toEqual({ items: [] });
  });
});
