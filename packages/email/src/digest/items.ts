import type { SourceType } from '@digest/contracts';
import type { SourceContentMap, TwitterContent } from '@digest/contracts/content';
import type { DigestBlockInput } from './types';

/**
 * The items of each kind of content, counted and cut from the end, for fitting an issue under the
 * e-mail size limit. Weather and the date are one item each: half a forecast says nothing.
 */
interface ItemList<T extends SourceType> {
  count: (content: SourceContentMap[T]) => number;
  keep: (content: SourceContentMap[T], count: number) => SourceContentMap[T];
}

const whole = { count: () => 1, keep: <C>(content: C) => content };

/** The four X/Twitter kinds share one content shape. */
const tweets = {
  count: (content: TwitterContent) => content.tweets.length,
  keep: (content: TwitterContent, count: number) => ({ ...content, tweets: content.tweets.slice(0, count) }),
};

const LISTS: { [T in SourceType]: ItemList<T> } = {
  WEATHER: whole,
  DATE: whole,
  HACKER_NEWS: {
    count: (content) => content.items.length,
    keep: (content, count) => ({ ...content, items: content.items.slice(0, count) }),
  },
  RSS: {
    count: (content) => content.items.length,
    keep: (content, count) => ({ ...content, items: content.items.slice(0, count) }),
  },
  PRODUCT_HUNT: {
    count: (content) => content.items.length,
    keep: (content, count) => ({ ...content, items: content.items.slice(0, count) }),
  },
  REDDIT: {
    count: (content) => content.posts.length,
    keep: (content, count) => ({ ...content, posts: content.posts.slice(0, count) }),
  },
  YOUTUBE: {
    count: (content) => content.videos.length,
    keep: (content, count) => ({ ...content, videos: content.videos.slice(0, count) }),
  },
  STRIPE: {
    count: (content) => content.accounts.length,
    keep: (content, count) => ({ ...content, accounts: content.accounts.slice(0, count) }),
  },
  GOOGLE_CALENDAR: {
    count: (content) => content.days.reduce((sum, day) => sum + day.events.length, 0),
    keep: (content, count) => {
      let left = count;
      const days = content.days.flatMap((day) => {
        const events = day.events.slice(0, Math.max(left, 0));
        left -= events.length;
        return events.length > 0 ? [{ ...day, events }] : [];
      });
      return { ...content, days };
    },
  },
  TWITTER_TWEETS: tweets,
  TWITTER_TIMELINE: tweets,
  TWITTER_SEARCH: tweets,
  TWITTER_LIST: tweets,
};

/** The list of a block's kind. The table is keyed by kind, so the kind of `block` picks the right one. */
const listOf = (block: DigestBlockInput) => LISTS[block.source.type] as unknown as ItemList<SourceType>;

/** How many items a block shows (an error block or one without content: none). */
export function itemCount(block: DigestBlockInput): number {
  if (block.error || !block.content) return 0;
  return listOf(block).count(block.content);
}

/** A block showing only its first `count` items; with none left it has no content (its heading only). */
export function keepItems(block: DigestBlockInput, count: number): DigestBlockInput {
  if (block.error || !block.content || count >= itemCount(block)) return block;
  if (count <= 0) return { ...block, content: undefined };
  return { ...block, content: listOf(block).keep(block.content, count) } as DigestBlockInput;
}

/** A block of an issue that had to be cut to fit, with `cut` set when it lost items. */
export type IssueBlock = DigestBlockInput & { cut?: boolean };

/** The blocks with only the first `count` items of the issue kept (in block order); later blocks keep their heading. */
export function keepFirstItems(blocks: readonly DigestBlockInput[], count: number): IssueBlock[] {
  let left = count;
  return blocks.map((block) => {
    const items = itemCount(block);
    const kept = Math.min(items, left);
    left -= kept;
    return kept < items ? { ...keepItems(block, kept), cut: true } : block;
  });
}

/** Only the headings of the first `count` blocks: the last resort when even those with no items are too long. */
export function keepHeadings(blocks: readonly DigestBlockInput[], count: number): IssueBlock[] {
  return blocks
    .slice(0, count)
    .map((block) => ({ ...block, content: undefined, error: undefined, cut: true }));
}
