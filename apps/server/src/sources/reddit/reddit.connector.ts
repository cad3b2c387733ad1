import type { ImagesOption, PostBodyOption, RedditSource } from '@digest/contracts';
import type { RedditContent, RedditPost, Subreddit } from '@digest/contracts/content';
import { firstParagraph, sanitizeHtml } from '#server/platform/sanitize-html';
import type { Connector, SourcesDeps } from '#server/sources/connector';
import { httpUrlOrEmpty } from '#server/sources/safe-link';
import {
  type RedditAccess,
  type RedditPostData,
  type RedditSubredditData,
  redditClient,
} from './reddit.client';

/** Links in posts point at Reddit itself, wherever this server reads it from. */
const REDDIT_SITE = 'https://www.reddit.com';

export interface RedditPostsRequest {
  subreddit: string;
  numberOfPosts: number;
  postBody: PostBodyOption;
  images: ImagesOption;
}

type RedditClient = ReturnType<typeof redditClient>;

/** The post's picture: the full-size preview, else the thumbnail when it is a picture and not a word. */
function imageOf(post: RedditPostData): string {
  // Thumbnails may be words ('self', 'default'): no URL, so ''.
  return httpUrlOrEmpty(post.preview?.images[0]?.source.url) || httpUrlOrEmpty(post.thumbnail);
}

/** The self text, sanitised, whole or its first paragraph; link posts have none. */
function selfTextOf(post: RedditPostData, postBody: PostBodyOption): string {
  const html = post.selftext_html;
  if (!html || postBody === 'hide') return '';
  const options = { baseUrl: REDDIT_SITE };
  return postBody === 'full' ? sanitizeHtml(html, options) : firstParagraph(html, options);
}

function postOf(post: RedditPostData, request: Pick<RedditPostsRequest, 'postBody' | 'images'>): RedditPost {
  // The linked article is how an issue finds the same story in its other sources (shown once).
  const link = post.is_self ? '' : httpUrlOrEmpty(post.url);
  return {
    ...(link ? { link } : {}),
    id: post.id,
    url: httpUrlOrEmpty(post.permalink, REDDIT_SITE),
    ups: post.ups,
    numComments: post.num_comments,
    title: post.title,
    selfText: selfTextOf(post, request.postBody),
    image: request.images === 'hide' ? '' : imageOf(post),
  };
}

/** A subreddit list entry (docs/product.md §3): its link and icon on Reddit itself. */
function subredditOf(data: RedditSubredditData): Subreddit {
  const icon = httpUrlOrEmpty(data.community_icon) || httpUrlOrEmpty(data.icon_img);
  return {
    name: data.display_name,
    description: data.public_description ?? '',
    subscribers: data.subscribers ?? 0,
    url: httpUrlOrEmpty(data.url, REDDIT_SITE),
    icon,
  };
}

/**
 * Popular or searched subreddits for the builder, NSFW ones left out; `after` pages on. `access: 'feed'`
 * when Reddit refuses this server its API: then there is no list, and posts come from public feeds.
 */
export async function subredditList(
  client: RedditClient,
  options: { limit: number; search?: string; after?: string },
): Promise<{ subreddits: Subreddit[]; after: string | null; access: RedditAccess }> {
  const page = await client.subreddits(options);
  return {
    subreddits: page.subreddits.filter((data) => !data.over18).map(subredditOf),
    after: page.after,
    access: page.access,
  };
}

/** The hot posts of a subreddit, leaving out the moderators' pinned posts and NSFW ones. */
export async function redditPosts(client: RedditClient, request: RedditPostsRequest): Promise<RedditContent> {
  if (request.numberOfPosts === 0) return { subreddit: request.subreddit, posts: [] };
  const hot = (await client.hot(request.subreddit)).posts;
  const posts = hot
    .filter((post) => !post.stickied && !post.over_18)
    .slice(0, request.numberOfPosts)
    .map((post) => postOf(post, request));
  return { subreddit: request.subreddit, posts };
}

export function redditConnector(deps: SourcesDeps, client = redditClient(deps)): Connector<'REDDIT'> {
  return {
    type: 'REDDIT',
    fetchContent: (source: RedditSource) =>
      redditPosts(client, {
        subreddit: source.sourceName,
        numberOfPosts: source.numberOfPosts,
        postBody: source.postBody,
        images: source.images,
      }),
  };
}
