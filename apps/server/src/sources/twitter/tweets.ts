import type { ImagesOption, TweetType } from '@digest/contracts';
import type { Tweet, TweetMedia } from '@digest/contracts/content';
import { httpUrlOrEmpty } from '#server/sources/safe-link';
import { type ApiMedia, type ApiTweet, type TweetPage, toTweetUser } from './twitter.client';

/** The tweets of one API page in docs/product.md §3's Tweet shape; `images: 'hide'` leaves media out. */
export function tweetsOf(page: TweetPage, images: ImagesOption): Tweet[] {
  const users = new Map((page.includes.users ?? []).map((user) => [user.id, user]));
  const media = new Map((page.includes.media ?? []).map((item) => [item.media_key, item]));
  return page.data.map((tweet) => toTweet(tweet, users, media, images));
}

function toMedia(item: ApiMedia): TweetMedia {
  // Videos and GIFs have no `url`, only a still.
  const still = httpUrlOrEmpty(item.preview_image_url) || httpUrlOrEmpty(item.url);
  return { type: item.type, url: httpUrlOrEmpty(item.url) || still, previewUrl: still };
}

function toTweet(
  tweet: ApiTweet,
  users: Map<string, Parameters<typeof toTweetUser>[0]>,
  media: Map<string, ApiMedia>,
  images: ImagesOption,
): Tweet {
  const author = tweet.author_id ? users.get(tweet.author_id) : undefined;
  const user = author
    ? toTweetUser(author)
    : { twitterUserId: tweet.author_id ?? '', fullName: '', username: '', image: '', followersCount: 0 };
  const referencedTweets = tweet.referenced_tweets ?? [];
  const is = (type: string) => referencedTweets.some((ref) => ref.type === type);
  return {
    id: tweet.id,
    // A long post's `text` stops at 280 characters; its whole text is in `note_tweet`.
    text: tweet.note_tweet?.text ?? tweet.text,
    // x.com/i/status/{id} resolves to the tweet when the author is unknown.
    // Built here, always https; the parts are escaped so a strange username cannot change the path.
    url: `https://x.com/${encodeURIComponent(user.username || 'i')}/status/${encodeURIComponent(tweet.id)}`,
    user,
    media:
      images === 'hide'
        ? []
        : (tweet.attachments?.media_keys ?? []).flatMap((key) => {
            const item = media.get(key);
            return item ? [toMedia(item)] : [];
          }),
    likesCount: tweet.public_metrics?.like_count ?? 0,
    retweetsCount: tweet.public_metrics?.retweet_count ?? 0,
    date: tweet.created_at ?? '',
    referencedTweets,
    isRetweeted: is('retweeted'),
    isQuoted: is('quoted'),
    isReplied: is('replied_to'),
  };
}

export interface TweetSelection {
  tweetType: TweetType;
  limit: number;
  /** At most this many tweets of one author (none when undefined). */
  perUser?: number;
  includeRetweets: boolean;
  /** Only search may show replies (unless 'hide replies' is on). */
  includeReplies?: boolean;
}

const popularity = (tweet: Tweet) => tweet.likesCount + tweet.retweetsCount;

/**
 * docs/product.md §3/§9 tweet options: retweets and replies only when asked for; 'latest' newest first,
 * 'popular' by likes + retweets (newest first among equals); at most `perUser` of one author, `limit` in all.
 */
export function selectTweets(tweets: Tweet[], selection: TweetSelection): Tweet[] {
  const byDate = (a: Tweet, b: Tweet) => b.date.localeCompare(a.date);
  const sorted = tweets
    .filter(
      (tweet) =>
        (selection.includeReplies === true || !tweet.isReplied) &&
        (selection.includeRetweets || !tweet.isRetweeted),
    )
    .sort(
      selection.tweetType === 'popular' ? (a, b) => popularity(b) - popularity(a) || byDate(a, b) : byDate,
    );
  const perAuthor = new Map<string, number>();
  const chosen: Tweet[] = [];
  for (const tweet of sorted) {
    if (chosen.length >= selection.limit) break;
    const count = perAuthor.get(tweet.user.twitterUserId) ?? 0;
    if (selection.perUser !== undefined && count >= selection.perUser) continue;
    perAuthor.set(tweet.user.twitterUserId, count + 1);
    chosen.push(tweet);
  }
  return chosen;
}

/** Recent-search query of docs/product.md §5: the phrase, then the filters as X search operators. */
export function searchQuery(
  phrase: string,
  filters: { hideRetweets: boolean; hideReplies: boolean; linksOnly: boolean; imagesOnly: boolean },
): string {
  return [
    phrase.trim(),
    filters.hideRetweets && '-is:retweet',
    filters.hideReplies && '-is:reply',
    filters.linksOnly && 'has:links',
    filters.imagesOnly && 'has:images',
  ]
    .filter(Boolean)
    .join(' ');
}
