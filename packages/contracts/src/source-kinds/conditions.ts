import * as z from 'zod/mini';

/**
 * docs/product.md §3 "Conditions": a source's optional rules for when it is worth reading. Item filters
 * (points, comments) leave items out of its block; gates (rain, temperature, revenue change, new items)
 * decide whether the source has something to say at all: a source whose gate is not met is left out of the
 * issue, and an issue in which nothing is left — or fewer sources than the digest asks for — is skipped
 * with the reason in words. Every condition is optional and absent by default, so a source saved before
 * conditions existed (no `conditions` field) reads and builds exactly as it did.
 */

/** Labels of the builder's fields, also the subject of each refusal below. */
export const CONDITION_LABELS = {
  rainAtLeast: 'Rain chance at least (%)',
  temperatureMin: 'Lowest temperature',
  temperatureMax: 'Highest temperature',
  minPoints: 'Points at least',
  minComments: 'Comments at least',
  revenueChangeAbove: 'Revenue change above (%)',
  minNewItems: 'New items at least',
} as const;

/** The largest revenue change one can ask for: a tenfold day is rare enough to want to hear about. */
export const MAX_REVENUE_CHANGE_PERCENT = 1000;
/** Temperatures a forecast can have, in °C or °F alike (a typo such as 2500 is refused). */
const TEMPERATURE_LIMIT = 150;

/** An object's own message, but a key it does not have is named ("Unknown condition: rainAtLeast"). */
const objectError =
  (message: string) =>
  (issue: { code: string; keys?: readonly string[] }): string =>
    issue.code === 'unrecognized_keys' ? `Unknown condition: ${(issue.keys ?? []).join(', ')}` : message;

const number = (label: string) => z.number({ error: `${label} must be a number` });
const whole = (label: string) => number(label).check(z.int({ error: `${label} must be a whole number` }));
const between = (label: string, schema: z.ZodMiniNumber, min: number, max: number) =>
  schema.check(
    z.gte(min, { error: `${label} must be from ${min} to ${max}` }),
    z.lte(max, { error: `${label} must be from ${min} to ${max}` }),
  );

/** A count an item or a source must reach: a whole number from 0. */
const atLeast = (label: string) =>
  whole(label).check(
    z.gte(0, { error: `${label} must be 0 or more` }),
    z.lte(1_000_000, {
      error: `${label} must be at most 1,000,000`,
    }),
  );

/** "Only if it has at least N new items", N up to the kind's count (more could never be met). */
const minNewItems = (maxItems: number) =>
  z.optional(between(CONDITION_LABELS.minNewItems, whole(CONDITION_LABELS.minNewItems), 1, maxItems));

/**
 * Conditions are strict objects of optional fields, each kind its own, last in the kind's shape (where the
 * compiled response serialiser writes an optional setting).
 */
const conditions = <S extends z.core.$ZodShape>(shape: S) =>
  z.optional(z.strictObject(shape, { error: objectError('Conditions must be an object') }));

/** Weather: only if rain is likely, or the temperature leaves a range (in the source's unit). */
export const weatherConditions = () =>
  conditions({
    rainAtLeast: z.optional(
      between(CONDITION_LABELS.rainAtLeast, whole(CONDITION_LABELS.rainAtLeast), 0, 100),
    ),
    temperatureOutside: z.optional(
      z
        .strictObject(
          {
            min: between(
              CONDITION_LABELS.temperatureMin,
              number(CONDITION_LABELS.temperatureMin),
              -TEMPERATURE_LIMIT,
              TEMPERATURE_LIMIT,
            ),
            max: between(
              CONDITION_LABELS.temperatureMax,
              number(CONDITION_LABELS.temperatureMax),
              -TEMPERATURE_LIMIT,
              TEMPERATURE_LIMIT,
            ),
          },
          { error: objectError('Temperature range needs a lowest and a highest temperature') },
        )
        .check(
          z.refine((range) => range.min < range.max, {
            error: `${CONDITION_LABELS.temperatureMin} must be below the highest`,
            path: ['min'],
          }),
        ),
    ),
  });

/** Hacker News and Reddit: only items with enough points and comments, and optionally enough new ones. */
export const discussionConditions = (maxItems: number) =>
  conditions({
    minPoints: z.optional(atLeast(CONDITION_LABELS.minPoints)),
    minComments: z.optional(atLeast(CONDITION_LABELS.minComments)),
    minNewItems: minNewItems(maxItems),
  });

/** Any other list source: only if it has at least N new items. */
export const listConditions = (maxItems: number) => conditions({ minNewItems: minNewItems(maxItems) });

/** Stripe: only if an account's revenue changed by more than N % from the day before. */
export const stripeConditions = () =>
  conditions({
    revenueChangeAbove: z.optional(
      between(
        CONDITION_LABELS.revenueChangeAbove,
        number(CONDITION_LABELS.revenueChangeAbove),
        0,
        MAX_REVENUE_CHANGE_PERCENT,
      ),
    ),
  });

export type WeatherConditions = NonNullable<z.output<ReturnType<typeof weatherConditions>>>;
export type DiscussionConditions = NonNullable<z.output<ReturnType<typeof discussionConditions>>>;
export type ListConditions = NonNullable<z.output<ReturnType<typeof listConditions>>>;
export type StripeConditions = NonNullable<z.output<ReturnType<typeof stripeConditions>>>;

/** Whether an item reaches the thresholds; an unknown count (Reddit's public feed has none) does not. */
export function reaches(
  counts: { points: number | null; comments: number | null },
  conditions: DiscussionConditions | undefined,
): boolean {
  const { minPoints, minComments } = conditions ?? {};
  if (minPoints !== undefined && (counts.points === null || counts.points < minPoints)) return false;
  if (minComments !== undefined && (counts.comments === null || counts.comments < minComments)) return false;
  return true;
}

/** Whether a source's conditions filter its items (anything set but the new-items gate). */
export const filtersItems = (conditions: DiscussionConditions | undefined) =>
  conditions?.minPoints !== undefined || conditions?.minComments !== undefined;

/** The reason a list source has nothing to say under "at least N new items", or undefined. */
export function tooFewNewItems(newItems: number, conditions: ListConditions | undefined): string | undefined {
  const needed = conditions?.minNewItems;
  if (needed === undefined || newItems >= needed) return undefined;
  return `${newItems} new ${newItems === 1 ? 'item' : 'items'} (at least ${needed} needed)`;
}

/** The percentage, as the reasons write it: "30 %" (French-style spacing, as in the issue's examples). */
export const percent = (value: number) => `${Math.round(value * 10) / 10} %`;
