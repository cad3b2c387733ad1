import type { StripeSource } from '@digest/contracts';
import type { StripeAccountFigures, StripeContent, StripeRevenue } from '@digest/contracts/content';
import type { Connector, SourcesDeps } from '#server/sources/connector';
import { httpUrlOrEmpty } from '#server/sources/safe-link';
import { SourceError } from '#server/sources/source-error';
import { type Period, type StripeCharge, stripeClient } from './stripe.client';

export type StripeAccountChoice = NonNullable<StripeSource['stripeAccounts']>[number];

/** The figures cover the day before the fetch: a daily digest shows yesterday's business. */
const PERIOD_SECONDS = 24 * 60 * 60;

/**
 * Succeeded charges minus what was refunded of them, per currency: the account's default currency first,
 * then the others by their code. Amounts in different currencies are never ranked against each other:
 * each is in its own currency's minor units (1000 is ¥1,000, $10.00 or KWD 1.000) and Digest has no
 * exchange rates, so "largest first" would put ¥9,260 (about $60) before €79.50.
 */
export function revenueByCurrency(charges: StripeCharge[], defaultCurrency: string): StripeRevenue[] {
  const totals = new Map<string, number>();
  for (const charge of charges) {
    const currency = charge.currency.toLowerCase();
    totals.set(currency, (totals.get(currency) ?? 0) + charge.amount - charge.amount_refunded);
  }
  const rank = (currency: string) => (currency === defaultCurrency ? 0 : 1);
  return [...totals]
    .map(([currency, amount]) => ({ currency, amount }))
    .sort((a, b) => rank(a.currency) - rank(b.currency) || a.currency.localeCompare(b.currency));
}

/** An account's place in the block when it could not be read: who it is and why. */
const unreadable = (choice: StripeAccountChoice, error: SourceError, username = choice.username) => ({
  tokenId: choice.tokenId,
  username,
  profilePicture: httpUrlOrEmpty(choice.profilePicture),
  currency: '',
  revenue: null,
  revenueByCurrency: [],
  payments: null,
  customers: null,
  message: error.message,
});

/**
 * The revenue of the day before `period` in `currency`, the figure today's is compared with (its first
 * currency when today had no currency to compare in).
 */
async function previousRevenueOf(
  client: ReturnType<typeof stripeClient>,
  period: Period,
  currency: string,
  defaultCurrency: string,
): Promise<number> {
  const previous = { since: period.since - PERIOD_SECONDS, until: period.since };
  const charges = await client.charges(previous);
  const revenue = revenueByCurrency(
    charges.filter((charge) => charge.status === 'succeeded'),
    defaultCurrency,
  );
  const same = currency === '' ? revenue[0] : revenue.find((entry) => entry.currency === currency);
  return same?.amount ?? 0;
}

async function figuresOf(
  deps: SourcesDeps,
  userId: string,
  choice: StripeAccountChoice,
  period: Period,
  compare: boolean,
): Promise<StripeAccountFigures> {
  const { accessToken, account } = await deps.accounts.accessToken(userId, choice.tokenId, 'STRIPE');
  const username = account.username ?? choice.username;
  const client = stripeClient(deps, accessToken);
  try {
    // Only what the block shows is read: charges for revenue or payments, customers for customers, the
    // account's default currency for revenue.
    const [charges, customers, defaultCurrency] = await Promise.all([
      choice.revenue || choice.payments ? client.charges(period) : undefined,
      choice.customers ? client.customers(period) : undefined,
      choice.revenue ? client.defaultCurrency() : '',
    ]);
    const succeeded = charges?.filter((charge) => charge.status === 'succeeded');
    const revenue = choice.revenue && succeeded ? revenueByCurrency(succeeded, defaultCurrency) : [];
    // The single figure is in the account's default currency (0 when nothing sold in it), or where Stripe
    // names none, the first of the list: never the "largest", which minor units cannot tell.
    const currency = defaultCurrency || (revenue[0]?.currency ?? '');
    // The day before is read only for the "revenue changed by more than N %" condition.
    const previousRevenue =
      compare && choice.revenue
        ? { previousRevenue: await previousRevenueOf(client, period, currency, defaultCurrency) }
        : {};
    return {
      tokenId: choice.tokenId,
      username,
      profilePicture: httpUrlOrEmpty(account.profilePicture ?? choice.profilePicture),
      currency,
      revenue: choice.revenue ? (revenue.find((entry) => entry.currency === currency)?.amount ?? 0) : null,
      revenueByCurrency: revenue,
      payments: choice.payments && succeeded ? succeeded.length : null,
      customers: customers ? customers.length : null,
      message: '',
      ...previousRevenue,
    };
  } catch (error) {
    if (error instanceof SourceError) return unreadable(choice, error, username);
    throw error;
  }
}

/**
 * Stripe (docs/product.md §3): revenue, payments and new customers of each chosen account over the 24 hours before
 * now. An account that cannot be read keeps its place with `message` saying why; the others still show.
 */
export function stripeFigures(deps: SourcesDeps) {
  return async (
    userId: string,
    choices: StripeAccountChoice[],
    options: { compareWithDayBefore?: boolean } = {},
  ): Promise<StripeContent> => {
    const until = Math.floor(deps.clock.now().getTime() / 1000);
    const period = { since: until - PERIOD_SECONDS, until };
    const accounts = await Promise.all(
      choices.map((choice) =>
        figuresOf(deps, userId, choice, period, options.compareWithDayBefore === true).catch(
          (error: unknown): StripeAccountFigures => {
            // Not connected (not the user's, disconnected, refresh refused).
            if (error instanceof SourceError) return unreadable(choice, error);
            throw error;
          },
        ),
      ),
    );
    return {
      periodStart: new Date(period.since * 1000).toISOString(),
      periodEnd: new Date(period.until * 1000).toISOString(),
      accounts,
    };
  };
}

export function stripeConnector(deps: SourcesDeps): Connector<'STRIPE'> {
  const figures = stripeFigures(deps);
  return {
    type: 'STRIPE',
    fetchContent: (source, context) =>
      figures(context.userId, source.stripeAccounts ?? [], {
        compareWithDayBefore: source.conditions?.revenueChangeAbove !== undefined,
      }),
  };
}
