import type { Source } from '@digest/contracts';
import type { DigestBlockInput } from '@digest/email/blocks';
import { queryOptions, skipToken, useQueries, useQuery } from '@tanstack/react-query';
import { api, errorMessage } from '#web/lib/api-client';
import { useBuilderStore } from '../store';

/**
 * `POST /api/data-sources/preview`: one source's live content, as its e-mail block will get it. While a saved
 * digest is edited its id goes along, so the read also tells that source's health (issue 17).
 */
export function fetchPreview(
  source: Source,
  digestId: string | null,
  signal?: AbortSignal,
): Promise<unknown> {
  const body = digestId ? { source, digestId } : { source };
  return api
    .post<{ content: unknown }>('/data-sources/preview', body, { signal })
    .then((answer) => answer.content);
}

/**
 * Only settings that change what is fetched are in the key: renaming a block or switching its layout
 * re-renders the content it has instead of fetching it again.
 */
const PRESENTATION_FIELDS = new Set(['name', 'showHeading', 'layout', 'images']);
function contentKey(source: Source): string {
  return JSON.stringify(Object.entries(source).filter(([field]) => !PRESENTATION_FIELDS.has(field)));
}

/** The cache key of a source's preview (tests seed it). */
export const previewKey = (source: Source | null) =>
  ['builder', 'preview', source ? contentKey(source) : ''] as const;

/**
 * A form's settings that are not valid yet (null) are not fetched. The digest is not in the key: the content
 * is the same whichever digest asks.
 */
const previewQuery = (source: Source | null, digestId: string | null) =>
  queryOptions({
    queryKey: previewKey(source),
    queryFn: source ? ({ signal }) => fetchPreview(source, digestId, signal) : skipToken,
    staleTime: 5 * 60_000,
    retry: false,
  });

export interface BlockPreview {
  /** The block as the e-mail components take it (content or error), once loaded. */
  block: DigestBlockInput | null;
  loading: boolean;
  error: string | null;
}

function toPreview(
  source: Source,
  result: { data: unknown; isPending: boolean; error: unknown },
): BlockPreview {
  if (result.error) {
    const error = errorMessage(result.error);
    return { block: { source, error } as DigestBlockInput, loading: false, error };
  }
  if (result.isPending) return { block: null, loading: true, error: null };
  return { block: { source, content: result.data } as DigestBlockInput, loading: false, error: null };
}

const NO_PREVIEW: BlockPreview = { block: null, loading: false, error: null };

/** The live preview of one source, or of a form's settings (nothing while they are not valid: null). */
export function useBlockPreview(source: Source | null): BlockPreview {
  const digestId = useBuilderStore((state) => state.editDigestId);
  const result = useQuery(previewQuery(source, digestId));
  return source ? toPreview(source, result) : NO_PREVIEW;
}

/** Previews of every block: whether any is still loading or failed (Done waits for none to fail). */
export function useBlockPreviews(sources: Source[]): BlockPreview[] {
  const digestId = useBuilderStore((state) => state.editDigestId);
  const results = useQueries({ queries: sources.map((source) => previewQuery(source, digestId)) });
  return sources.map((source, index) =>
    toPreview(source, results[index] ?? { data: undefined, isPending: true, error: null }),
  );
}
