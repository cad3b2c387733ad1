import { z } from 'zod';
import { common, count, flag, inputSchema, layout } from './fields';
import { listItems, type SourceKind } from './source-kind';

export interface HackerNewsItem {
  title: string;
  /** The linked article; the discussion page when the story has no link (Ask HN). */
  url: string;
  /** The discussion page on news.ycombinator.com. */
  storyUrl: string;
  createdAt: string;
  numberOfComments: number;
  score: number;
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
  story: z.enum(HACKER_NEWS_STORIES, { error: "Story must be 'top' or 'latest'" }).default('top'),
  askHN: flag(),
  showHN: flag(),
  layout: layout(2),
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
  guidedKey: 'hackerNews',
  searched: false,
  count: COUNT,
  icon: { key: 'hackerNews', label: 'Hacker News' },
  title: () => LABEL,
  hasNews: (content) => content.items.length > 0,
  items: listItems<HackerNewsContent>('items'),
} as const satisfies SourceKind<HackerNewsContent, HackerNewsSource>;
