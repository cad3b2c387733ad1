import type * as z from 'zod/mini';

/** Builder tabs (docs/product.md §2 "category carousel/tabs"); `popular` is a flag, not a tab of its own. */
export const SOURCE_CATEGORIES = ['everyday', 'news', 'socials', 'tech', 'finance'] as const;
export type SourceCategory = (typeof SOURCE_CATEGORIES)[number];

/** Providers whose account a user connects before adding the source (docs/product.md §3 connected account token). */
export const ACCOUNT_PROVIDERS = ['GOOGLE', 'TWITTER', 'STRIPE'] as const;
export type AccountProviderName = (typeof ACCOUNT_PROVIDERS)[number];

/**
 * The items of a kind's content, counted and cut from the end, for fitting an issue under the e-mail
 * size limit.
 */
export interface ItemList<Content> {
  count(content: Content): number;
  keep(content: Content, count: number): Content;
}

/**
 * Everything the server, the web app and the e-mail know about one kind of source, in one place. The code
 * that only a package has (a connector, a builder panel, an e-mail block) stays in that package, in a
 * table keyed by kind.
 */
export interface SourceKind<Content, Settings> {
  /** docs/product.md §3 internal name, as saved. */
  type: string;
  /** The name a block of this kind shows when the user gives none (the builder's block title). */
  label: string;
  /** What a client may send (strict, docs/product.md §9 defaults filled in, `icon` accepted then dropped). */
  schema: z.ZodMiniType<Settings>;
  /** What the server stores and answers: the same fields, every default filled in, no transforms. */
  storedSchema: z.ZodMiniType;
  /** Where the builder lists it, and whether its default 'Popular' view shows it. */
  category: SourceCategory;
  popular: boolean;
  /** docs/product.md §3 data-source path (`/api/data-sources/{path}`); null when the kind has no data calls. */
  dataPath: string | null;
  /** The provider whose connected account it needs (`tokenId`) before it can be saved, or null. */
  accountProvider: AccountProviderName | null;
  /**
   * docs/design.md §10 "Private by default": its content is what only the owner's account can read (their
   * meetings, revenue, home timeline, lists, protected accounts they follow). Such a block goes to the owner
   * and their subscribers, never into a public page, which shows its title and "Private" instead.
   */
  readsPrivateData: boolean;
  /** docs/product.md §4: the builder asks for a search (a place, a subreddit, a feed, a channel) before the settings. */
  searched: boolean;
  /**
   * How many items the user may ask for (docs/product.md §5, from 0 unless `min` says otherwise) and how
   * many by default (docs/product.md §9), or null.
   */
  count: { min?: number; max: number; default: number } | null;
  /** The badge the web app draws for it (`key` picks the glyph and colour) and the badge's name. */
  icon: { key: string; label: string };
  /** A block's heading when the user gave no name; `content`, when there is some, may name it. */
  title(settings: Settings, content?: Content): string;
  /** Whether a block has anything to read: an issue whose blocks have no news is not sent. */
  hasNews(content: Content): boolean;
  items: ItemList<Content>;
  /**
   * For a kind that `readsPrivateData`: what a public page shows under the block's title instead of
   * "Private" — a fact of the content that reveals none of it ("3 newsletters"). Absent: "Private".
   */
  publicSummary?(content: Content): string;
  /**
   * For a kind whose content is a list of items a later issue could repeat (posts, stories, videos, tweets):
   * how the digest remembers what it sent, so its "only new items" setting leaves those out. Absent for
   * figures (weather, date, Stripe, calendar), which are today's reading, not items, and for Newsletters,
   * which keeps its own record of each message a digest carried (`digest_newsletter_items`).
   */
  remembers?: RememberedItems<Content, Settings>;
  /**
   * docs/product.md §3 "Conditions" the kind's settings may hold (`conditions`, see conditions.ts): `keep`
   * leaves out the items that do not reach them (points, comments); `unmet` says in words why the source has
   * nothing to say today under them (no rain expected, revenue steady), or undefined when it has. A list
   * kind's "at least N new items" is checked by the issue build, which knows what earlier issues carried.
   * Absent for a kind without such conditions.
   */
  conditions?: {
    keep?(settings: Settings, content: Content): Content;
    unmet?(settings: Settings, content: Content): string | undefined;
  };
}

/**
 * Where else a digest's issue found an item it shows once (docs/product.md §3 "Every item once"): another
 * source's discussion of the same link ("HN discussion", "r/programming").
 */
export interface ItemDiscussion {
  label: string;
  url: string;
}

/** What tells one item from another, best first: the provider's id, its link, its title and date. */
export interface ItemIdentityParts {
  guid?: string | undefined;
  link?: string | undefined;
  title?: string | undefined;
  date?: string | undefined;
  /** The item's own discussion page on this source (an HN thread, a subreddit post), when it has one. */
  discussion?: string | undefined;
}

export interface RememberedItems<Content, Settings> {
  /**
   * What reads the same items again: the settings that choose them (a feed's address, a subreddit), not
   * how they look, so renaming a block or changing its count does not repeat its items.
   */
  sourceKey(settings: Settings): string;
  /** The identity parts of each item, in order. */
  parts(content: Content): ItemIdentityParts[];
  /** The content with the items at the positions `keep` accepts. */
  keepOnly(content: Content, keep: (index: number) => boolean): Content;
}

/** The content type of a kind's descriptor. */
export type ContentOf<Kind> = Kind extends { items: ItemList<infer Content> } ? Content : never;

type ListField<Content> = {
  [Field in keyof Content]: Content[Field] extends readonly unknown[] ? Field : never;
}[keyof Content];

/** Content whose items are the entries of one list field (posts, videos, accounts…). */
export function listItems<Content>(field: ListField<Content>): ItemList<Content> {
  const listOf = (content: Content) => content[field] as readonly unknown[];
  return {
    count: (content) => listOf(content).length,
    keep: (content, count) => ({ ...content, [field]: listOf(content).slice(0, count) }),
  };
}

/** The remembered items of content whose items are the entries of one list field. */
export function rememberedList<Content, Settings>(
  field: ListField<Content>,
  sourceKey: (settings: Settings) => string,
  partsOf: (item: ListEntry<Content>) => ItemIdentityParts,
): RememberedItems<Content, Settings> {
  const listOf = (content: Content) => content[field] as readonly ListEntry<Content>[];
  return {
    sourceKey,
    parts: (content) => listOf(content).map(partsOf),
    keepOnly: (content, keep) => ({ ...content, [field]: listOf(content).filter((_, index) => keep(index)) }),
  };
}

type ListEntry<Content> = {
  [Field in keyof Content]: Content[Field] extends readonly (infer Item)[] ? Item : never;
}[keyof Content];

/** Content that is one item: half a forecast says nothing. */
export function oneItem<Content>(): ItemList<Content> {
  return { count: () => 1, keep: (content) => content };
}
