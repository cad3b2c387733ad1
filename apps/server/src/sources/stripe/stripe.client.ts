import { z } from 'zod';
import { refusalFrom } from '#server/sources/account-refusal';
import type { ProviderConfig } from '#server/sources/provider-config';
import type { ProviderHttp } from '#server/sources/provider-http';
import { SourceError } from '#server/sources/source-error';
import { STRIPE_ANSWERS } from './stripe.answers';

const PROVIDER = 'Stripe';
/** Stripe's largest page. */
const PAGE_SIZE = 100;
/** 50 pages = 5,000 objects a day: beyond that the figures would be wrong, so say so rather than guess. */
const MAX_PAGES = 50;

const chargeSchema = z.object({
  id: z.string(),
  amount: z.number(),
  amount_refunded: z.number().default(0),
  currency: z.string(),
  status: z.string(),
  created: z.number(),
});
export type StripeCharge = z.infer<typeof chargeSchema>;

const customerSchema = z.object({ id: z.string(), created: z.number() });

/** The connected account: its default currency, the one its payouts and reports are in (may be unset). */
const accountSchema = z.object({ default_currency: z.string().nullish() });

const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() });

/** A period in Unix seconds: `since` included, `until` excluded. */
export interface Period {
  since: number;
  until: number;
}

/**
 * The Stripe API read with one connected account's OAuth access token. Stripe Connect's `read_only` scope
 * issues an access token that works as a restricted, read-only key of that account, so no platform key or
 * `Stripe-Account` header is needed and the platform never holds write access to the merchant's data.
 */
export function stripeClient(deps: { http: ProviderHttp; providers: ProviderConfig }, accessToken: string) {
  /** Every object of a list in the period, following `has_more` / `starting_after`. */
  async function listAll<T extends { id: string }>(
    path: string,
    item: z.ZodType<T>,
    period: Period,
  ): Promise<T[]> {
    const all: T[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const url = new URL(`${deps.providers.baseUrls.stripeApi}${path}`);
      url.searchParams.set('created[gte]', String(period.since));
      url.searchParams.set('created[lt]', String(period.until));
      url.searchParams.set('limit', String(PAGE_SIZE));
      const last = all.at(-1);
      if (last) url.searchParams.set('starting_after', last.id);
      const answer = await deps.http.json(
        {
          provider: PROVIDER,
          private: true,
          url,
          headers: { authorization: `Bearer ${accessToken}` },
          cache: { defaultSeconds: 60, minSeconds: 30, maxSeconds: 300 },
          refusal: refusalFrom(STRIPE_ANSWERS),
        },
        listOf(item),
      );
      all.push(...answer.data);
      if (!answer.has_more || answer.data.length === 0) return all;
    }
    throw new SourceError(
      'too_large',
      `${PROVIDER} has more than ${MAX_PAGES * PAGE_SIZE} ${path.slice(4)} in the period`,
    );
  }

  return {
    /** GET /v1/account: the account the token reads, its default currency ('' when Stripe has none). */
    defaultCurrency: async (): Promise<string> => {
      const answer = await deps.http.json(
        {
          provider: PROVIDER,
          private: true,
          url: new URL(`${deps.providers.baseUrls.stripeApi}/v1/account`),
          headers: { authorization: `Bearer ${accessToken}` },
          // An account's default currency hardly ever changes.
          cache: { defaultSeconds: 3600, minSeconds: 300, maxSeconds: 86_400 },
          refusal: refusalFrom(STRIPE_ANSWERS),
        },
        accountSchema,
      );
      return answer.default_currency?.toLowerCase() ?? '';
    },
    charges: (period: Period) => listAll('/v1/charges', chargeSchema, period),
    customers: (period: Period) => listAll('/v1/customers', customerSchema, period),
  };
}
