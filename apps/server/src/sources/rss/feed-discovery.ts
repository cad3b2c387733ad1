import { Parser } from 'htmlparser2';
import { resolveUrl } from './feed-model';

/** Feed types a page may announce with `<link rel="alternate">`. */
const FEED_TYPES = new Set([
  'application/rss+xml',
  'application/atom+xml',
  'application/rdf+xml',
  'application/feed+json',
  'application/json',
]);

/**
 * The feeds an HTML page announces with `<link rel="alternate" type="…">`, absolute (against `<base href>`
 * when the page has one, else the page's URL), in document order, XML feeds before JSON ones (a page
 * that offers both usually means its RSS or Atom feed as the main one).
 */
export function findFeedLinks(html: string, pageUrl: string): string[] {
  let base = pageUrl;
  const found: { href: string; json: boolean }[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'base' && attributes.href) base = resolveUrl(attributes.href, pageUrl) || base;
        if (name !== 'link') return;
        const rels = (attributes.rel ?? '').toLowerCase().split(/\s+/);
        const type = (attributes.type ?? '').toLowerCase().split(';')[0]?.trim() ?? '';
        if (!rels.includes('alternate') || !FEED_TYPES.has(type)) return;
        const href = resolveUrl(attributes.href, base);
        if (href) found.push({ href, json: type.endsWith('json') });
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  const ordered = [...found.filter((link) => !link.json), ...found.filter((link) => link.json)];
  return [...new Set(ordered.map((link) => link.href))];
}
