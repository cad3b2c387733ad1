import { SOURCE_LABELS, type Source } from '@digest/contracts';
import { type DigestBlockInput, isBlockOf } from './types';

/**
 * A block's heading: the name the user gave, else what the source calls itself (the subreddit, the
 * channel, the list), else the title its content gives (`contentTitle`: the feed's, the channel's), else
 * the kind's label.
 */
export function sourceTitle(source: Source, contentTitle = ''): string {
  if (source.name) return source.name;
  switch (source.type) {
    case 'RSS':
      return source.sourceName || contentTitle || SOURCE_LABELS.RSS;
    case 'REDDIT':
      return `r/${source.sourceName}`;
    case 'YOUTUBE':
      return source.sourceName || contentTitle || source.channelName || SOURCE_LABELS.YOUTUBE;
    case 'TWITTER_LIST':
      return source.listName || SOURCE_LABELS.TWITTER_LIST;
    default:
      return SOURCE_LABELS[source.type];
  }
}

/** The heading of a block, with the title its content gives when it has content. */
export function blockTitle(block: DigestBlockInput): string {
  if (isBlockOf(block, 'RSS')) return sourceTitle(block.source, block.content?.feed.title);
  if (isBlockOf(block, 'YOUTUBE')) return sourceTitle(block.source, block.content?.channelName);
  return sourceTitle(block.source);
}
