import { z } from 'zod';
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
}

export interface StripeContent {
  /** The period the figures cover, ISO 8601: the 24 hours before the fetch. */
  periodStart: string;
  periodEnd: string;
  accounts: StripeAccountFigures[];
}

const LABEL = 'Stripe';

const stripeAccountSchema = z
  .object({
    tokenId: id('Stripe account'),
    username: text(200).default(''),
    revenue: flag(true),
    payments: flag(true),
    customers: flag(true),
    profilePicture: pictureUrl(),
  })
  .strict();

const stripeShape = {
  type: z.literal('STRIPE'),
  ...common(LABEL),
  stripeAccounts: z.array(stripeAccountSchema).max(20).optional(),
};

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
  guidedKey: 'stripe',
  searched: false,
  count: null,
  icon: { key: 'stripe', label: 'Stripe' },
  title: () => LABEL,
  hasNews: (content) => content.accounts.length > 0,
  items: listItems<StripeContent>('accounts'),
} as const satisfies SourceKind<StripeContent, StripeSource>;
