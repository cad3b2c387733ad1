import * as z from 'zod/mini';
import { sourceKinds } from './source-kinds';
import type { SourceKind } from './source-kinds/source-kind';

/**
 * Source settings (docs/product.md §3 fields, §5 ranges, §9 defaults): one strict zod schema per source kind (in its
 * descriptor, `source-kinds/<kind>.ts`), discriminated by `type`. Parsing a source:
 * - fills omitted settings with docs/product.md §9 defaults;
 * - refuses an unknown `type` or an unknown field;
 * - accepts and drops `icon` (icons are never stored);
 * - trims the display name (white space only becomes '');
 * - drops empty option lists (calendar accounts, Twitter users, Stripe accounts);
 * - keeps one calendar or Stripe account per `tokenId` and one Twitter user per `username` (the first);
 * - RSS: post content 'hide' forces images 'hide'.
 *
 * `sourceSchema` validates what a client sends; `storedSourceSchema` describes what the server answers
 * (the same fields, every default filled in, no transforms). The tables below are read from the
 * descriptors, for code that needs one fact of every kind.
 */

export {
  IMAGE_OPTIONS,
  IMAGES_OPTIONS,
  type ImagesOption,
  LAYOUT_OPTIONS,
  LAYOUTS,
  type Layout,
  NOTHING_NEW_MESSAGE,
  ONLY_NEW_LABEL,
  POST_BODY_OPTIONS,
  POST_CONTENT_OPTIONS,
  type PostBodyOption,
  SOURCE_NAME_MAX_LENGTH,
} from './source-kinds/fields';
export type {
  ItemDiscussion,
  ItemIdentityParts,
  ItemList,
  RememberedItems,
  SourceKind,
} from './source-kinds/source-kind';

type Kinds = typeof sourceKinds;

/** docs/product.md §3 internal names, as saved (`TODAY'S_DATE` is saved as `DATE`). */
export type SourceType = keyof Kinds;
export const SOURCE_TYPES = Object.keys(sourceKinds) as readonly SourceType[];

/**
 * The descriptor of a kind, for code that handles every kind alike: the source and content it is given are
 * of that kind.
 */
export const sourceKindOf = (type: SourceType): SourceKind<unknown, unknown> => sourceKinds[type];

/**
 * The content without the items the source's conditions leave out (docs/product.md §3 "Conditions": Hacker
 * News and Reddit points and comments); the content itself when it has no such condition. The issue build
 * and the builder's preview both read it, so the preview shows what the mail will.
 */
export function withConditionsApplied<Content>(source: { type: SourceType }, content: Content): Content {
  const keep = sourceKindOf(source.type).conditions?.keep;
  return keep ? (keep(source, content) as Content) : content;
}

/** One fact of every kind, by kind. */
const byKind = <T>(fact: (kind: SourceKind<unknown, unknown>) => T) =>
  Object.fromEntries(SOURCE_TYPES.map((type) => [type, fact(sourceKindOf(type))])) as Record<SourceType, T>;

/** Name a kind shows when the user gives none (the builder's block title). */
export const SOURCE_LABELS = byKind((kind) => kind.label);

/** docs/product.md §3 data-source path names (`/api/data-sources/{path}`) by kind; DATE has none. */
export const SOURCE_DATA_PATHS = byKind((kind) => kind.dataPath);

/** Where each kind sits in the builder. */
export const SOURCE_CATALOGUE_PLACES = byKind(({ category, popular }) => ({ category, popular }));

/** Source kinds that need a connected account (`tokenId`) before they can be saved. */
export const ACCOUNT_SOURCE_TYPES = SOURCE_TYPES.filter((type) => sourceKinds[type].accountProvider !== null);

/** Upper bound of `numberOfPosts` / `limit` per kind (docs/product.md §5); the lower bound is 0. */
export const SOURCE_POST_LIMITS = Object.fromEntries(
  SOURCE_TYPES.flatMap((type) => {
    const count = sourceKinds[type].count;
    return count === null ? [] : [[type, count.max]];
  }),
) as { readonly [T in SourceType as Kinds[T]['count'] extends null ? never : T]: number };

// The union schemas take their members as a non-empty tuple; every kind is one member.
type KindSchema = Kinds[SourceType]['schema'];
type StoredKindSchema = Kinds[SourceType]['storedSchema'];

/** One source as a client sends it: `{ type, ...settings }`. */
export const sourceSchema = z.discriminatedUnion(
  'type',
  SOURCE_TYPES.map((type) => sourceKinds[type].schema) as [KindSchema, ...KindSchema[]],
  { error: `Source type must be one of ${SOURCE_TYPES.join(', ')}` },
);

/** A source as the server stores and answers it (every default filled, no `icon`). */
export const storedSourceSchema = z.discriminatedUnion(
  'type',
  SOURCE_TYPES.map((type) => sourceKinds[type].storedSchema) as [StoredKindSchema, ...StoredKindSchema[]],
);

/** What a client may send for one source (defaults optional, `icon` allowed). */
export type SourceInput = z.input<typeof sourceSchema>;
/** A validated source: every setting present. */
export type Source = z.output<typeof sourceSchema>;
export type SourceOf<T extends SourceType> = Extract<Source, { type: T }>;
export type SourceInputOf<T extends SourceType> = Extract<SourceInput, { type: T }>;

/** Schema of one kind, by type (for a builder form of that kind). */
export const SOURCE_SCHEMAS = byKind((kind) => kind.schema) as {
  readonly [T in SourceType]: Kinds[T]['schema'];
};

/** The settings a new block of this kind starts with (docs/product.md §9), for kinds that need no choice. */
export function defaultSource<T extends 'HACKER_NEWS' | 'DATE' | 'PRODUCT_HUNT'>(type: T): SourceOf<T> {
  return SOURCE_SCHEMAS[type].parse({ type }) as SourceOf<T>;
}
