import { type Source, type SourceType, sourceKindOf } from '@digest/contracts';
import { type DigestBlockInput, isBlockOf } from '@digest/email';
import {
  failedRead,
  type SourceRead,
  successfulRead,
} from '#server/modules/source-health/source-health.usecases';
import type { SourceContext } from '#server/sources/connector';
import { type Connectors, fetchSourceContent } from '#server/sources/connectors';
import { SourceError } from '#server/sources/source-error';

/** A source that has not answered by then is reported as failed in its block; the issue goes on. */
export const SOURCE_TIMEOUT_MS = 30_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SourceError('timeout', `No answer within ${ms / 1000} s.`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A provider's failure says what failed; anything else (a bug) is not shown to readers. */
function messageOf(error: unknown): string {
  return error instanceof SourceError ? error.message : 'It could not be loaded this time.';
}

/**
 * The live content of every source of an issue, fetched concurrently (the shared cache makes one fetch
 * of a feed serve every digest that reads it). A failure stays in its own block.
 */
export async function fetchIssueBlocks(
  connectors: Connectors,
  sources: Source[],
  context: SourceContext,
  onUnexpected: (error: unknown, type: SourceType) => void,
  timeoutMs = SOURCE_TIMEOUT_MS,
): Promise<{ blocks: DigestBlockInput[]; withNews: number; reads: SourceRead[] }> {
  let withNews = 0;
  const reads: SourceRead[] = [];
  const blocks = await Promise.all(
    sources.map(async (source): Promise<DigestBlockInput> => {
      try {
        const content = await withTimeout(fetchSourceContent(connectors, source, context), timeoutMs);
        if (sourceKindOf(source.type).hasNews(content)) withNews += 1;
        reads.push(successfulRead(source, content));
        return { source, content } as DigestBlockInput;
      } catch (error) {
        if (!(error instanceof SourceError)) onUnexpected(error, source.type);
        const read = failedRead(source, error);
        if (read) reads.push(read);
        return { source, error: messageOf(error) } as DigestBlockInput;
      }
    }),
  );
  return { blocks, withNews, reads };
}

/**
 * The sources with each RSS feed that was found through a web page saved as that feed (the page kept as
 * `pageUrl`, for display), or undefined when there was none: later issues read the feed itself instead of
 * fetching the page and looking for its feed again. The builder saves the feed already; this resolves, once,
 * sources saved before it did, or by a client that sent a page.
 */
export function withResolvedFeeds(blocks: readonly DigestBlockInput[]): Source[] | undefined {
  let resolved = false;
  const sources = blocks.map((block): Source => {
    if (!isBlockOf(block, 'RSS') || !block.content || block.content.feed.url === block.source.feedLink) {
      return block.source;
    }
    resolved = true;
    return { ...block.source, feedLink: block.content.feed.url, pageUrl: block.source.feedLink };
  });
  return resolved ? sources : undefined;
}
