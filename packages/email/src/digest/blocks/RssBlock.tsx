import type { RssItem } from '@digest/contracts/content';
import { formatShortDate } from '../format';
import { sourceTitle } from '../titles';
import type { BlockProps } from '../types';
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

/** The site's host name under the heading ('blog.example.org'), '' when the link is not a URL. */
function hostOf(link: string): string {
  try {
    return new URL(link).host;
  } catch {
    return '';
  }
}

/** Whether the item's picture is already in its content (feeds often repeat the first one). */
function pictureInContent(item: RssItem): boolean {
  return (
    item.image !== '' &&
    (item.content.includes(item.image) || item.content.includes(item.image.replaceAll('&', '&amp;')))
  );
}

/** RSS: the feed's posts with their picture, author, date and content per the source's options. */
export function RssBlock({ source, content, context }: BlockProps<'RSS'>) {
  const width = widthFor(source.layout);
  // docs/product.md §5: content 'hide' forces images 'hide'.
  const images = source.postBody === 'hide' ? 'hide' : source.images;
  return (
    <BlockFrame
      title={sourceTitle(source, content)}
      showHeading={source.showHeading}
      subtitle={hostOf(content.feed.link)}
      icon={images === 'show' ? content.feed.favicon || source.favicon || undefined : undefined}
    >
      {content.items.length === 0 ? (
        <Empty>No posts</Empty>
      ) : (
        <Columns
          items={content.items}
          layout={source.layout}
          keyOf={(item, index) => `${index}-${item.link}`}
          render={(item) => (
            <>
              {source.postBody !== 'hide' && pictureInContent(item) ? null : (
                <ItemImage src={item.image} alt="" images={images} width={width} href={item.link} />
              )}
              <ItemTitle href={item.link}>{item.title || item.link}</ItemTitle>
              <Meta parts={[item.creator, formatShortDate(item.pubDate, context)]} />
              <Discussions discussions={item.discussions} />
              <HtmlContent html={item.content} postBody={source.postBody} images={images} width={width} />
            </>
          )}
        />
      )}
    </BlockFrame>
  );
}
