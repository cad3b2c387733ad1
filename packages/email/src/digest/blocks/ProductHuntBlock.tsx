import { safeImageSrc } from '../html';
import { sourceTitle } from '../titles';
import type { BlockProps } from '../types';
import { countOf } from './counts';
import { BlockFrame, Columns, Empty, HtmlContent, ItemText, ItemTitle, Meta, widthFor } from './parts';

const THUMBNAIL = 48;

/** PRODUCT_HUNT: today's launches with their logo, tagline, description per the options, votes and comments (when known). */
export function ProductHuntBlock({ source, content }: BlockProps<'PRODUCT_HUNT'>) {
  const width = widthFor(source.layout);
  return (
    <BlockFrame title={sourceTitle(source)} showHeading={source.showHeading}>
      {content.items.length === 0 ? (
        <Empty>No launches today</Empty>
      ) : (
        <Columns
          items={content.items}
          layout={source.layout}
          keyOf={(item, index) => `${index}-${item.url}`}
          render={(item) => {
            const thumbnail = source.images === 'show' ? safeImageSrc(item.thumbnail) : undefined;
            return (
              <>
                {thumbnail ? (
                  <img
                    src={thumbnail}
                    alt=""
                    width={THUMBNAIL}
                    height={THUMBNAIL}
                    style={{
                      display: 'block',
                      border: 0,
                      borderRadius: '8px',
                      margin: '0 0 8px',
                      maxWidth: '100%',
                    }}
                  />
                ) : null}
                <ItemTitle href={item.url}>{item.name}</ItemTitle>
                <ItemText>{item.tagline}</ItemText>
                <HtmlContent
                  html={item.description}
                  postBody={source.postBody}
                  images={source.images}
                  width={width}
                />
                {/* Unknown counts (read without a token) are left out rather than shown as 0. */}
                <Meta
                  parts={[
                    item.votesCount !== null && countOf(item.votesCount, 'vote'),
                    item.commentsCount !== null && countOf(item.commentsCount, 'comment'),
                  ]}
                />
              </>
            );
          }}
        />
      )}
    </BlockFrame>
  );
}
