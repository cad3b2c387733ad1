import { z } from 'zod';

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
  z
    .string()
    .max(SOURCE_NAME_MAX_LENGTH, {
      error: `Source name should have at most ${SOURCE_NAME_MAX_LENGTH} characters`,
    })
    .trim()
    .default(fallback);

/** Every kind's fields: the display name (`fallbackName` if none is given) and whether the heading shows. */
export const common = (fallbackName: string) => ({
  name: displayName(fallbackName),
  showHeading: z.boolean().default(true),
});

export const count = (max: number, fallback: number, label = 'Number of posts', min = 0) =>
  z
    .number({ error: `${label} must be a number` })
    .int({ error: `${label} must be a whole number` })
    .min(min, { error: `${label} must be at least ${min}` })
    .max(max, { error: `${label} must be at most ${max}` })
    .default(fallback);

export const layout = (fallback: Layout) =>
  z.literal(LAYOUTS, { error: 'Layout must be 1 (1 Column) or 2 (2 Columns)' }).default(fallback);
export const images = (fallback: ImagesOption = 'show') =>
  z.enum(IMAGE_OPTIONS, { error: "Images must be 'show' or 'hide'" }).default(fallback);
export const postBody = (fallback: PostBodyOption = 'paragraph') =>
  z
    .enum(POST_BODY_OPTIONS, { error: "Post content must be 'full', 'paragraph' or 'hide'" })
    .default(fallback);
export const flag = (fallback = false) => z.boolean().default(fallback);
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
export const onlyNew = () => z.boolean({ error: `${ONLY_NEW_LABEL} must be true or false` }).default(true);
export const text = (max = TEXT_MAX) => z.string().trim().max(max);
export const id = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, { error: `${label} is required` })
    .max(ID_MAX);
/** An http(s) URL. */
export const httpUrl = (label: string) =>
  z.url({ protocol: /^https?$/, error: `${label} must be an http(s) URL` }).max(URL_MAX);
/** A picture URL the provider gave us (or none). */
export const pictureUrl = () =>
  z
    .union([z.literal(''), httpUrl('Picture')])
    .nullable()
    .optional();

type Settings = Record<string, unknown>;

/**
 * The input schema of one kind: strict, defaults, `icon` accepted then dropped (icons are never stored),
 * then the kind's own tidying of what was sent.
 */
export function inputSchema<S extends z.ZodRawShape>(
  shape: S,
  tidy: (settings: Settings) => Settings = (s) => s,
) {
  return z
    .object({ ...shape, icon: z.unknown().optional() })
    .strict()
    .transform((value) => {
      const { icon: _icon, ...settings } = value as Settings;
      return tidy(settings) as z.output<z.ZodObject<S>>;
    });
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
