import * as z from 'zod/mini';
import { listConditions } from './conditions';
import { common, count, images, inputSchema, layout, onlyNew, SOURCE_NAME_MAX_LENGTH, text } from './fields';
import { listItems, rememberedList, type SourceKind } from './source-kind';

/** docs/product.md §3 YouTube video: the newest uploads of a channel, from its feed. */
export interface YoutubeVideo {
  title: string;
  /** ISO 8601 publication time. */
  date: string;
  /** The watch page. */
  link: string;
  /** The video's hqdefault thumbnail, '' when images are hidden. */
  cover: string;
}

export interface YoutubeContent {
  channelId: string;
  /** The channel's title as its feed gives it. */
  channelName: string;
  videos: YoutubeVideo[];
}

/** docs/product.md §3 YouTube channel (search results and the popular list). */
export interface YoutubeChannel {
  channelId: string;
  title: string;
  description: string;
  subscribers: number;
  /** The channel's avatar, '' when unknown. */
  icon: string;
}

const LABEL = 'YouTube';
const COUNT = { max: 10, default: 6 } as const;

const youtubeShape = {
  type: z.literal('YOUTUBE'),
  ...common(''),
  channelId: z
    .string({ error: 'Channel is required' })
    .check(
      z.trim(),
      z.regex(/^[A-Za-z0-9_-]{2,64}$/, { error: 'Channel id must be letters, digits, - or _' }),
    ),
  channelName: z._default(text(200), ''),
  sourceName: z._default(text(SOURCE_NAME_MAX_LENGTH), ''),
  numberOfPosts: count(COUNT.max, COUNT.default),
  layout: layout(2),
  images: images('show'),
  onlyNew: onlyNew(),
  conditions: listConditions(COUNT.max),
};

export const youtubeSourceSchema = inputSchema(youtubeShape);
export type YoutubeSource = z.output<typeof youtubeSourceSchema>;

export const youtubeKind = {
  type: 'YOUTUBE',
  label: LABEL,
  schema: youtubeSourceSchema,
  storedSchema: z.object(youtubeShape),
  category: 'socials',
  popular: true,
  dataPath: 'youtube',
  accountProvider: null,
  readsPrivateData: false,
  searched: true,
  count: COUNT,
  icon: { key: 'youtube', label: 'YouTube' },
  title: (source, content) => source.sourceName || content?.channelName || source.channelName || LABEL,
  hasNews: (content) => content.videos.length > 0,
  items: listItems<YoutubeContent>('videos'),
  remembers: rememberedList<YoutubeContent, YoutubeSource>(
    'videos',
    (source) => source.channelId,
    (video) => ({ link: video.link, title: video.title, date: video.date }),
  ),
} as const satisfies SourceKind<YoutubeContent, YoutubeSource>;
