import { type Source, sourceKindOf } from '@digest/contracts';
import type { SourceContentMap } from '@digest/contracts/content';
import type { DigestBlockInput } from './types';

/**
 * A block's heading: the name the user gave, else its kind's title: what the source calls itself (the
 * subreddit, the channel, the list), else the title its content gives (the feed's, the channel's), else
 * the kind's label.
 */
export function sourceTitle(source: Source, content?: SourceContentMap[Source['type']]): string {
  return source.name || sourceKindOf(source.type).title(source, content);
}

/** The heading of a block, with the title its content gives when it has content. */
export function blockTitle(block: DigestBlockInput): string {
  return sourceTitle(block.source, block.content);
}
