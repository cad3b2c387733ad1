import { firstParagraph, htmlToText } from '#server/platform/sanitize-html';
import { refusalFrom } from '#server/sources/account-refusal';
import type { ProviderConfig } from '#server/sources/provider-config';
import type { ProviderHttp } from '#server/sources/provider-http';
import { type ParsedFeedItem, parseFeed } from '#server/sources/rss/feed-parser';
import { SourceError } from '#server/sources/source-error';
import { PRODUCT_HUNT_FEED_ANSWERS } from './product-hunt.answers';
import type { ProductHuntLaunch } from './product-hunt.launch';

const PROVIDER = 'Product Hunt';

/**
 * An entry of the public feed: its content is the tagline as a first paragraph, then links to the
 * discussion and the product; it has no description, no votes and no comments.
 */
function launchOf(entry: ParsedFeedItem): ProductHuntLaunch {
  return {
    name: entry.title,
    tagline: htmlToText(firstParagraph(entry.content || entry.summary)),
    description: '',
    url: entry.link,
    thumbnail: entry.image,
    votesCount: null,
    commentsCount: null,
  };
}

/** Product Hunt's public Atom feed (`PRODUCT_HUNT_FEED_URL`): needs no token, the same for everyone. */
export async function feedLaunches(
  deps: { http: ProviderHttp; providers: ProviderConfig },
  first: number,
): Promise<ProductHuntLaunch[]> {
  const answer = await deps.http.text({
    provider: PROVIDER,
    url: deps.providers.baseUrls.productHuntFeed,
    headers: { accept: 'application/atom+xml, application/xml;q=0.9, */*;q=0.1' },
    cache: { defaultSeconds: 600, minSeconds: 60, maxSeconds: 1800 },
    refusal: refusalFrom(PRODUCT_HUNT_FEED_ANSWERS),
  });
  let entries: ParsedFeedItem[];
  try {
    entries = parseFeed(answer.bytes, { url: answer.url, contentType: answer.contentType }).items;
  } catch (error) {
    if (!(error instanceof SourceError)) throw error;
    throw new SourceError('invalid_response', 'Product Hunt answered its feed with something unreadable');
  }
  return entries.slice(0, first).map(launchOf);
}
