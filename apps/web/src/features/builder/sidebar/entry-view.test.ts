import { SOURCE_CATEGORIES, SOURCE_TYPES, TEMPLATE_CATEGORIES } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import {
  ENTRY_TAB_LABELS,
  ENTRY_TABS,
  KINDS_PER_VIEW,
  kindsOfTab,
  kindsOfView,
  searchKinds,
  tabHasKinds,
  viewCount,
} from './entry-view';
import { testCatalogue } from './test-support';

const catalogue = testCatalogue();

describe('entry tabs (docs/product.md §2 template categories)', () => {
  it('are the seven template categories in order, Popular first', () => {
    expect(ENTRY_TABS).toEqual(TEMPLATE_CATEGORIES);
    expect(ENTRY_TABS.map((tab) => ENTRY_TAB_LABELS[tab])).toEqual([
      'Popular',
      'Everyday',
      'Socials',
      'Finance',
      'News',
      'Hand-crafted',
      'Tech',
    ]);
  });

  it('cover every category of the catalogue', () => {
    for (const category of SOURCE_CATEGORIES) expect(ENTRY_TABS).toContain(category);
  });

  it('group the kinds by their popular flag and by category', () => {
    expect(kindsOfTab(catalogue, 'popular').every((kind) => kind.popular)).toBe(true);
    expect(kindsOfTab(catalogue, 'finance').map((kind) => kind.type)).toEqual(['STRIPE']);
    const inCategories = SOURCE_CATEGORIES.flatMap((category) => kindsOfTab(catalogue, category));
    expect(inCategories).toHaveLength(SOURCE_TYPES.length);
  });

  it('list kinds everywhere but Hand-crafted, which has templates only', () => {
    expect(ENTRY_TABS.filter((tab) => !tabHasKinds(tab))).toEqual(['hand-crafted']);
    expect(kindsOfTab(catalogue, 'hand-crafted')).toEqual([]);
  });
});

describe('entry search', () => {
  it('finds kinds by a part of their name, whatever the case', () => {
    expect(searchKinds(catalogue, 'twit').map((kind) => kind.type)).toEqual([
      'TWITTER_TWEETS',
      'TWITTER_TIMELINE',
      'TWITTER_SEARCH',
      'TWITTER_LIST',
    ]);
    expect(searchKinds(catalogue, ' HACKER ').map((kind) => kind.type)).toEqual(['HACKER_NEWS']);
    expect(searchKinds(catalogue, 'nothing like it')).toEqual([]);
  });
});

describe('items per view (docs/product.md §2: 4 on desktop and tablet, 5 on mobile)', () => {
  it('follows the layout', () => {
    expect(KINDS_PER_VIEW).toEqual({ desktop: 4, tablet: 4, mobile: 5 });
  });

  it('counts the views the kinds take', () => {
    expect(viewCount(8, 4)).toBe(2);
    expect(viewCount(9, 4)).toBe(3);
    expect(viewCount(9, 5)).toBe(2);
    expect(viewCount(0, 4)).toBe(1);
  });

  it('gives the kinds of one view, keeping the view within range', () => {
    const kinds = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    expect(kindsOfView(kinds, 0, 4)).toEqual([1, 2, 3, 4]);
    expect(kindsOfView(kinds, 2, 4)).toEqual([9]);
    // A resize from 4 to 5 per view can leave the view past the end: the last one shows.
    expect(kindsOfView(kinds, 5, 4)).toEqual([9]);
    expect(kindsOfView(kinds, 1, 5)).toEqual([6, 7, 8, 9]);
    expect(kindsOfView(kinds, -1, 5)).toEqual([1, 2, 3, 4, 5]);
  });
});
