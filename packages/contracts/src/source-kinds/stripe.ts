import * as z from 'zod/mini';
import { percent, type StripeConditions, stripeConditions } from './conditions';
import { common, flag, id, inputSchema, pictureUrl, text, uniqueOptions } from './fields';
import { listItems, type SourceKind } from './source-kind';

/** Revenue in one currency, in its minor units (cents). */
export interface StripeRevenue {
  currency: string;
  amount: number;
}

/** One Stripe account's figures for the period (amounts in minor units of `currency`). */
export interface StripeAccountFigures {
  tokenId: string;
  username: string;
  profilePicture: string;
  /**
   * The account's default currency (Stripe's `default_currency`; where it names none, the first of
   * `revenueByCurrency`); '' when revenue was not asked for, or Stripe names none and nothing sold.
   */
  currency: string;
  /** Succeeded charges minus their refunds in `currency` (0 when none were in it), or null when not asked for. */
  revenue: number | null;
  /**
   * Revenue per currency, `currency` first, the others by code: amounts in different currencies are never
   * ranked against each other (empty when not asked for).
   */
  revenueByCurrency: StripeRevenue[];
  /** Succeeded charges in the period, or null when not asked for. */
  payments: number | null;
  /** Customers created in the period, or null when not asked for. */
  customers: number | null;
  /** Set when this account could not be read (the others still show). */
  message: string;
  /**
   * Revenue in `currency` over the 24 hours before the period, for the "revenue changed by more than N %"
   * condition: read only when the source has it (null when this account's revenue is not asked for).
   */
  previousRevenue?: number | null;
}

export interface StripeContent {
  /** The period the figures cover, ISO 8601: the 24 hours before the fetch. */
  periodStart: string;
  periodEnd: string;
  accounts: StripeAccountFigures[];
}

const LABEL = 'Stripe';

const stripeAccountSchema = z.strictObject({
  tokenId: id('Stripe account'),
  username: z._default(text(200), ''),
  revenue: flag(true),
  payments: flag(true),
  customers: flag(true),
  profilePicture: pictureUrl(),
});

const stripeShape = {
  type: z.literal('STRIPE'),
  ...common(LABEL),
  stripeAccounts: z.optional(z.array(stripeAccountSchema).check(z.maxLength(20))),
  conditions: stripeConditions(),
};

/** How much an account's revenue moved from the day before, in %; null when it cannot be told. */
function revenueChange(account: StripeAccountFigures): number | null {
  const { revenue, previousRevenue } = account;
  if (revenue === null || previousRevenue === null || previousRevenue === undefined) return null;
  if (previousRevenue === 0) return revenue === 0 ? 0 : Number.POSITIVE_INFINITY;
  return (Math.abs(revenue - previousRevenue) / Math.abs(previousRevenue)) * 100;
}

/** Why Stripe has nothing to say: no account's revenue moved by more than the threshold. */
function stripeUnmet(conditions: StripeConditions | undefined, content: StripeContent): string | undefined {
  const threshold = conditions?.revenueChangeAbove;
  if (threshold === undefined) return undefined;
  const changes = content.accounts.flatMap((account) => {
    const change = revenueChange(account);
    return change === null ? [] : [change];
  });
  if (changes.some((change) => change > threshold)) return undefined;
  if (changes.length === 0) return 'no revenue to compare with the day before';
  return `revenue changed by ${percent(Math.max(...changes))} (not more than ${percent(threshold)})`;
}

/** One entry per Stripe account (the first). */
export const stripeSourceSchema = inputSchema(stripeShape, (settings) =>
  uniqueOptions(settings, 'stripeAccounts', (account) => String(account.tokenId)),
);
export type StripeSource = z.output<typeof stripeSourceSchema>;

export const stripeKind = {
  type: 'STRIPE',
  label: LABEL,
  schema: stripeSourceSchema,
  storedSchema: z.object(stripeShape),
  category: 'finance',
  popular: false,
  dataPath: 'stripe',
  accountProvider: 'STRIPE',
  readsPrivateData: true,
  searched: false,
  count: null,
  icon: { key: 'stripe', label: 'Stripe' },
  title: () => LABEL,
  hasNews: (content) => content.accounts.length > 0,
  items: listItems<StripeContent>('accounts'),
  conditions: { unmet: (source, content) => stripeUnmet(source.conditions, content) },
} as const satisfies SourceKind<StripeContent, StripeSource>;
