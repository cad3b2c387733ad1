import { describe, expect, it } from 'vitest';
import { SOURCE_TYPES, sourceKindOf } from '../sources';

describe('a kind that reads what only the owner’s account can see is marked once, on its descriptor', () => {
  it('Newsletters, Google Calendar, Stripe and the X timeline, list and users’ tweets read private data; the others do not', () => {
    const marked = SOURCE_TYPES.filter((type) => sourceKindOf(type).readsPrivateData);
    expect(marked).toEqual([
      'NEWSLETTERS',
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

describe('a public page says how many newsletters a block carried, never which', () => {
  it('Newsletters sums its block up as "N newsletters"; the other private kinds have no summary ("Private")', () => {
    const newsletters = sourceKindOf('NEWSLETTERS');
    const item = { subject: 'Secret subject', senderName: 'Secret sender' };
    expect(newsletters.publicSummary?.({ items: [item, item, item] })).toBe('3 newsletters');
    expect(newsletters.publicSummary?.({ items: [item] })).toBe('1 newsletter');
    const others = SOURCE_TYPES.filter((type) => type !== 'NEWSLETTERS');
    expect(others.filter((type) => sourceKindOf(type).publicSummary)).toEqual([]);
  });
});
