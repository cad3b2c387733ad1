import { describe, expect, it } from 'vitest';
import { providerConfigOf } from '#server-test/test-config';
import { sourceCatalogue } from './catalogue';

const providers = providerConfigOf({});
const NONE = { GOOGLE: false, TWITTER: false, STRIPE: false };

describe('the source catalogue', () => {
  it('marks the account kinds not configured, naming the provider, when its OAuth credentials are missing', () => {
    const byType = Object.fromEntries(
      sourceCatalogue(providers, NONE).map((source) => [source.type, source]),
    );
    expect(byType.GOOGLE_CALENDAR).toMatchObject({
      configured: false,
      reason: 'Google Calendar is not configured on this server',
    });
    for (const type of ['TWITTER_TWEETS', 'TWITTER_TIMELINE', 'TWITTER_SEARCH', 'TWITTER_LIST']) {
      expect(byType[type], type).toMatchObject({
        configured: false,
        reason: 'X/Twitter is not configured on this server',
      });
    }
    expect(byType.STRIPE).toMatchObject({
      configured: false,
      reason: 'Stripe is not configured on this server',
    });
  });

  it('marks each account kind configured when its provider has credentials, independently of the others', () => {
    const byType = Object.fromEntries(
      sourceCatalogue(providers, { GOOGLE: true, TWITTER: false, STRIPE: true }).map((source) => [
        source.type,
        source,
      ]),
    );
    expect(byType.GOOGLE_CALENDAR).toMatchObject({ configured: true });
    expect(byType.GOOGLE_CALENDAR?.reason).toBeUndefined();
    expect(byType.STRIPE).toMatchObject({ configured: true });
    expect(byType.TWITTER_TWEETS).toMatchObject({ configured: false });
  });

  it('needs nothing for the keyless kinds, Product Hunt included (its public feed needs no token)', () => {
    const byType = Object.fromEntries(
      sourceCatalogue(providers, NONE).map((source) => [source.type, source]),
    );
    for (const type of ['WEATHER', 'HACKER_NEWS', 'DATE', 'RSS', 'REDDIT', 'YOUTUBE', 'PRODUCT_HUNT']) {
      expect(byType[type]?.configured, type).toBe(true);
    }
  });
});
