import {
  PUBLIC_FEEDS,
  type PublicFeedFormat,
  type Source,
  shareFeedPath,
  sourceKindOf,
} from '@digest/contracts';
import type { Database } from '#server/db/client';
import { type PageHead, type PageHeadFor, SITE_NAME } from '#server/platform/http/page-head';
import { findSharedIssue } from './digests.repository';
import { findPublicProfileOf } from './public-profile.routes';
import { BUILD_NUMBER, SHARE_TOKEN } from './share.routes';

/** The app's own description, as in the web app's index.html. */
export const APP_DESCRIPTION = 'Digest: personal newsletters built from the things you follow.';

/** The app's mark as a PNG (link previews take no SVG), served with the web app (apps/web/public). */
export const SOCIAL_IMAGE_PATH = '/social-preview.png';

// Routes match case-insensitively in the web app (apps/web/src/lib/paths.ts), and so here.
const SHARE_PAGE = /^\/digests\/share\/([^/]+)(?:\/([^/]+))?\/?$/i;
const PROFILE_PAGE = /^\/user\/([^/]+)\/?$/i;

const inWords = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' });

/** "Issue 3 of a weekly digest by Ann Smith, with Hacker News, Weather, and RSS." */
export function issueDescription(issue: {
  buildNumber: number;
  scheduleType: string;
  ownerName: string | null;
  sources: Source[];
}): string {
  const kinds = [...new Set(issue.sources.map((source) => sourceKindOf(source.type).label))];
  const by = issue.ownerName ? ` by ${issue.ownerName}` : '';
  const contents = kinds.length > 0 ? `, with ${inWords.format(kinds)}` : '';
  return `Issue ${issue.buildNumber} of a ${issue.scheduleType} digest${by}${contents}.`;
}

/**
 * The heads of the public pages (docs/product.md §2 "Public routes") for link previews: an issue's page
 * (/digests/share/{shareToken}[/{buildNumber}], with the digest's Atom feed and JSON Feed announced) and a
 * public profile (/user/{username}). They show only what the page itself shows to anyone. A page with
 * nothing behind it (unknown, deleted, private, a token turned off, a digest id, no public issue yet) gets
 * the app's generic head, without feeds, the same whatever the reason.
 */
export function createPageHeads(deps: { db: Database; appUrl: string }): PageHeadFor {
  const { db, appUrl } = deps;
  const appImage = `${appUrl}${SOCIAL_IMAGE_PATH}`;
  const generic: PageHead = {
    title: SITE_NAME,
    description: APP_DESCRIPTION,
    url: `${appUrl}/`,
    image: appImage,
    type: 'website',
  };

  async function issueHead(shareToken: string, buildNumber: string | undefined): Promise<PageHead> {
    if (!SHARE_TOKEN.test(shareToken) || (buildNumber !== undefined && !BUILD_NUMBER.test(buildNumber))) {
      return generic;
    }
    const issue = await findSharedIssue(
      db,
      shareToken,
      buildNumber === undefined ? undefined : Number(buildNumber),
    );
    if (!issue) return generic;
    // The latest issue's address stays the canonical one: it is the link the owner shares.
    const path = `/digests/share/${shareToken}${buildNumber === undefined ? '' : `/${issue.buildNumber}`}`;
    return {
      title: issue.name,
      description: issueDescription(issue),
      url: `${appUrl}${path}`,
      image: issue.ownerPhotoId ? `${appUrl}/api/photos/${issue.ownerPhotoId}` : appImage,
      type: 'article',
      // The digest's feeds, from any of its issues' pages: a reader given the shared link finds them.
      feeds: (Object.keys(PUBLIC_FEEDS) as PublicFeedFormat[]).map((format) => ({
        type: PUBLIC_FEEDS[format].type,
        title: `${issue.name} (${PUBLIC_FEEDS[format].label})`,
        href: `${appUrl}${shareFeedPath(shareToken, format)}`,
      })),
    };
  }

  async function profileHead(username: string): Promise<PageHead> {
    const profile = await findPublicProfileOf(db, username);
    if (!profile) return generic;
    const { user } = profile;
    const handle = `@${user.username}`;
    const who = user.fullName ? `${user.fullName} (${handle})` : handle;
    return {
      title: `${who} on ${SITE_NAME}`,
      description: user.bio?.trim() || `The digests of ${user.fullName || handle} on ${SITE_NAME}.`,
      url: `${appUrl}/user/${encodeURIComponent(user.username)}`,
      image: user.profileImg ? `${appUrl}${user.profileImg}` : appImage,
      type: 'profile',
    };
  }

  // Fastify has refused a path that does not decode (400) before it gets here.
  return (pathname) => {
    const share = SHARE_PAGE.exec(pathname);
    if (share) {
      const [, shareToken = '', buildNumber] = share;
      return () => issueHead(decodeURIComponent(shareToken), buildNumber && decodeURIComponent(buildNumber));
    }
    const profile = PROFILE_PAGE.exec(pathname);
    if (profile) return () => profileHead(decodeURIComponent(profile[1] ?? ''));
    return undefined;
  };
}
