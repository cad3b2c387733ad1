import { isPath, paths } from './paths';

/**
 * Where a signed-in visitor goes from a signed-out page (docs/product.md §2 "Signed-in routes"):
 * /signup → /createDigest; /login → /digestCreator when sources were passed (kept in the URL),
 * /createDigest in sign-up mode, otherwise /digests. Every other signed-out page → /digests.
 */
export function signedInRedirect(
  location: { pathname: string; search: string },
  signUpMode: boolean,
): string {
  if (isPath(location.pathname, paths.signup)) return paths.createDigest;
  if (isPath(location.pathname, paths.login)) {
    const sources = new URLSearchParams(location.search).get('sources');
    if (sources) return `${paths.digestCreator}?${new URLSearchParams({ sources })}`;
    if (signUpMode) return paths.createDigest;
  }
  return paths.digests;
}
