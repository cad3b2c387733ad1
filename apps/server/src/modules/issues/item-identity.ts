import { createHash } from 'node:crypto';
import type { ItemIdentityParts } from '@digest/contracts';

/**
 * Query parameters that say who sent a reader, not what they read: links to one story differ only by them
 * (a feed adds `utm_source=rss`, a newsletter `mc_cid`), so they are left out of a link's identity.
 */
const TRACKING_PARAMETER = /^(utm_.+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|igshid|_hsenc|_hsmi|ref_src)$/i;

/**
 * The form of a link that two copies of one story share: scheme and `www.` dropped (the same page is
 * linked over http and https, with and without www), host in lower case, no fragment, no tracking
 * parameters, the other parameters sorted, no trailing slash on a path. A link that is not a URL stays as
 * written, trimmed.
 */
export function normaliseLink(link: string): string {
  const trimmed = link.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return trimmed;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return trimmed;
  const parameters = [...url.searchParams].filter(([name]) => !TRACKING_PARAMETER.test(name));
  parameters.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = new URLSearchParams(parameters).toString();
  const host = url.host.replace(/^www\./, '');
  const path = url.pathname.replace(/\/+$/, '');
  return `${host}${path}${query ? `?${query}` : ''}`;
}

/**
 * The stable identity of one item of a source: its id (guid) when the provider gives one, else its
 * normalised link, else a SHA-256 of its title and date. Undefined when it has none of these: such an
 * item cannot be remembered and is always shown.
 */
export function itemIdentity(parts: ItemIdentityParts): string | undefined {
  const guid = parts.guid?.trim();
  if (guid) return `guid:${guid}`;
  const link = parts.link?.trim();
  if (link) return `link:${normaliseLink(link)}`;
  const title = parts.title?.trim() ?? '';
  const date = parts.date?.trim() ?? '';
  if (!title && !date) return undefined;
  return `hash:${createHash('sha256').update(`${title}\n${date}`).digest('hex')}`;
}
