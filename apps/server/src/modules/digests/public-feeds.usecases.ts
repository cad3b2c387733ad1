import { createHash } from 'node:crypto';
import type { PublicFeedFormat } from '@digest/contracts';
import { LRUCache } from 'lru-cache';
import type { Database } from '#server/db/client';
import { digestsErrors } from './digests.errors';
import { findPublicCopies, findPublicFeed } from './digests.repository';
import { atomFeedOf, feedContentOf, jsonFeedOf, type PublicFeed } from './public-feeds.presenter';
import { SHARE_TOKEN } from './share.routes';

/** How many issues a public digest's feeds carry: the newest ones. */
export const PUBLIC_FEED_ISSUES = 20;

/**
 * Issues' public copies made ready for a feed, by build id. Making one costs tens of milliseconds (an issue
 * is up to 100 KB of e-mail HTML through the sanitiser), a feed carries twenty and feed readers poll; an
 * issue never changes once built, so its feed content is made once per process and kept while it fits.
 */
export type FeedContentCache = LRUCache<string, string>;

/** ≈ 250 issues of the largest kind. */
const CONTENT_CACHE_MAX_BYTES = 16 * 1024 * 1024;

export function createFeedContentCache(maxBytes = CONTENT_CACHE_MAX_BYTES): FeedContentCache {
  return new LRUCache<string, string>({
    maxSize: maxBytes,
    sizeCalculation: (value) => value.length * 2 || 1,
  });
}

export interface PublicFeedsDeps {
  db: Database;
  /** APP_URL: every address in the feeds. */
  appUrl: string;
  contents: FeedContentCache;
}

/** A feed as written, with what a conditional request is answered from. */
export interface WrittenFeed {
  body: string;
  /** A strong validator: the SHA-256 of the body. */
  etag: string;
  lastModified: Date;
}

const latest = (...dates: Date[]) => new Date(Math.max(...dates.map((date) => date.getTime())));

/**
 * The Atom feed or JSON Feed of a public digest (docs/design.md §10): its newest issues' public copies.
 * Only while the owner has the public link on, by its current token; a private digest, a token turned off,
 * an unknown or malformed one and a digest id all answer the same 404 as its share page. A public digest
 * with no issue yet has an empty feed, so a reader can follow it before the first one.
 */
export async function readPublicFeed(
  deps: PublicFeedsDeps,
  shareToken: string,
  format: PublicFeedFormat,
): Promise<WrittenFeed> {
  if (!SHARE_TOKEN.test(shareToken)) throw digestsErrors.feedNotFound();
  const found = await findPublicFeed(deps.db, shareToken, PUBLIC_FEED_ISSUES);
  if (!found) throw digestsErrors.feedNotFound();

  const contents = new Map<string, string>();
  for (const { buildId } of found.issues) {
    const cached = deps.contents.get(buildId);
    if (cached !== undefined) contents.set(buildId, cached);
  }
  const missing = found.issues.filter((issue) => !contents.has(issue.buildId)).map((issue) => issue.buildId);
  for (const [buildId, html] of await findPublicCopies(deps.db, found.digestId, missing)) {
    const content = feedContentOf(html, deps.appUrl);
    deps.contents.set(buildId, content);
    contents.set(buildId, content);
  }

  const feed: PublicFeed = {
    appUrl: deps.appUrl,
    shareToken,
    name: found.name,
    scheduleType: found.scheduleType,
    ownerName: found.ownerName,
    ownerUsername: found.ownerUsername,
    updatedAt: latest(found.updatedAt, found.ownerUpdatedAt, ...found.issues.map((issue) => issue.createdAt)),
    // An issue deleted (retention, quota) between the two reads is left out.
    issues: found.issues.flatMap(({ buildId, buildNumber, createdAt }) => {
      const content = contents.get(buildId);
      return content === undefined ? [] : [{ buildNumber, createdAt, content }];
    }),
  };
  const body = format === 'atom' ? atomFeedOf(feed) : JSON.stringify(jsonFeedOf(feed));
  return {
    body,
    etag: `"${createHash('sha256').update(body).digest('base64url')}"`,
    lastModified: feed.updatedAt,
  };
}

/**
 * Whether a conditional GET may be answered 304 (RFC 9110 §13.1): If-None-Match when sent (weak comparison,
 * `*` matches), else If-Modified-Since at the second Last-Modified is given in.
 */
export function isNotModified(
  feed: Pick<WrittenFeed, 'etag' | 'lastModified'>,
  headers: { ifNoneMatch?: string | undefined; ifModifiedSince?: string | undefined },
): boolean {
  if (headers.ifNoneMatch !== undefined) {
    const tags = headers.ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
    return tags.includes('*') || tags.includes(feed.etag);
  }
  if (headers.ifModifiedSince === undefined) return false;
  const since = Date.parse(headers.ifModifiedSince);
  return !Number.isNaN(since) && Math.floor(feed.lastModified.getTime() / 1000) * 1000 <= since;
}
