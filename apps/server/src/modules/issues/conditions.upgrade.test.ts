import { sourceSchema, storedSourceSchema } from '@digest/contracts';
import type { DigestBlockInput } from '@digest/email';
import { describe, expect, it } from 'vitest';
import { createDatabaseAt, UPGRADE_TEST_TIMEOUT_MS } from '#server-test/upgrade-database';
import { issueUnderConditions, skippedByConditions, withItemFilters } from './conditions';

// Migrating a fresh database twice (up to the old release, then on) takes a while on a busy machine.
const MIGRATING_TIMEOUT_MS = 90_000;

describe('upgrading to conditions (0020_digest_conditions)', { timeout: UPGRADE_TEST_TIMEOUT_MS }, () => {
  it(
    'reads digests stored before conditions as they were: no condition, every issue sent as before',
    async () => {
      const old = await createDatabaseAt('0019_catch_up');
      try {
        const [user] = (await old.sql(
          `insert into users (email, method) values ('old@example.com', 'email') returning user_id`,
        )) as { user_id: string }[];
        const hackerNews = {
          type: 'HACKER_NEWS',
          name: 'Hacker News',
          showHeading: true,
          numberOfPosts: 2,
          story: 'top',
          askHN: false,
          showHN: false,
          layout: 2,
          onlyNew: true,
        };
        const weather = {
          type: 'WEATHER',
          name: '',
          showHeading: true,
          forecastIntervalType: 1,
          temperatureType: 'C',
          latitude: 52.52,
          longitude: 13.4,
          locationName: 'Berlin',
        };
        const stripe = {
          type: 'STRIPE',
          name: 'Stripe',
          showHeading: true,
          stripeAccounts: [
            { tokenId: 'tok-1', username: 'Shop', revenue: true, payments: true, customers: false },
          ],
        };
        const sources = [hackerNews, weather, { type: 'DATE', name: '', showHeading: true }, stripe];
        await old.sql(
          `insert into digests (user_id, name, sources, send_only_when_new) values ($1, 'Morning', $2, true)`,
          [user?.user_id, JSON.stringify(sources)],
        );

        await old.upgrade();

        const [row] = (await old.sql(
          'select sources, send_only_when_new, min_sources_to_send from digests',
        )) as { sources: object[]; send_only_when_new: boolean; min_sources_to_send: number }[];
        expect(row?.send_only_when_new).toBe(true);
        expect(row?.min_sources_to_send).toBe(0);
        expect(row?.sources).toEqual(sources);
        // The new code reads and re-validates each as it was: no `conditions` appears.
        for (const source of row?.sources ?? []) {
          expect(storedSourceSchema.parse(source)).toEqual(source);
          expect(sourceSchema.parse(source)).toEqual(source);
        }

        // And builds the same issue from them: nothing filtered, nothing left out, nothing skipped.
        const [hn, forecast, date] = (row?.sources ?? []).map((source) => sourceSchema.parse(source));
        const blocks = [
          {
            source: hn,
            content: {
              items: [
                {
                  title: 'Quiet',
                  url: 'https://a.example',
                  storyUrl: 'https://news.ycombinator.com/item?id=1',
                  createdAt: '2026-11-21T00:00:00Z',
                  numberOfComments: 0,
                  score: 1,
                },
              ],
            },
          },
          {
            source: forecast,
            content: {
              locationName: 'Berlin',
              timezone: 'Europe/Berlin',
              forecastIntervalType: 1,
              temperatureType: 'C',
              forecasts: [
                {
                  date: '2026-11-21',
                  dayPart: 'Morning',
                  icon: 'clear-day',
                  summary: 'Clear',
                  tempCelsius: 5,
                  tempFahrenheit: 41,
                  highestCelsius: 6,
                  highestFahrenheit: 43,
                  lowestCelsius: 2,
                  lowestFahrenheit: 36,
                  precipitationPercent: 0,
                },
              ],
            },
          },
          { source: date, content: { date: '2026-11-21' } },
        ] as DigestBlockInput[];
        expect(withItemFilters(blocks)).toEqual(blocks);
        const result = issueUnderConditions(blocks, new Set());
        expect(result.unmet).toEqual([]);
        expect(result.issue.blocks).toEqual(blocks);
        expect(skippedByConditions(result, row?.min_sources_to_send ?? -1)).toBeUndefined();
      } finally {
        await old.close();
      }
    },
    MIGRATING_TIMEOUT_MS,
  );
});
