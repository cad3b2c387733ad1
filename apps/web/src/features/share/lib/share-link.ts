import { shareHtmlPath, sharePageUrl } from '@digest/contracts';
import { API_BASE } from '#web/lib/config';

/**
 * docs/product.md §2: a public page of the app, `/digests/share/{shareToken}[/{buildNumber}]` (the latest
 * issue without a number). The token is the digest's random share token, never its id.
 */
export function publicDigestPath(shareToken: string, buildNumber?: number | null): string {
  return sharePageUrl('', shareToken, buildNumber);
}

/** The API address of an issue's public HTML (no login; docs/design.md §5). */
export function sharedHtmlApiPath(shareToken: string, buildNumber?: number | null): string {
  return shareHtmlPath(shareToken, buildNumber);
}

/** An issue's API address (`/api/…`: a public page's or the owner's `htmlLink`) as the API client takes it. */
export function apiPathOf(issueSrc: string): string {
  return issueSrc.startsWith(`${API_BASE}/`) ? issueSrc.slice(API_BASE.length) : issueSrc;
}
