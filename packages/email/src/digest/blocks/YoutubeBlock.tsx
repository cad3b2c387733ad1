import { formatShortDate } from '../format';
import { sourceTitle } from '../titles';
import type { BlockProps } from '../types';
import { BlockFrame, Columns, Empty, ItemImage, ItemTitle, Meta, widthFor } from './parts';

/** YOUTUBE: the channel's newest videos, each cover linking to the watch page. */
export function YoutubeBlock({ source, content, context }: BlockProps<'YOUTUBE'>) {
  const width = widthFor(source.layout);
  return (
    <BlockFrame title={sourceTitle(source, content)} showHeading={source.showHeading}>
      {content.videos.length === 0 ? (
        <Empty>No videos</Empty>
      ) : (
        <Columns
          items={content.videos}
          layout={source.layout}
          keyOf={(video, index) => `${index}-${video.link}`}
          render={(video) => (
            <>
              <ItemImage src={video.cover} alt="" images={source.images} width={width} href={video.link} />
              <ItemTitle href={video.link}>{video.title}</ItemTitle>
              <Meta parts={[formatShortDate(video.date, context)]} />
            </>
          )}
        />
      )}
    </BlockFrame>
  );
}
