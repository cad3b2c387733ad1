import { SOURCE_CATALOGUE_PLACES } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import { testCatalogue } from '../sidebar/test-support';
import { guidedKinds } from './guided';

describe('guided sequence (docs/product.md §2)', () => {
  it('offers only kinds the parameter can name, popular ones first', () => {
    const offered = guidedKinds(testCatalogue()).map((kind) => kind.type);
    expect(offered).not.toContain('TWITTER_TIMELINE');
    expect(offered).toHaveLength(10);
    const firstOther = offered.findIndex((type) => !SOURCE_CATALOGUE_PLACES[type].popular);
    expect(offered.slice(firstOther).every((type) => !SOURCE_CATALOGUE_PLACES[type].popular)).toBe(true);
    expect(offered.slice(0, 2)).toEqual(['WEATHER', 'HACKER_NEWS']);
  });
});
