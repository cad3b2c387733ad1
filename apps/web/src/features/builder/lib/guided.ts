import { type DataSource, MAX_SOURCES } from '@digest/contracts';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { guidedKeyOf, parseGuidedSources } from '#web/lib/guided-sources';
import { SOURCES_PARAM } from '#web/lib/paths';
import { startGuided, useBuilderStore } from '../store';

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
