import type { Source, SourceType } from '@digest/contracts';
import type { SourceContentMap } from '@digest/contracts/content';
import type { DigestBlockInput } from '@digest/email';
import type { SourceContext } from '../../sources/connector';
import { type Connectors, fetchSourceContent } from '../../sources/connectors';
import { SourceError } from '../../sources/source-error';

/** A source that has not answered by then is reported as failed in its block; the issue goes on. */
export const SOURCE_TIMEOUT_MS = 30_000;

/** Whether a block has anything to read. Today's date alone is not news: it never makes an issue worth sending. */
export function hasNews(type: SourceType, content: SourceContentMap[SourceType]): boolean {
  switch (type) {
    case 'DATE':
      return false;
    case 'WEATHER':
      return (content as SourceContentMap['WEATHER']).forecasts.length > 0;
    case 'HACKER_NEWS':
      return (content as SourceContentMap['HACKER_NEWS']).items.length > 0;
    case 'PRODUCT_HUNT':
      return (content as SourceContentMap['PRODUCT_HUNT']).items.length > 0;
    case 'RSS':
      return (content as SourceContentMap['RSS']).items.length > 0;
    case 'REDDIT':
      return (content as SourceContentMap['REDDIT']).posts.length > 0;
    case 'GOOGLE_CALENDAR':
      return (content as SourceContentMap['GOOGLE_CALENDAR']).days.some((day) => day.events.length > 0);
    case 'TWITTER_TWEETS':
    case 'TWITTER_TIMELINE':
    case 'TWITTER_SEARCH':
    case 'TWITTER_LIST':
      return (content as SourceContentMap['TWITTER_TWEETS']).tweets.length > 0;
    case 'YOUTUBE':
      return (content as SourceContentMap['YOUTUBE']).videos.length > 0;
    case 'STRIPE':
      return (content as SourceContentMap['STRIPE']).accounts.length > 0;
  }
}

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
): Promise<{ blocks: DigestBlockInput[]; withNews: number }> {
  let withNews = 0;
  const blocks = await Promise.all(
    sources.map(async (source): Promise<DigestBlockInput> => {
      try {
        const content = await withTimeout(fetchSourceContent(connectors, source, context), timeoutMs);
        if (hasNews(source.type, content)) withNews += 1;
        return { source, content } as DigestBlockInput;
      } catch (error) {
        if (!(error instanceof SourceError)) onUnexpected(error, source.type);
        return { source, error: messageOf(error) } as DigestBlockInput;
      }
    }),
  );
  return { blocks, withNews };
}
