import { type SourceType, sourceKinds } from '@digest/contracts';

/** docs/product.md §4 builder steps. */
export type BuilderStep = 'entry' | 'selected' | 'searching' | 'connect' | 'edit';

/**
 * docs/product.md §4 "Builder step": the path each kind takes through the sidebar (its descriptor says whether it is
 * searched and whether it needs an account).
 * - Weather, Reddit, RSS, YouTube: selected → searching → edit (pick a place, subreddit, feed or channel);
 * - Google Calendar, the Twitter kinds, Stripe: connect → edit (an account first);
 * - Hacker News, Product Hunt, today's date: edit only.
 */
export const TWITTER_KINDS = [
  'TWITTER_TWEETS',
  'TWITTER_TIMELINE',
  'TWITTER_SEARCH',
  'TWITTER_LIST',
] as const;
export type TwitterKind = (typeof TWITTER_KINDS)[number];

export const isSearchedKind = (type: SourceType) => sourceKinds[type].searched;
export const isAccountKind = (type: SourceType) => sourceKinds[type].accountProvider !== null;
export const isTwitterKind = (type: SourceType): type is TwitterKind =>
  (TWITTER_KINDS as readonly SourceType[]).includes(type);

export function firstStepOf(type: SourceType): BuilderStep {
  if (isSearchedKind(type)) return 'selected';
  if (isAccountKind(type)) return 'connect';
  return 'edit';
}

/**
 * Where the back arrow leads (docs/product.md §4): to entry from searching and selected, from Hacker News and the
 * other edit-only kinds, and from the connect step; from a Twitter source's edit step to connect; from
 * an account kind's edit step to entry (calendar and payments have nothing to go back to); otherwise
 * (a searched kind's edit step) back to its search.
 */
export function backStepOf(type: SourceType, step: BuilderStep): BuilderStep {
  if (step === 'entry' || step === 'selected' || step === 'searching' || step === 'connect') return 'entry';
  if (isTwitterKind(type)) return 'connect';
  if (isSearchedKind(type)) return 'searching';
  return 'entry';
}

/** docs/product.md §2 sidebar headings and their subtitles. */
export function headingOf(step: BuilderStep): { title: string; subtitle: string } {
  if (step === 'edit') return { title: 'Edit source', subtitle: 'Modify the settings for this source' };
  if (step === 'connect')
    return { title: 'Connect source', subtitle: 'Connect an account to add this source' };
  return { title: 'Select sources', subtitle: 'Choose what you want to add to your Digest' };
}

/** docs/product.md §2 hints, one per step. */
export function hintOf(step: BuilderStep): string {
  switch (step) {
    case 'entry':
      return "It's easy! Just select a source to add";
    case 'selected':
      return 'Search for something';
    case 'searching':
      return 'Choose an option from the results';
    case 'connect':
    case 'edit':
      return 'Edit source settings and save it';
  }
}

/** docs/product.md §5: a search fires only past 2 characters. */
export const MIN_SEARCH_LENGTH = 3;
/** docs/product.md §9: source searches are debounced 500 ms. */
export const SEARCH_DEBOUNCE_MS = 500;
/** docs/product.md §9: with no connected account, the settings go back to connect after about 0.5 s. */
export const CONNECT_REDIRECT_MS = 500;
/** docs/product.md §9: after connecting, accounts are checked after about 1 s. */
export const ACCOUNT_CHECK_MS = 1_000;
/** docs/product.md §9: popular lists show 12 placeholders while they load. */
export const POPULAR_PLACEHOLDERS = 12;
