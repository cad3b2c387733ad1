import { escapeHtml } from '#server/platform/sanitize-html';

/** What a link preview (Open Graph, Twitter Card) shows of a page; every URL absolute. */
export interface PageHead {
  title: string;
  description: string;
  /** The page's canonical address. */
  url: string;
  image: string;
  type: 'website' | 'article' | 'profile';
  /** Feeds of the page, announced with `<link rel="alternate">` so feed readers find them from its address. */
  feeds?: { type: string; title: string; href: string }[];
}

/**
 * Finds out whether the server knows more about a page than the SPA's index.html: answers how to read the
 * page's head, or undefined for a path it has nothing to add to. Matching costs nothing; reading may query.
 */
export type PageHeadFor = (pathname: string) => (() => Promise<PageHead>) | undefined;

export const SITE_NAME = 'Digest';

/** Link previews show about this much; longer texts are cut at a word. */
export const DESCRIPTION_MAX_CHARS = 200;

function shortened(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  if (collapsed.length <= DESCRIPTION_MAX_CHARS) return collapsed;
  const cut = collapsed.slice(0, DESCRIPTION_MAX_CHARS - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${lastSpace > 0 ? cut.slice(0, lastSpace) : cut}…`;
}

function headTags(head: PageHead): string {
  const description = shortened(head.description);
  const meta = (attribute: 'name' | 'property', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}" />`;
  return [
    `<title>${escapeHtml(head.title)}</title>`,
    meta('name', 'description', description),
    `<link rel="canonical" href="${escapeHtml(head.url)}" />`,
    ...(head.feeds ?? []).map(
      (feed) =>
        `<link rel="alternate" type="${escapeHtml(feed.type)}" title="${escapeHtml(feed.title)}" href="${escapeHtml(feed.href)}" />`,
    ),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:type', head.type),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', head.url),
    meta('property', 'og:image', head.image),
    // The images are square (a profile photo or the app's mark): the small card shows them whole.
    meta('name', 'twitter:card', 'summary'),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', head.image),
  ].join('\n    ');
}

const TITLE = /<title\b[^>]*>[\s\S]*?<\/title\s*>\s*/i;
const DESCRIPTION = /<meta\s+name="description"[^>]*>\s*/i;

/**
 * The SPA's index.html with `head` in place of its generic title and description, so crawlers, which run
 * no script, read the page's own. Only tags are added: the Content-Security-Policy stays as strict.
 */
export function withPageHead(indexHtml: string, head: PageHead): string {
  const generic = indexHtml.replace(TITLE, '').replace(DESCRIPTION, '');
  return generic.replace(/<\/head>/i, `  ${headTags(head)}\n  </head>`);
}
