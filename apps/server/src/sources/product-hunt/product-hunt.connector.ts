import type { PostBodyOption } from '@digest/contracts';
import type { ProductHuntContent, ProductHuntItem } from '@digest/contracts/content';
import { escapeHtml, firstParagraph, sanitizeHtml } from '#server/platform/sanitize-html';
import type { Connector, SourcesDeps } from '#server/sources/connector';
import { httpUrlOrEmpty } from '#server/sources/safe-link';
import { type ProductHuntClient, productHuntClient } from './product-hunt.client';
import type { ProductHuntLaunch } from './product-hunt.launch';

/**
 * Product Hunt descriptions are plain text: escaped, blank lines become paragraphs and line breaks
 * `<br>`, then the shared allow-list as for every outside text.
 */
function descriptionHtml(text: string): string {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`);
  return sanitizeHtml(paragraphs.join(''));
}

function descriptionFor(post: ProductHuntLaunch, postBody: PostBodyOption): string {
  if (postBody === 'hide' || !post.description) return '';
  const html = descriptionHtml(post.description);
  return postBody === 'paragraph' ? firstParagraph(html) : html;
}

/** Today's launches (Pacific day) best ranked first from the API; the newest from the public feed. */
export async function todaysLaunches(
  client: ProductHuntClient,
  request: { limit: number; now: Date; images: 'show' | 'hide'; postBody: PostBodyOption },
): Promise<ProductHuntContent> {
  const posts = await client.launches(request.limit, request.now);
  const items = posts.slice(0, request.limit).map(
    (post): ProductHuntItem => ({
      name: post.name,
      tagline: post.tagline,
      description: descriptionFor(post, request.postBody),
      thumbnail: request.images === 'show' ? httpUrlOrEmpty(post.thumbnail) : '',
      votesCount: post.votesCount,
      commentsCount: post.commentsCount,
      url: httpUrlOrEmpty(post.url),
    }),
  );
  return { items };
}

/** PRODUCT_HUNT: today's top `numberOfPosts` launches, description per `postBody`, thumbnails per `images`. */
export function productHuntConnector(deps: SourcesDeps): Connector<'PRODUCT_HUNT'> {
  const client = productHuntClient(deps);
  return {
    type: 'PRODUCT_HUNT',
    fetchContent: (source) =>
      todaysLaunches(client, {
        limit: source.numberOfPosts,
        now: deps.clock.now(),
        images: source.images,
        postBody: source.postBody,
      }),
  };
}
