import * as z from 'zod/mini';
import { listConditions } from './conditions';
import { common, count, images, inputSchema, layout, onlyNew, postBody } from './fields';
import { listItems, rememberedList, type SourceKind } from './source-kind';

/** docs/product.md §3 Product Hunt item: one of today's launches (Pacific time), best ranked first. */
export interface ProductHuntItem {
  name: string;
  tagline: string;
  /** Sanitised description, cut per `postBody` ('' for 'hide'). */
  description: string;
  /** '' when images are hidden or the launch has none. */
  thumbnail: string;
  /**
   * null when unknown: read without a token (the public feed) a launch has no counts. Issues stored
   * before counts could be unknown always have numbers.
   */
  votesCount: number | null;
  commentsCount: number | null;
  /** The launch's page on Product Hunt. */
  url: string;
}

export interface ProductHuntContent {
  items: ProductHuntItem[];
}

const LABEL = 'Product Hunt';
const COUNT = { max: 10, default: 6 } as const;

const productHuntShape = {
  type: z.literal('PRODUCT_HUNT'),
  ...common(LABEL),
  numberOfPosts: count(COUNT.max, COUNT.default),
  layout: layout(2),
  images: images('show'),
  postBody: postBody('paragraph'),
  onlyNew: onlyNew(),
  conditions: listConditions(COUNT.max),
};

export const productHuntSourceSchema = inputSchema(productHuntShape);
export type ProductHuntSource = z.output<typeof productHuntSourceSchema>;

export const productHuntKind = {
  type: 'PRODUCT_HUNT',
  label: LABEL,
  schema: productHuntSourceSchema,
  storedSchema: z.object(productHuntShape),
  category: 'tech',
  popular: true,
  dataPath: 'product-hunt',
  accountProvider: null,
  readsPrivateData: false,
  searched: false,
  count: COUNT,
  icon: { key: 'productHunt', label: 'Product Hunt' },
  title: () => LABEL,
  hasNews: (content) => content.items.length > 0,
  items: listItems<ProductHuntContent>('items'),
  remembers: rememberedList<ProductHuntContent, ProductHuntSource>(
    'items',
    () => '',
    (item) => ({ link: item.url, title: item.name }),
  ),
} as const satisfies SourceKind<ProductHuntContent, ProductHuntSource>;
