/** One feed, whatever its format (RSS 0.9x/1.0/2.0, Atom 0.3/1.0, JSON Feed 1.0/1.1). */
export interface ParsedFeed {
  title: string;
  /** The site the feed belongs to (absolute), '' when the feed names none. */
  link: string;
  description: string;
  /** The feed's logo or image (RSS image, Atom logo, itunes:image, JSON Feed icon), absolute or ''. */
  image: string;
  /** The feed's small icon (Atom icon, JSON Feed favicon), absolute or ''. */
  icon: string;
  items: ParsedFeedItem[];
}

export interface ParsedFeedItem {
  /** Plain text. */
  title: string;
  /** Absolute, '' when the item has none. */
  link: string;
  /** The full body as the feed gives it: raw, unsanitised HTML. */
  content: string;
  /** The short body (RSS description when there is content:encoded, Atom summary): raw HTML. */
  summary: string;
  creator: string;
  /** ISO 8601 UTC, '' when absent or unreadable. */
  pubDate: string;
  guid: string;
  /** Absolute URL of the item's picture, '' when it has none. */
  image: string;
  /** What relative links in `content` and `summary` resolve against: xml:base, else the item link, else the feed's URL. */
  baseUrl: string;
}

/** `href` made absolute against `base`; '' when it is not a usable http(s) address. */
export function resolveUrl(href: string | undefined, base: string): string {
  const value = (href ?? '').trim();
  if (value === '') return '';
  try {
    const url = base ? new URL(value, base) : new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '';
  } catch {
    return '';
  }
}

export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const SRC_ATTRIBUTE = /\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

/**
 * The address of the first <img> with a src in some HTML, absolute, or ''. Tag by tag with indexOf
 * rather than one regular expression over the whole text: a hostile "<img <img <img …" stays linear.
 */
export function firstImageIn(html: string, base: string): string {
  const lower = html.toLowerCase();
  let from = 0;
  for (;;) {
    const start = lower.indexOf('<img', from);
    if (start === -1) return '';
    const end = lower.indexOf('>', start);
    if (end === -1) return '';
    const match = SRC_ATTRIBUTE.exec(html.slice(start + 4, end));
    const src = match?.[1] ?? match?.[2] ?? match?.[3];
    if (src) return resolveUrl(src.replace(/&amp;/g, '&'), base);
    from = end + 1;
  }
}
