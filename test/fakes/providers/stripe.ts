/**
 * Stripe API (`STRIPE_API_BASE_URL`): `GET /v1/charges`, `GET /v1/customers` and `GET /v1/account` of a
 * connected account, read with the account's access token from the fake Stripe Connect server, or as
 * Stripe Connect platforms do, with the platform secret key and a `Stripe-Account` header (every account
 * has the same recorded charges and customers). Like Stripe: newest first,
 * `created[gte|gt|lte|lt]` filters, `limit` 1–100 (default 10), cursor pagination with `starting_after`
 * and `has_more`, errors as `{ error: { type, message } }`, 401 for a key it does not know.
 *
 * The day's 140 charges before 2026-11-21T12:00:00Z are made from the recorded ones by `chargesOfTheDay`
 * (a day of sales is too long to record by hand), after the recorded charges of the days before. By default
 * they are moved so that instant is now, so development always has a day of sales; tests that need exact
 * sums take them as they are with `{ moveToNow: false }`.
 */
import { readFileSync } from 'node:fs';
import type { FakeProvider, FakeRequest, FakeResponse } from '../fake-provider';
import { fakeBearer } from './fake-bearer';
import { FAKE_OAUTH_ACCOUNTS, FAKE_OAUTH_CREDENTIALS } from './oauth';

const RECORDED_AT = Date.parse('2026-11-21T12:00:00Z') / 1000;

interface StripeObject {
  id: string;
  created: number;
  [field: string]: unknown;
}

const recorded = (name: string) =>
  (
    JSON.parse(readFileSync(new URL(`../fixtures/stripe/${name}`, import.meta.url), 'utf8')) as {
      data: StripeObject[];
    }
  ).data;
/** Every Nth charge of the day (by index) is one of these; the rest are plain card payments that succeeded. */
const EVERY = {
  eur: 20,
  jpy: 30,
  kwd: 40,
  isk: 70,
  failed: 13,
  pending: 17,
  refunded: 11,
  partlyRefunded: 9,
  withCustomer: 3,
} as const;

/**
 * The currency of the day's `index`th charge and its amount in Stripe's minor units for it
 * (https://docs.stripe.com/currencies): USD and EUR in cents, JPY in whole yen (zero-decimal), KWD in
 * fils, thousandths whose last digit Stripe requires to be 0 (three-decimal), ISK in hundredths that
 * always end in 00 (zero-decimal in practice, two-decimal in the API).
 */
function priceOf(index: number): { currency: string; amount: number } {
  const cents = 1000 + 10 * index;
  if (index % EVERY.eur === 9) return { currency: 'eur', amount: cents };
  if (index % EVERY.jpy === 14) return { currency: 'jpy', amount: 1500 + 10 * index };
  if (index % EVERY.kwd === 22) return { currency: 'kwd', amount: 3000 + 10 * index };
  if (index % EVERY.isk === 35) return { currency: 'isk', amount: 150_000 + 100 * index };
  return { currency: 'usd', amount: cents };
}
const CHARGES_OF_THE_DAY = 140;

/**
 * 140 charges, one every 10 minutes before RECORDED_AT, in the recorded charges' shape: amounts from 10.00
 * up by 0.10, some in EUR, JPY, KWD and ISK (priceOf), failed, pending, refunded in full or by 500 minor
 * units — what the connector must sum and count across two pages.
 */
function chargesOfTheDay(template: StripeObject): StripeObject[] {
  return Array.from({ length: CHARGES_OF_THE_DAY }, (_, index) => {
    const { currency, amount } = priceOf(index);
    const at = (every: number, offset: number) => index % every === offset;
    const failed = at(EVERY.failed, 5);
    const refunded = !failed && at(EVERY.refunded, 7);
    const number = String(index).padStart(4, '0');
    return {
      ...template,
      id: `ch_3QDay${number}`,
      amount,
      amount_captured: failed ? 0 : amount,
      amount_refunded: refunded ? amount : !failed && at(EVERY.partlyRefunded, 4) ? 500 : 0,
      created: RECORDED_AT - 60 - 600 * index,
      currency,
      customer: at(EVERY.withCustomer, 0) ? `cus_3QDay${number}` : null,
      description: `Order #${10400 + index}`,
      failure_code: failed ? 'card_declined' : null,
      failure_message: failed ? 'Your card was declined.' : null,
      paid: !failed,
      refunded,
      status: failed ? 'failed' : at(EVERY.pending, 3) ? 'pending' : 'succeeded',
    };
  });
}

const recordedCharges = recorded('charges.json');
const LISTS: Record<string, { objects: StripeObject[]; noun: string }> = {
  '/v1/charges': {
    objects: [...chargesOfTheDay(recordedCharges[0] as StripeObject), ...recordedCharges],
    noun: 'charge',
  },
  '/v1/customers': { objects: recorded('customers.json'), noun: 'customer' },
};

function stripeError(
  status: number,
  type: string,
  message: string,
  extra: Record<string, string> = {},
): FakeResponse {
  return { status, headers: { 'request-id': 'req_fake0001' }, body: { error: { type, message, ...extra } } };
}

/** The `created[…]` filters Stripe understands. */
const CREATED_FILTERS: Record<string, (created: number, bound: number) => boolean> = {
  gte: (created, bound) => created >= bound,
  gt: (created, bound) => created > bound,
  lte: (created, bound) => created <= bound,
  lt: (created, bound) => created < bound,
};

function list(request: FakeRequest, path: string, shiftSeconds: number): FakeResponse {
  const { objects, noun } = LISTS[path] ?? { objects: [], noun: '' };
  const limit = Number(request.query.get('limit') ?? 10);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return stripeError(400, 'invalid_request_error', 'This value must be less than or equal to 100.', {
      param: 'limit',
    });
  }
  let matching = objects
    .map((object) => ({ ...object, created: object.created + shiftSeconds }))
    .sort((a, b) => b.created - a.created);
  for (const [operator, test] of Object.entries(CREATED_FILTERS)) {
    const bound = request.query.get(`created[${operator}]`);
    if (bound === null) continue;
    if (!/^\d+$/.test(bound)) {
      return stripeError(400, 'invalid_request_error', `Invalid integer: ${bound}`, {
        param: `created[${operator}]`,
      });
    }
    matching = matching.filter((object) => test(object.created, Number(bound)));
  }
  const after = request.query.get('starting_after');
  if (after !== null) {
    const index = matching.findIndex((object) => object.id === after);
    if (index < 0) {
      return stripeError(400, 'invalid_request_error', `No such ${noun}: '${after}'`, {
        code: 'resource_missing',
        param: 'starting_after',
      });
    }
    matching = matching.slice(index + 1);
  }
  return {
    body: { object: 'list', data: matching.slice(0, limit), has_more: matching.length > limit, url: path },
  };
}

/** The connected account a request acts as, or undefined when Stripe would answer 401. */
function accountOf(request: FakeRequest): string | undefined {
  const platform = request.headers.authorization === `Bearer ${FAKE_OAUTH_CREDENTIALS.STRIPE_SECRET_KEY}`;
  const header = request.headers['stripe-account'];
  if (platform && typeof header === 'string') return header;
  return fakeBearer(request, 'stripe');
}

function account(accountId: string): FakeResponse {
  const found = FAKE_OAUTH_ACCOUNTS.stripe.find((candidate) => candidate.id === accountId);
  if (!found) {
    return stripeError(403, 'invalid_request_error', 'The provided key does not have access to account.');
  }
  return { body: { object: 'account', type: 'standard', ...found } };
}

export function stripeFake(options: { moveToNow?: boolean } = {}): FakeProvider {
  const moveToNow = options.moveToNow ?? true;
  return {
    prefix: '/stripe',
    env: { STRIPE_API_BASE_URL: '' },
    handle(request) {
      const accountId = accountOf(request);
      if (accountId === undefined) {
        const shown = (request.headers.authorization ?? '').replace(/^Bearer /, '').slice(0, 8);
        return stripeError(401, 'invalid_request_error', `Invalid API Key provided: ${shown}****`);
      }
      if (request.method === 'GET' && request.path === '/v1/account') return account(accountId);
      if (request.method !== 'GET' || !LISTS[request.path]) {
        return stripeError(
          404,
          'invalid_request_error',
          `Unrecognized request URL (${request.method}: ${request.path}).`,
        );
      }
      const shift = moveToNow ? Math.floor(Date.now() / 1000) - RECORDED_AT : 0;
      return list(request, request.path, shift);
    },
  };
}
