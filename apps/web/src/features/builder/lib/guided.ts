import { type DataSource, GUIDED_SOURCE_KEYS, MAX_SOURCES, type SourceType } from '@digest/contracts';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { paths, SOURCES_PARAM } from '#web/lib/paths';
import { startGuided, useBuilderStore } from '../store';

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

/** The kinds a guided sequence can open, popular ones first (the welcome page offers them). */
export function guidedKinds(catalogue: readonly DataSource[]): DataSource[] {
  const guided = catalogue.filter((kind) => guidedKeyOf(kind.type) !== null);
  return [...guided.filter((kind) => kind.popular), ...guided.filter((kind) => !kind.popular)];
}

/**
 * For the builder page: a `sources` parameter starts its guided sequence once, then leaves the URL
 * (replaced, so Back does not start it again).
 */
export function useGuidedSequence(): void {
  const [searchParams, setSearchParams] = useSearchParams();
  const param = searchParams.get(SOURCES_PARAM);
  // Strict mode runs the effect twice before the URL changes: the sequence must start only once.
  const started = useRef<string | null>(null);
  useEffect(() => {
    if (param === null) {
      started.current = null;
      return;
    }
    if (started.current === param) return;
    started.current = param;
    const room = MAX_SOURCES - useBuilderStore.getState().blocks.length;
    const kinds = parseGuidedSources(param, room);
    if (kinds.length > 0) startGuided(kinds);
    setSearchParams(
      (params) => {
        params.delete(SOURCES_PARAM);
        return params;
      },
      { replace: true },
    );
  }, [param, setSearchParams]);
}
