import type { SourceOf } from '@digest/contracts';
import type { Tweet, TwitterContent } from '@digest/contracts/content';
import { emailClass as c } from '../../components/theme';
import { formatShortDate } from '../format';
import { safeHref, safeImageSrc } from '../html';
import { blockStyles as s } from '../styles';
import { sourceTitle } from '../titles';
import type { BlockContext } from '../types';
import { countOf } from './counts';
import { BlockFrame, Columns, Empty, ItemImage, ItemText, Meta, widthFor } from './parts';

export type TwitterType = 'TWITTER_TWEETS' | 'TWITTER_TIMELINE' | 'TWITTER_SEARCH' | 'TWITTER_LIST';

const AVATAR = 32;

/** What the block follows, under its heading: the users, the search, the list or the home timeline. */
function subtitleOf(source: SourceOf<TwitterType>): string {
  switch (source.type) {
    case 'TWITTER_TWEETS':
      return (source.twitterUsers ?? []).map((user) => `@${user.username}`).join(', ');
    case 'TWITTER_SEARCH':
      return `“${source.search}”`;
    case 'TWITTER_LIST':
      return source.listName;
    case 'TWITTER_TIMELINE':
      return source.username ? `@${source.username}'s timeline` : '';
  }
}

function Author({
  tweet,
  showImages,
  context,
}: {
  tweet: Tweet;
  showImages: boolean;
  context: BlockContext;
}) {
  const avatar = showImages ? safeImageSrc(tweet.user.image) : undefined;
  const name = tweet.user.fullName || tweet.user.username;
  return (
    <table role="presentation" cellPadding={0} cellSpacing={0} style={{ margin: '0 0 6px' }}>
      <tbody>
        <tr>
          {avatar ? (
            <td style={{ verticalAlign: 'middle', paddingRight: '8px' }}>
              <img
                src={avatar}
                alt=""
                width={AVATAR}
                height={AVATAR}
                style={{ display: 'block', border: 0, borderRadius: '50%', maxWidth: '100%' }}
              />
            </td>
          ) : null}
          <td style={{ verticalAlign: 'middle' }}>
            <p className={c.text} style={{ ...s.title, margin: 0, fontSize: '15px' }}>
              <a href={safeHref(tweet.url)} className={c.link} style={s.titleLink}>
                {name}
              </a>
            </p>
            <p className={c.muted} style={{ ...s.meta, margin: 0 }}>
              {[tweet.user.username && `@${tweet.user.username}`, formatShortDate(tweet.date, context)]
                .filter(Boolean)
                .join(' · ')}
            </p>
          </td>
        </tr>
      </tbody>
    </table>
  );
}

export interface TwitterBlockProps {
  source: SourceOf<TwitterType>;
  content: TwitterContent;
  context: BlockContext;
}

/** The four X/Twitter kinds: each tweet with its author, text, first picture, likes and retweets. */
export function TwitterBlock({ source, content, context }: TwitterBlockProps) {
  const width = widthFor(source.layout);
  return (
    <BlockFrame title={sourceTitle(source)} showHeading={source.showHeading} subtitle={subtitleOf(source)}>
      {content.tweets.length === 0 ? (
        <Empty>No tweets</Empty>
      ) : (
        <Columns
          items={content.tweets}
          layout={source.layout}
          keyOf={(tweet) => tweet.id}
          render={(tweet) => (
            <>
              <Author tweet={tweet} showImages={source.images === 'show'} context={context} />
              <ItemText>{tweet.text}</ItemText>
              <ItemImage
                src={tweet.media[0]?.previewUrl}
                alt=""
                images={source.images}
                width={width}
                href={tweet.url}
              />
              <Meta parts={[countOf(tweet.likesCount, 'like'), countOf(tweet.retweetsCount, 'retweet')]} />
            </>
          )}
        />
      )}
    </BlockFrame>
  );
}
