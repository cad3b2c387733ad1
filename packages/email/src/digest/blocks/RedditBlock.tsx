import { sourceTitle } from '../titles';
import type { BlockProps } from '../types';
import { countOf } from './counts';
import {
  BlockFrame,
  Columns,
  Discussions,
  Empty,
  HtmlContent,
  ItemImage,
  ItemTitle,
  Meta,
  widthFor,
} from './parts';

/** REDDIT: the subreddit's hot posts with picture, self text per the options, upvotes and comments (when known). */
export function RedditBlock({ source, content }: BlockProps<'REDDIT'>) {
  const width = widthFor(source.layout);
  return (
    <BlockFrame title={sourceTitle(source)} showHeading={source.showHeading}>
      {content.posts.length === 0 ? (
        <Empty>No posts</Empty>
      ) : (
        <Columns
          items={content.posts}
          layout={source.layout}
          keyOf={(post) => post.id}
          render={(post) => (
            <>
              <ItemImage src={post.image} alt="" images={source.images} width={width} href={post.url} />
              <ItemTitle href={post.url}>{post.title}</ItemTitle>
              {/* Unknown counts (read from the public feed) are left out rather than shown as 0. */}
              <Meta
                parts={[
                  post.ups !== null && countOf(post.ups, 'upvote'),
                  post.numComments !== null && countOf(post.numComments, 'comment'),
                ]}
              />
              <Discussions discussions={post.discussions} />
              <HtmlContent
                html={post.selfText}
                postBody={source.postBody}
                images={source.images}
                width={width}
              />
            </>
          )}
        />
      )}
    </BlockFrame>
  );
}
