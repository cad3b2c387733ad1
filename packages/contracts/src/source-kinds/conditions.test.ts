import { describe, expect, it } from 'vitest';
import { type SourceInput, sourceSchema, storedSourceSchema } from '../sources';

/** The first refusal of a source, or undefined when it is accepted. */
const refusal = (source: SourceInput | Record<string, unknown>) =>
  sourceSchema.safeParse(source).error?.issues[0]?.message;

const WEATHER = { type: 'WEATHER', latitude: 52.2, longitude: 21, locationName: 'Warsaw' } as const;
const STRIPE = { type: 'STRIPE' as const, stripeAccounts: [{ tokenId: 'tok-1' }] };

describe('conditions in the kinds\u2019 schemas (docs/product.md §3 "Conditions")', () => {
  it('are absent by default: a source without them parses as before, with no `conditions`', () => {
    for (const source of [WEATHER, STRIPE, { type: 'HACKER_NEWS' }, { type: 'REDDIT', sourceName: 'rust' }]) {
      const parsed = sourceSchema.parse(source);
      expect(parsed).not.toHaveProperty('conditions');
      expect(storedSourceSchema.parse(parsed)).toEqual(parsed);
    }
  });

  it('keep what each kind allows', () => {
    const cases: SourceInput[] = [
      { ...WEATHER, conditions: { rainAtLeast: 0 } },
      { ...WEATHER, conditions: { rainAtLeast: 100, temperatureOutside: { min: -4.5, max: 30 } } },
      { type: 'HACKER_NEWS', conditions: { minPoints: 0, minComments: 10, minNewItems: 10 } },
      { type: 'REDDIT', sourceName: 'rust', conditions: { minPoints: 50 } },
      { ...STRIPE, conditions: { revenueChangeAbove: 12.5 } },
      { type: 'RSS', feedLink: 'https://example.com/feed', conditions: { minNewItems: 50 } },
      { type: 'PRODUCT_HUNT', conditions: { minNewItems: 1 } },
    ];
    for (const source of cases) {
      const parsed = sourceSchema.parse(source) as { conditions?: unknown };
      expect(parsed.conditions).toEqual((source as { conditions?: unknown }).conditions);
    }
  });

  it.each([
    [{ ...WEATHER, conditions: { rainAtLeast: 101 } }, 'Rain chance at least (%) must be from 0 to 100'],
    [{ ...WEATHER, conditions: { rainAtLeast: -1 } }, 'Rain chance at least (%) must be from 0 to 100'],
    [{ ...WEATHER, conditions: { rainAtLeast: 50.5 } }, 'Rain chance at least (%) must be a whole number'],
    [
      { ...WEATHER, conditions: { temperatureOutside: { min: 10, max: 10 } } },
      'Lowest temperature must be below the highest',
    ],
    [{ ...WEATHER, conditions: { temperatureOutside: { min: 10 } } }, 'Highest temperature must be a number'],
    [
      { ...WEATHER, conditions: { temperatureOutside: { min: -200, max: 0 } } },
      'Lowest temperature must be from -150 to 150',
    ],
    [{ type: 'HACKER_NEWS', conditions: { minPoints: -1 } }, 'Points at least must be 0 or more'],
    [{ type: 'HACKER_NEWS', conditions: { minComments: 'many' } }, 'Comments at least must be a number'],
    [{ type: 'HACKER_NEWS', conditions: { minNewItems: 0 } }, 'New items at least must be from 1 to 10'],
    [{ type: 'HACKER_NEWS', conditions: { rainAtLeast: 50 } }, 'Unknown condition: rainAtLeast'],
    [
      { type: 'TWITTER_SEARCH', tokenId: 't', search: 'typescript', conditions: { minNewItems: 21 } },
      'New items at least must be from 1 to 20',
    ],
    [
      { ...STRIPE, conditions: { revenueChangeAbove: 1001 } },
      'Revenue change above (%) must be from 0 to 1000',
    ],
    [
      { ...STRIPE, conditions: { revenueChangeAbove: -1 } },
      'Revenue change above (%) must be from 0 to 1000',
    ],
    [{ type: 'DATE', conditions: {} }, 'Unrecognized key: "conditions"'],
  ])('refuse a bad threshold with a message naming the field (%#)', (source, message) => {
    expect(refusal(source)).toBe(message);
  });
});
