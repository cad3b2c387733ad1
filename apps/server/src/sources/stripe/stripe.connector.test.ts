import { stripeSourceSchema } from '@digest/contracts';
import type { StripeContent } from '@digest/contracts/content';
import { describe, expect, it } from 'vitest';
import {
  connectorDeps,
  fakeAccessToken,
  fakeProvidersForFile,
  HANG_TIMEOUT_MS,
  providerFailureCases,
  testAccountTokens,
  withProviderFailure,
} from '#server/sources/sources.test-support';
import { testClock } from '#server-test/test-clock';
import { stripeFake } from '#test/fakes/providers/stripe';
import type { StripeCharge } from './stripe.client';
import { revenueByCurrency, stripeConnector } from './stripe.connector';

const USER = 'user-1';
const accounts = testAccountTokens(USER, {
  'tok-engines': {
    provider: 'STRIPE',
    accessToken: fakeAccessToken('stripe', 'acct_1NlQm2Lk8f5Gx0aB'),
    username: 'Analytical Engines',
  },
  'tok-revoked': { provider: 'STRIPE', accessToken: 'sk_live_not_a_token', username: 'COBOL Coffee' },
  // A Japanese shop: its default currency is the yen (the fake's account fixture).
  'tok-coffee': {
    provider: 'STRIPE',
    accessToken: fakeAccessToken('stripe', 'acct_1PzR7tHq2w9Yc4dE'),
    username: 'COBOL Coffee',
  },
});

const fakes = fakeProvidersForFile([stripeFake({ moveToNow: false })], '/stripe');

type Choice = {
  tokenId: string;
  username?: string;
  revenue?: boolean;
  payments?: boolean;
  customers?: boolean;
};

/** The fixtures hold 140 charges and 7 customers created in the 24 hours before this instant. */
async function figures(
  choices: Choice[],
  now = '2026-11-21T12:00:00Z',
  timeoutMs?: number,
): Promise<StripeContent> {
  // Only a read of a hanging Stripe waits briefly: the others wait as long as production, on a busy machine too.
  const deps = connectorDeps(fakes, { accounts, clock: testClock(new Date(now)), timeoutMs });
  const source = stripeSourceSchema.parse({ type: 'STRIPE', stripeAccounts: choices });
  return stripeConnector(deps).fetchContent(source, { userId: USER, timezone: 'UTC', locale: 'en-US' });
}

describe('stripe figures of the last 24 hours', () => {
  it('sums succeeded charges minus refunds across pages, and counts payments and new customers', async () => {
    fakes.resetHits();
    const content = await figures([{ tokenId: 'tok-engines' }]);
    expect(content).toMatchObject({
      periodStart: '2026-11-20T12:00:00.000Z',
      periodEnd: '2026-11-21T12:00:00.000Z',
    });
    expect(content.accounts).toEqual([
      {
        tokenId: 'tok-engines',
        username: 'Analytical Engines',
        profilePicture: '',
        currency: 'usd',
        revenue: 160710,
        // Each in Stripe's minor units of its currency: cents, whole yen, hundredths of króna, fils. The
        // account's default currency (USD) first, the others by code.
        revenueByCurrency: [
          { currency: 'usd', amount: 160710 },
          { currency: 'eur', amount: 7950 },
          { currency: 'isk', amount: 153500 },
          { currency: 'jpy', amount: 9260 },
          { currency: 'kwd', amount: 6740 },
        ],
        payments: 121,
        customers: 7,
        message: '',
      },
    ]);
    // 140 charges in the period: two pages of 100.
    expect(fakes.hits('/stripe', '/v1/charges')).toBe(2);
    expect(fakes.hits('/stripe', '/v1/customers')).toBe(1);
  });

  it('reads only the figures asked for', async () => {
    fakes.resetHits();
    const [revenueOnly] = (await figures([{ tokenId: 'tok-engines', payments: false, customers: false }]))
      .accounts;
    expect(revenueOnly).toMatchObject({ revenue: 160710, payments: null, customers: null });
    expect(fakes.hits('/stripe', '/v1/customers')).toBe(0);

    fakes.resetHits();
    const [customersOnly] = (await figures([{ tokenId: 'tok-engines', revenue: false, payments: false }]))
      .accounts;
    expect(customersOnly).toMatchObject({
      revenue: null,
      revenueByCurrency: [],
      payments: null,
      customers: 7,
    });
    expect(fakes.hits('/stripe', '/v1/charges')).toBe(0);
    // The default currency is read for revenue only.
    expect(fakes.hits('/stripe', '/v1/account')).toBe(0);
  });

  it('counts nothing from before the period', async () => {
    const [account] = (await figures([{ tokenId: 'tok-engines' }], '2026-11-23T12:00:00Z')).accounts;
    // Nothing sold: 0 in the account's default currency.
    expect(account).toMatchObject({
      currency: 'usd',
      revenue: 0,
      revenueByCurrency: [],
      payments: 0,
      customers: 0,
    });
  });
});

describe('revenue in several currencies is never ranked across them (minor units are not comparable)', () => {
  const charge = (currency: string, amount: number, amount_refunded = 0): StripeCharge => ({
    id: `ch_${currency}_${amount}`,
    amount,
    amount_refunded,
    currency,
    status: 'succeeded',
    created: 1_763_726_400,
  });
  // ¥150,000 (0 decimals, about $1,000), $1,200.00 (2 decimals), KWD 50.000 (3 decimals, about $163):
  // by raw minor units the yen would come first and the dinar look like a third of the dollars.
  const charges = [
    charge('jpy', 100_000),
    charge('usd', 120_000),
    charge('kwd', 30_000),
    charge('jpy', 50_000),
    charge('kwd', 20_000),
  ];

  it("puts the account's default currency first and the others by code, whatever their amounts", () => {
    expect(revenueByCurrency(charges, 'usd')).toEqual([
      { currency: 'usd', amount: 120_000 },
      { currency: 'jpy', amount: 150_000 },
      { currency: 'kwd', amount: 50_000 },
    ]);
    expect(revenueByCurrency(charges, 'kwd').map((entry) => entry.currency)).toEqual(['kwd', 'jpy', 'usd']);
    expect(revenueByCurrency(charges, 'jpy').map((entry) => entry.currency)).toEqual(['jpy', 'kwd', 'usd']);
  });

  it('keeps the order by code when the default currency sold nothing, or Stripe names none', () => {
    expect(revenueByCurrency(charges, 'eur').map((entry) => entry.currency)).toEqual(['jpy', 'kwd', 'usd']);
    expect(revenueByCurrency(charges, '').map((entry) => entry.currency)).toEqual(['jpy', 'kwd', 'usd']);
  });

  it('subtracts refunds within each currency only', () => {
    expect(revenueByCurrency([charge('jpy', 5_000, 1_000), charge('usd', 5_000, 500)], 'usd')).toEqual([
      { currency: 'usd', amount: 4_500 },
      { currency: 'jpy', amount: 4_000 },
    ]);
  });

  it("shows a yen account's revenue in yen, though it sold more in other currencies' minor units", async () => {
    fakes.resetHits();
    const [account] = (await figures([{ tokenId: 'tok-coffee' }])).accounts;
    expect(account).toMatchObject({
      username: 'COBOL Coffee',
      currency: 'jpy',
      revenue: 9260,
      revenueByCurrency: [
        { currency: 'jpy', amount: 9260 },
        { currency: 'eur', amount: 7950 },
        { currency: 'isk', amount: 153500 },
        { currency: 'kwd', amount: 6740 },
        { currency: 'usd', amount: 160710 },
      ],
      message: '',
    });
    expect(fakes.hits('/stripe', '/v1/account')).toBe(1);
  });

  it('says 0 in the default currency when nothing sold in it, the other currencies still listed', async () => {
    // 2026-11-20 12:00 to 11-21 12:00 holds the yen; a day earlier only the recorded dollar charges.
    const [account] = (await figures([{ tokenId: 'tok-coffee' }], '2026-11-20T12:00:00Z')).accounts;
    expect(account?.currency).toBe('jpy');
    expect(account?.revenue).toBe(0);
    expect(account?.revenueByCurrency.every((entry) => entry.currency !== 'jpy')).toBe(true);
  });
});

describe('stripe failures', () => {
  it('keeps the other accounts when Stripe refuses one, and asks to reconnect it', async () => {
    const content = await figures([
      { tokenId: 'tok-revoked', username: 'COBOL Coffee' },
      { tokenId: 'tok-engines' },
      { tokenId: 'someone-elses', username: 'Not mine' },
    ]);
    expect(content.accounts.map((account) => [account.username, account.message, account.revenue])).toEqual([
      ['COBOL Coffee', 'Stripe refused the connected account: reconnect your account', null],
      ['Analytical Engines', '', 160710],
      ['Not mine', 'This source is not connected yet.', null],
    ]);
  });

  const cases = providerFailureCases('Stripe', {
    notJson: true,
    shape: { object: 'list', data: 'nope' },
    messages: {
      rate_limited: 'Stripe is limiting requests to this account right now: retry in 30 s',
      upstream: 'Stripe is not answering right now (it answered 500): try again later',
    },
  });
  for (const { rule, failure, error } of cases) {
    it(`shows the account's failure in the content: ${rule}, "${error.message}"`, async () => {
      const content = await withProviderFailure(fakes, '/stripe', failure, () =>
        figures([{ tokenId: 'tok-engines' }], undefined, failure === 'hang' ? HANG_TIMEOUT_MS : undefined),
      );
      expect(content.accounts).toEqual([
        expect.objectContaining({
          username: 'Analytical Engines',
          message: error.message,
          revenue: null,
          customers: null,
        }),
      ]);
    });
  }
});

describe('Stripe’s answers and what the user reads (stripe.answers.ts)', () => {
  const stripeError = (type: string, message: string, code?: string) => ({ error: { type, message, code } });
  const cases = [
    {
      rule: 'a key Stripe no longer accepts (401): reconnect',
      failure: {
        status: 401,
        body: stripeError('invalid_request_error', 'Invalid API Key provided: rk_live_****'),
      },
      message: 'Stripe refused the connected account: reconnect your account',
    },
    {
      rule: 'a grant without the permission (403): reconnect, not "access refused"',
      failure: {
        status: 403,
        body: stripeError('invalid_request_error', 'The provided key does not have access to account.'),
      },
      message: 'Stripe no longer lets Digest read this account: reconnect your account',
    },
    {
      rule: 'its rate limit (429), with when to retry',
      failure: {
        status: 429,
        headers: { 'retry-after': '2' },
        body: stripeError('invalid_request_error', 'Too many requests', 'rate_limit'),
      },
      message: 'Stripe is limiting requests to this account right now: retry in 2 s',
    },
    {
      rule: 'its own failure (503): Stripe is down',
      failure: { status: 503, body: stripeError('api_error', 'An unknown error occurred') },
      message: 'Stripe is not answering right now (it answered 503): try again later',
    },
  ];
  for (const { rule, failure, message } of cases) {
    it(rule, async () => {
      const content = await withProviderFailure(fakes, '/stripe', failure, () =>
        figures([{ tokenId: 'tok-engines' }]),
      );
      expect(content.accounts.map((account) => account.message)).toEqual([message]);
    });
  }
});
