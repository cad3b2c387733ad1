import { type Source, type SourceInput, sourceSchema } from '@digest/contracts';
import type { DigestBlockInput } from '@digest/email';
import { describe, expect, it } from 'vitest';
import { type Connectors, createConnectors } from '#server/sources/connectors';
import {
  connectorDeps,
  fakeAccessToken,
  fakeProvidersForFile,
  testAccountTokens,
} from '#server/sources/sources.test-support';
import { testClock } from '#server-test/test-clock';
import { hackerNewsFake } from '#test/fakes/providers/hacker-news';
import { openMeteoFake } from '#test/fakes/providers/open-meteo';
import { createRedditFake } from '#test/fakes/providers/reddit';
import { stripeFake } from '#test/fakes/providers/stripe';
import { issueUnderConditions, skippedByConditions, withItemFilters } from './conditions';
import { fetchIssueBlocks } from './issue-content';

/**
 * docs/product.md §3 "Conditions" on the providers' recorded answers, read through the real connectors over
 * HTTP: what each kind's condition leaves out, and why a source or an issue has nothing to say.
 */

const fakes = fakeProvidersForFile([
  openMeteoFake,
  hackerNewsFake,
  createRedditFake(),
  stripeFake({ moveToNow: false }),
]);

const USER = 'user-1';
const accounts = testAccountTokens(USER, {
  'tok-engines': {
    provider: 'STRIPE',
    accessToken: fakeAccessToken('stripe', 'acct_1NlQm2Lk8f5Gx0aB'),
    username: 'Analytical Engines',
  },
});
const CONTEXT = { userId: USER, timezone: 'Europe/Warsaw', locale: 'en-US' };
/** The instant the fixtures were recorded at: the Stripe charges are of the 24 hours before it. */
const RECORDED = '2026-11-21T12:00:00Z';

function connectors(now = RECORDED): Connectors {
  return createConnectors(connectorDeps(fakes, { accounts, clock: testClock(new Date(now)) }));
}

const source = (input: SourceInput): Source => sourceSchema.parse(input);

async function blocksOf(sources: SourceInput[], now?: string): Promise<DigestBlockInput[]> {
  const { blocks } = await fetchIssueBlocks(connectors(now), sources.map(source), CONTEXT, (error) => {
    throw error;
  });
  for (const block of blocks) expect(block.error).toBeUndefined();
  return blocks;
}

const WARSAW = { type: 'WEATHER', latitude: 52.2298, longitude: 21.0118, locationName: 'Warsaw' } as const;

/** What the issue build makes of the blocks with nothing sent before: who is left out and why. */
function underConditions(blocks: DigestBlockInput[]) {
  return issueUnderConditions(withItemFilters(blocks), new Set());
}

describe('weather: only if rain is likely today, or the temperature leaves a range', () => {
  it("reads today's highest chance of rain (93 % in Warsaw's 1-day forecast): met at 93 %, not at 94 %", async () => {
    const met = underConditions(
      await blocksOf([{ ...WARSAW, forecastIntervalType: 1, conditions: { rainAtLeast: 93 } }]),
    );
    expect(met.unmet).toEqual([]);
    expect(met.issue.blocks).toHaveLength(1);

    const unmet = underConditions(
      await blocksOf([{ ...WARSAW, forecastIntervalType: 1, conditions: { rainAtLeast: 94 } }]),
    );
    expect(unmet.unmet).toEqual([{ title: 'Weather', reason: 'no rain expected (93 % < 94 %)' }]);
    expect(unmet.issue.blocks).toEqual([]);
    expect(skippedByConditions(unmet, 0)).toBe('Skipped: no rain expected (93 % < 94 %).');
  });

  it("the 5-day forecast looks at today only; the range is in the block's unit", async () => {
    // Today in Warsaw: 7 °C (44 °F) at most, 32 °F at least.
    const [fahrenheit] = await blocksOf([
      { ...WARSAW, forecastIntervalType: 5, conditions: { temperatureOutside: { min: 30, max: 50 } } },
    ]);
    const inside = underConditions([fahrenheit as DigestBlockInput]);
    expect(inside.unmet).toEqual([
      { title: 'Weather', reason: 'the temperature stays within 30 to 50 °F (32 to 44 °F today)' },
    ]);
    const [colder] = await blocksOf([
      { ...WARSAW, forecastIntervalType: 5, conditions: { temperatureOutside: { min: 33, max: 50 } } },
    ]);
    expect(underConditions([colder as DigestBlockInput]).unmet).toEqual([]);
  });

  it('with both conditions, either one met is enough', async () => {
    const blocks = await blocksOf([
      {
        ...WARSAW,
        forecastIntervalType: 5,
        temperatureType: 'C',
        conditions: { rainAtLeast: 100, temperatureOutside: { min: -10, max: 5 } },
      },
    ]);
    expect(underConditions(blocks).unmet).toEqual([]);
  });
});

describe('Hacker News and Reddit: only items with enough points and comments', () => {
  it('Hacker News keeps the front-page stories with at least 300 points and 90 comments', async () => {
    const [all] = await blocksOf([{ type: 'HACKER_NEWS', numberOfPosts: 10 }]);
    const [filtered] = withItemFilters(
      await blocksOf([
        { type: 'HACKER_NEWS', numberOfPosts: 10, conditions: { minPoints: 300, minComments: 90 } },
      ]),
    );
    const scores = (block: DigestBlockInput | undefined) =>
      (
        (block as DigestBlockInput).content as { items: { score: number; numberOfComments: number }[] }
      ).items.map((item) => `${item.score}/${item.numberOfComments}`);
    expect(scores(all)).toHaveLength(10);
    // Highest score first: 812/341, 654/98, 597/154 and 311/702 reach both; 288/77, 402/45 and the rest do not.
    expect(scores(filtered)).toEqual(['812/341', '654/98', '597/154', '311/702']);
  });

  it('Reddit keeps the posts with at least 300 comments', async () => {
    const [filtered] = withItemFilters(
      await blocksOf([
        { type: 'REDDIT', sourceName: 'programming', numberOfPosts: 10, conditions: { minComments: 300 } },
      ]),
    );
    const posts = ((filtered as DigestBlockInput).content as { posts: { numComments: number | null }[] })
      .posts;
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.every((post) => (post.numComments ?? 0) >= 300)).toBe(true);
    expect(posts.map((post) => post.numComments)).toEqual([388, 301, 409]);
  });

  it('an item whose counts are unknown (Reddit read through its feed) does not reach a threshold', () => {
    const block = {
      source: source({ type: 'REDDIT', sourceName: 'programming', conditions: { minPoints: 1 } }),
      content: {
        subreddit: 'programming',
        posts: [
          {
            id: 'a',
            url: 'https://www.reddit.com/a',
            ups: null,
            numComments: null,
            title: 'A',
            selfText: '',
            image: '',
          },
        ],
      },
    } as DigestBlockInput;
    const [filtered] = withItemFilters([block]);
    expect(((filtered as DigestBlockInput).content as { posts: unknown[] }).posts).toEqual([]);
  });
});

describe('Stripe: only if revenue changed by more than N % from the day before', () => {
  const stripe = (revenueChangeAbove: number) => ({
    type: 'STRIPE' as const,
    stripeAccounts: [{ tokenId: 'tok-engines' }],
    conditions: { revenueChangeAbove },
  });

  it('reads the day before too: $121.00 then $1,607.10 is a change of 1,228.2 %', async () => {
    const [block] = await blocksOf([stripe(1000)]);
    expect(block?.content).toMatchObject({ accounts: [{ revenue: 160710, previousRevenue: 12100 }] });
    expect(underConditions([block as DigestBlockInput]).unmet).toEqual([]);
  });

  it('a day without sales after $1,607.10 is a change of 100 %: not more than 100 %', async () => {
    const blocks = await blocksOf([stripe(100)], '2026-11-22T12:00:00Z');
    expect(underConditions(blocks).unmet).toEqual([
      { title: 'Stripe', reason: 'revenue changed by 100 % (not more than 100 %)' },
    ]);
    expect(underConditions(await blocksOf([stripe(99.5)], '2026-11-22T12:00:00Z')).unmet).toEqual([]);
  });

  it('reads only the period itself without the condition', async () => {
    fakes.resetHits();
    const [block] = await blocksOf([{ type: 'STRIPE', stripeAccounts: [{ tokenId: 'tok-engines' }] }]);
    expect(block?.content).not.toMatchObject({ accounts: [{ previousRevenue: expect.anything() }] });
    expect(fakes.hits('/stripe', '/v1/charges')).toBe(2);
  });
});

describe('any list source: only if it has at least N new items', () => {
  it('counts the items no earlier issue carried; too few leaves the source out, with the count', async () => {
    const blocks = await blocksOf([
      { type: 'HACKER_NEWS', numberOfPosts: 3, conditions: { minNewItems: 2 } },
    ]);
    expect(underConditions(blocks).unmet).toEqual([]);
    // Two of its three stories went in an earlier issue: one new item is not enough.
    const keys = (await import('./new-items')).rememberedKeysOf(blocks).slice(0, 2);
    const sent = new Set(keys.map((key) => `${key.sourceKey} ${key.identity}`));
    const result = issueUnderConditions(blocks, sent);
    expect(result.unmet).toEqual([{ title: 'Hacker News', reason: '1 new item (at least 2 needed)' }]);
    expect(skippedByConditions(result, 0)).toBe('Skipped: 1 new item (at least 2 needed).');
  });
});

describe('the digest: send only if at least N sources have something to say', () => {
  it('counts the sources with content after their conditions (never the date) and names the others', async () => {
    const blocks = await blocksOf([
      { type: 'DATE' },
      { ...WARSAW, forecastIntervalType: 1, conditions: { rainAtLeast: 94 } },
      { type: 'HACKER_NEWS', numberOfPosts: 3 },
    ]);
    const result = underConditions(blocks);
    expect(result.issue.blocks.map((block) => block.source.type)).toEqual(['DATE', 'HACKER_NEWS']);
    expect(skippedByConditions(result, 0)).toBeUndefined();
    expect(skippedByConditions(result, 1)).toBeUndefined();
    expect(skippedByConditions(result, 2)).toBe(
      'Skipped: 1 of 3 sources had something to say, at least 2 needed (no rain expected (93 % < 94 %)).',
    );
  });
});
