/**
 * Post-processing of HTML that a source gave and the server already sanitised (sanitize-html writes every
 * tag the same way: lower-case names, double-quoted attribute values with `"` escaped), so the tags can be
 * matched reliably here without a parser. Pure string functions: they run in the browser preview too.
 */

/** An `<img>` tag; quoted values may contain `>`. */
const IMG_TAG = /<img\b((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;
const ATTRIBUTE = /([a-z][a-z0-9-]*)\s*=\s*"([^"]*)"/gi;

function attributesOf(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name, value] of source.matchAll(ATTRIBUTE)) {
    if (name && value !== undefined) attributes.set(name.toLowerCase(), value);
  }
  return attributes;
}

/**
 * One image that fits `maxWidth`: a wider `width` is capped and its `height` dropped (a fixed height on a
 * narrowed picture would squash it), and `max-width:100%` keeps any picture inside its column.
 */
function cappedImage(attributes: Map<string, string>, maxWidth: number): string {
  const src = attributes.get('src');
  if (!src) return '';
  const parts = [`src="${src}"`, `alt="${attributes.get('alt') ?? ''}"`];
  const width = Number(attributes.get('width'));
  const height = attributes.get('height');
  if (Number.isFinite(width) && width > 0) {
    if (width > maxWidth) parts.push(`width="${maxWidth}"`);
    else {
      parts.push(`width="${width}"`);
      if (height) parts.push(`height="${height}"`);
    }
  }
  parts.push('style="max-width:100%;height:auto;border:0"');
  return `<img ${parts.join(' ')}>`;
}

/** Every `<img>` of `html` at most `maxWidth` pixels wide. Values are re-emitted as they were (already escaped). */
export function capImages(html: string, maxWidth: number): string {
  return html.replace(IMG_TAG, (_tag, attributes: string) => cappedImage(attributesOf(attributes), maxWidth));
}

/** `html` without its pictures (images 'hide'); links and figures left empty by the removal go too. */
export function withoutImages(html: string): string {
  return html
    .replace(IMG_TAG, '')
    .replace(/<a\b[^>]*>\s*<\/a>/g, '')
    .replace(/<(figure|p)>\s*<\/\1>/g, '')
    .trim();
}

/**
 * The first paragraph of `html` (post content 'paragraph'). Connectors already cut it; this keeps the
 * option true for content read with another setting (the builder preview switches it without a refetch).
 */
export function firstParagraphOf(html: string): string {
  const match = /^\s*(<p>[\s\S]*?<\/p>)/.exec(html);
  return match?.[1] ?? html;
}

/** `value` when it is an absolute http(s) or mailto URL, else undefined: never a `javascript:` link. */
export function safeHref(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** `value` when it is an absolute http(s) URL (a picture we may show), else undefined. */
export function safeImageSrc(value: string | undefined): string | undefined {
  const href = safeHref(value);
  return href?.startsWith('mailto:') ? undefined : href;
}
