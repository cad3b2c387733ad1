import { isPath, paths, SOURCES_PARAM } from './paths';

const sourcesIn = (search: string) => new URLSearchParams(search).get(SOURCES_PARAM);

/**
 * `path` with the `sources` parameter of `search` when it has one, so the kinds chosen before signing in
 * or up reach the builder (docs/product.md §2 "Cross-route behaviour"). The value is passed on as it came:
 * only the builder's parser reads it, and it drops unknown keys.
 */
export function keepingSources(path: string, search: string): string {
  const sources = sourcesIn(search);
  return sources ? `${path}?${new URLSearchParams({ [SOURCES_PARAM]: sources })}` : path;
}

/**
 * Where a signed-in visitor goes from a signed-out page (docs/product.md §2 "Signed-in routes"):
 * /signup → /createDigest, sources kept; /login → /digestCreator when sources were passed (kept),
 * /createDigest in sign-up mode, otherwise /digests. Every other signed-out page → /digests.
 */
export function signedInRedirect(
  location: { pathname: string; search: string },
  signUpMode: boolean,
): string {
  if (isPath(location.pathname, paths.signup)) return keepingSources(paths.createDigest, location.search);
  if (isPath(location.pathname, paths.login)) {
    if (sourcesIn(location.search)) return keepingSources(paths.digestCreator, location.search);
    if (signUpMode) return paths.createDigest;
  }
  return paths.digests;
}
