import { stripeSourceSchema } from '@digest/contracts';
import type { StripeContent } from '@digest/contracts/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeProviders, startFakeProviders } from '../../../../../test/fakes/fake-providers';
import { stripeFake } from '../../../../../test/fakes/providers/stripe';
import { testClock } from '../../../test/test-clock';
import { connectorDeps, fakeAccessToken, testAccountTokens } from '../sources.test-support';
import { stripeConnector } from './stripe.connector';

const USER = 'user-1';
const accounts = testAccountTokens(USER, {
  'tok-engines': {
    provider: 'STRIPE',
    accessToken: fakeAccessToken('stripe', 'acct_1NlQm2Lk8f5Gx0aB'),
    username: 'Analytical Engines',
  },
  'tok-revoked': { provider: 'STRIPE', accessToken: 'sk_live_not_a_token', username: 'COBOL Coffee' },
});

let fakes: FakeProviders;
beforeAll(async () => {
  fakes = await startFakeProviders({ providers: [stripeFake({ moveToNow: false })] });
});
afterAll(() => fakes.close());

type Choice = {
  tokenId: string;
  username?: string;
  revenue?: boolean;
  payments?: boolean;
  customers?: boolean;
};

/** The fixtures hold 140 charges and 7 customers created in the 24 hours before this instant. */
async function figures(choices: Choice[], now = '2026-11-21T12:00:00Z'): Promise<StripeContent> {
  const deps = connectorDeps(fakes, { accounts, clock: testClock(new Date(now)), timeoutMs: 300 });
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
        revenue: 172060,
        revenueByCurrency: [
          { currency: 'usd', amount: 172060 },
          { currency: 'eur', amount: 7950 },
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
    expect(revenueOnly).toMatchObject({ revenue: 172060, payments: null, customers: null });
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
  });

  it('counts nothing from before the period', async () => {
    const [account] = (await figures([{ tokenId: 'tok-engines' }], '2026-11-23T12:00:00Z')).accounts;
    expect(account).toMatchObject({
      currency: '',
      revenue: 0,
      revenueByCurrency: [],
      payments: 0,
      customers: 0,
    });
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
      ['Analytical Engines', '', 172060],
      ['Not mine', 'This source is not connected yet.', null],
    ]);
  });

  it.each([
    [{ status: 429, headers: { 'retry-after': '20' } }, 'Stripe answered 429: rate-limited, retry in 20 s'],
    [{ status: 500, body: { error: { type: 'api_error', message: 'boom' } } }, 'Stripe answered 500'],
    [{ status: 200, body: '{"object":"list","data":' }, 'Stripe answered with something that is not JSON'],
    [{ status: 200, body: { object: 'list', data: 'nope' } }, 'Stripe answered in an unexpected shape'],
    ['hang' as const, 'Stripe did not answer in time'],
  ])('says what failed when Stripe answers %j', async (failure, message) => {
    fakes.setFailure('/stripe', failure);
    try {
      const [account] = (await figures([{ tokenId: 'tok-engines' }])).accounts;
      expect(account).toMatchObject({
        username: 'Analytical Engines',
        message,
        revenue: null,
        customers: null,
      });
    } finally {
      fakes.setFailure('/stripe', undefined);
    }
  });
});
