import { shareHtmlPath, sharePageUrl } from '@digest/contracts';

/**
 * docs/product.md §2: the copied public link is `{app origin}/digests/share/{digestId}/{buildNumber}`; before the
 * first issue it points at the digest itself (the page then says nothing has been sent yet).
 */
export function publicDigestPath(digestId: string, buildNumber?: number | null): string {
  return sharePageUrl('', digestId, buildNumber);
}

export function publicDigestUrl(origin: string, digestId: string, buildNumber?: number | null): string {
  return sharePageUrl(origin, digestId, buildNumber);
}

/** The API address of an issue's HTML (public, no login; docs/design.md §5). */
export function sharedHtmlApiPath(digestId: string, buildNumber?: number | null): string {
  return shareHtmlPath(digestId, buildNumber ?? undefined);
}
