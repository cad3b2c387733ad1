import * as z from 'zod/mini';

/** The settings fields several kinds share (docs/product.md §3 fields, §5 ranges, §9 defaults and option labels). */

export const LAYOUTS = [1, 2] as const;
export const IMAGE_OPTIONS = ['show', 'hide'] as const;
export const POST_BODY_OPTIONS = ['full', 'paragraph', 'hide'] as const;

export type Layout = (typeof LAYOUTS)[number];
export type ImagesOption = (typeof IMAGE_OPTIONS)[number];
export type PostBodyOption = (typeof POST_BODY_OPTIONS)[number];

/** docs/product.md §9 option labels, in the order the builder shows them. */
export const LAYOUT_OPTIONS = [
  { value: 1, label: '1 Column' },
  { value: 2, label: '2 Columns' },
] as const;
export const IMAGES_OPTIONS = [
  { value: 'show', label: 'Show' },
  { value: 'hide', label: 'Hide' },
] as const;
/** RSS and Reddit post content. */
export const POST_CONTENT_OPTIONS = [
  { value: 'full', label: 'Full' },
  { value: 'paragraph', label: 'Paragraph' },
  { value: 'hide', label: 'Hide' },
] as const;

export const SOURCE_NAME_MAX_LENGTH = 100;
export const TEXT_MAX = 500;
const URL_MAX = 2048;
const ID_MAX = 200;

/** Display name: trimmed, so white space only becomes ''. */
const displayName = (fallback: string) =>
  z._default(
    z.string().check(
      z.maxLength(SOURCE_NAME_MAX_LENGTH, {
        error: `Source name should have at most ${SOURCE_NAME_MAX_LENGTH} characters`,
      }),
      z.trim(),
    ),
    fallback,
  );

/** Every kind's fields: the display name (`fallbackName` if none is given) and whether the heading shows. */
export const common = (fallbackName: string) => ({
  name: displayName(fallbackName),
  showHeading: z._default(z.boolean(), true),
});

export const count = (max: number, fallback: number, label = 'Number of posts', min = 0) =>
  z._default(
    z
      .number({ error: `${label} must be a number` })
      .check(
        z.int({ error: `${label} must be a whole number` }),
        z.gte(min, { error: `${label} must be at least ${min}` }),
        z.lte(max, { error: `${label} must be at most ${max}` }),
      ),
    fallback,
  );

export const layout = (fallback: Layout) =>
  z._default(z.literal(LAYOUTS, { error: 'Layout must be 1 (1 Column) or 2 (2 Columns)' }), fallback);
export const images = (fallback: ImagesOption = 'show') =>
  z._default(z.enum(IMAGE_OPTIONS, { error: "Images must be 'show' or 'hide'" }), fallback);
export const postBody = (fallback: PostBodyOption = 'paragraph') =>
  z._default(
    z.enum(POST_BODY_OPTIONS, { error: "Post content must be 'full', 'paragraph' or 'hide'" }),
    fallback,
  );
export const flag = (fallback = false) => z._default(z.boolean(), fallback);
/**
 * docs/product.md §3 "Only new items": what a block whose items all came in an earlier issue says instead
 * of repeating them, and why an issue with nothing new was not sent ("Send latest digest" answers it too).
 */
export const NOTHING_NEW_MESSAGE = 'Nothing new since the last issue.';
/** The builder's label of `onlyNew`. */
export const ONLY_NEW_LABEL = 'Only new items';
/**
 * A list kind's "Only new items" (on by default): an issue leaves out the items an earlier issue of the
 * same digest carried, and says so in one line when nothing is left.
 */
export const onlyNew = () =>
  z._default(z.boolean({ error: `${ONLY_NEW_LABEL} must be true or false` }), true);
export const text = (max = TEXT_MAX) => z.string().check(z.trim(), z.maxLength(max));
export const id = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .check(z.trim(), z.minLength(1, { error: `${label} is required` }), z.maxLength(ID_MAX));
/** An http(s) URL. */
export const httpUrl = (label: string) =>
  z.url({ protocol: /^https?$/, error: `${label} must be an http(s) URL` }).check(z.maxLength(URL_MAX));
/** A picture URL the provider gave us (or none). */
export const pictureUrl = () => z.optional(z.nullable(z.union([z.literal(''), httpUrl('Picture')])));

type Settings = Record<string, unknown>;

/**
 * The input schema of one kind: strict, defaults, `icon` accepted then dropped (icons are never stored),
 * then the kind's own tidying of what was sent.
 */
export function inputSchema<S extends z.core.$ZodShape>(
  shape: S,
  tidy: (settings: Settings) => Settings = (s) => s,
) {
  return z.pipe(
    z.strictObject({ ...shape, icon: z.optional(z.unknown()) }),
    z.transform((value) => {
      const { icon: _icon, ...settings } = value as Settings;
      return tidy(settings) as z.output<z.ZodMiniObject<S>>;
    }),
  );
}

/** An option list (accounts, users) with its first item per key only; an empty one is dropped. */
export function uniqueOptions(settings: Settings, field: string, key: (item: Settings) => string): Settings {
  const list = settings[field] as Settings[] | undefined;
  if (list === undefined) return settings;
  const seen = new Set<string>();
  const unique = list.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  if (unique.length > 0) return { ...settings, [field]: unique };
  const { [field]: _empty, ...rest } = settings;
  return rest;
}
