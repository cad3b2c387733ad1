import { describe, expect, it } from 'vitest';
import { SOURCE_TYPES, sourceKindOf } from '../sources';

describe('a kind that reads what only the owner’s account can see is marked once, on its descriptor', () => {
  it('Google Calendar, Stripe and the X timeline, list and users’ tweets read private data; the others do not', () => {
    const marked = SOURCE_TYPES.filter((type) => sourceKindOf(type).readsPrivateData);
    expect(marked).toEqual([
      'GOOGLE_CALENDAR',
      'TWITTER_TWEETS',
      'TWITTER_TIMELINE',
      'TWITTER_LIST',
      'STRIPE',
    ]);
  });

  it('every kind that needs a connected account but X search reads private data (search answers public tweets only)', () => {
    const withAccount = SOURCE_TYPES.filter((type) => sourceKindOf(type).accountProvider !== null);
    const unmarked = withAccount.filter((type) => !sourceKindOf(type).readsPrivateData);
    expect(unmarked).toEqual(['TWITTER_SEARCH']);
  });
});
