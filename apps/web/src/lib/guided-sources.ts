import { GUIDED_SOURCE_KEYS, type SourceType } from '@digest/contracts';
import { paths, SOURCES_PARAM } from './paths';

/*
 * The guided sequence's `sources` parameter (docs/product.md §2): which kinds an address opens in turn.
 * Plain URL work, kept out of the builder so the signed-out pages (sign-up, the social callback, e-mail
 * verification) carry it on without loading the builder's store with the log-in page.
 */

type GuidedKey = keyof typeof GUIDED_SOURCE_KEYS;

const isGuidedKey = (key: string): key is GuidedKey => Object.hasOwn(GUIDED_SOURCE_KEYS, key);

/**
 * The kinds a `sources` parameter opens, in its order: unknown keys and repeats are dropped, and no more
 * than `room` kinds are kept (the sources the digest can still take).
 */
export function parseGuidedSources(param: string | null, room: number): SourceType[] {
  if (!param) return [];
  const kinds = new Set<SourceType>();
  for (const part of param.split(',')) {
    const key = part.trim();
    if (isGuidedKey(key)) kinds.add(GUIDED_SOURCE_KEYS[key]);
  }
  return [...kinds].slice(0, Math.max(room, 0));
}

/** The parameter key of a kind, or null for a kind it cannot name (the Twitter kinds other than tweets). */
export function guidedKeyOf(type: SourceType): GuidedKey | null {
  const entry = Object.entries(GUIDED_SOURCE_KEYS).find(([, kind]) => kind === type);
  return entry ? (entry[0] as GuidedKey) : null;
}

/** The `sources` parameter naming these kinds, leaving out those it cannot name; empty for none. */
export function guidedSourcesParam(types: readonly SourceType[]): string {
  return types
    .map(guidedKeyOf)
    .filter((key) => key !== null)
    .join(',');
}

/** `path` with a `sources` parameter naming these kinds; plain `path` when there are none. */
export function withGuidedSources(path: string, types: readonly SourceType[]): string {
  const keys = guidedSourcesParam(types);
  return keys ? `${path}?${SOURCES_PARAM}=${keys}` : path;
}

/** The builder's address opening these kinds in turn; plain /digestCreator when there are none. */
export function guidedBuilderPath(types: readonly SourceType[]): string {
  return withGuidedSources(paths.digestCreator, types);
}
