import * as z from 'zod/mini';
import { discussionConditions, filtersItems, reaches } from './conditions';
import { common, count, flag, inputSchema, layout, onlyNew } from './fields';
import { type ItemDiscussion, listItems, rememberedList, type SourceKind } from './source-kind';

export interface HackerNewsItem {
  title: string;
  /** The linked article; the discussion page when the story has no link (Ask HN). */
  url: string;
  /** The discussion page on news.ycombinator.com. */
  storyUrl: string;
  createdAt: string;
  numberOfComments: number;
  score: number;
  /** Other sources of the digest that had the same link, when this issue shows it once. */
  discussions?: ItemDiscussion[];
}

export interface HackerNewsContent {
  items: HackerNewsItem[];
}

export const HACKER_NEWS_STORIES = ['top', 'latest'] as const;
export const HACKER_NEWS_STORY_OPTIONS = [
  { value: 'top', label: 'Top stories' },
  { value: 'latest', label: 'Latest stories' },
] as const;

const LABEL = 'Hacker News';
const COUNT = { max: 10, default: 6 } as const;

const hackerNewsShape = {
  type: z.literal('HACKER_NEWS'),
  ...common(LABEL),
  numberOfPosts: count(COUNT.max, COUNT.default),
  /** 'top' (front page) or 'latest' (newest) stories. */
  story: z._default(z.enum(HACKER_NEWS_STORIES, { error: "Story must be 'top' or 'latest'" }), 'top'),
  askHN: flag(),
  showHN: flag(),
  layout: layout(2),
  onlyNew: onlyNew(),
  conditions: discussionConditions(COUNT.max),
};

export const hackerNewsSourceSchema = inputSchema(hackerNewsShape);
export type HackerNewsSource = z.output<typeof hackerNewsSourceSchema>;

export const hackerNewsKind = {
  type: 'HACKER_NEWS',
  label: LABEL,
  schema: hackerNewsSourceSchema,
  storedSchema: z.object(hackerNewsShape),
  category: 'tech',
  popular: true,
  dataPath: 'hacker-news',
  accountProvider: null,
  readsPrivateData: false,
  searched: false,
  count: COUNT,
  icon: { key: 'hackerNews', label: 'Hacker News' },
  title: () => LABEL,
  hasNews: (content) => content.items.length > 0,
  items: listItems<HackerNewsContent>('items'),
  conditions: {
    keep: (source, content) =>
      filtersItems(source.conditions)
        ? {
            ...content,
            items: content.items.filter((item) =>
              reaches({ points: item.score, comments: item.numberOfComments }, source.conditions),
            ),
          }
        : content,
  },
  // The HN thread is the story's id here; its link is what other sources of the digest may share.
  remembers: rememberedList<HackerNewsContent, HackerNewsSource>(
    'items',
    (source) => [source.story, source.askHN, source.showHN].join(':'),
    (item) => ({
      guid: item.storyUrl,
      link: item.url,
      title: item.title,
      date: item.createdAt,
      discussion: item.storyUrl,
    }),
  ),
} as const satisfies SourceKind<HackerNewsContent, HackerNewsSource>;
