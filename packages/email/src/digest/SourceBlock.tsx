import { NOTHING_NEW_MESSAGE, type SourceType } from '@digest/contracts';
import type { ReactNode } from 'react';
import { CalendarBlock } from './blocks/CalendarBlock';
import { DateBlock } from './blocks/DateBlock';
import { HackerNewsBlock } from './blocks/HackerNewsBlock';
import { NewslettersBlock } from './blocks/NewslettersBlock';
import { ProductHuntBlock } from './blocks/ProductHuntBlock';
import { BlockFrame, Empty, ErrorNotice } from './blocks/parts';
import { RedditBlock } from './blocks/RedditBlock';
import { RssBlock } from './blocks/RssBlock';
import { StripeBlock } from './blocks/StripeBlock';
import { TwitterBlock } from './blocks/TwitterBlock';
import { WeatherBlock } from './blocks/WeatherBlock';
import { YoutubeBlock } from './blocks/YoutubeBlock';
import { itemCount } from './items';
import { OwnerFix } from './owner-only';
import { blockTitle } from './titles';
import type { BlockContext, BlockProps, DigestBlockInput } from './types';

/** The component of each kind. */
const BLOCKS: { [T in SourceType]: (props: BlockProps<T>) => ReactNode } = {
  WEATHER: WeatherBlock,
  HACKER_NEWS: HackerNewsBlock,
  DATE: DateBlock,
  RSS: RssBlock,
  NEWSLETTERS: NewslettersBlock,
  REDDIT: RedditBlock,
  GOOGLE_CALENDAR: CalendarBlock,
  TWITTER_TWEETS: TwitterBlock,
  TWITTER_TIMELINE: TwitterBlock,
  TWITTER_SEARCH: TwitterBlock,
  TWITTER_LIST: TwitterBlock,
  YOUTUBE: YoutubeBlock,
  PRODUCT_HUNT: ProductHuntBlock,
  STRIPE: StripeBlock,
};

/** What an issue's public copy shows in place of a block that reads private data (unless its kind sums it up). */
export const PRIVATE_BLOCK_TEXT = 'Private';

export interface SourceBlockProps {
  block: DigestBlockInput;
  context: BlockContext;
  /** Set when the issue was cut to fit an e-mail: a block left without items shows its heading only. */
  cut?: boolean | undefined;
}

/**
 * One block of a digest, whatever its kind: the kind's component with its content, or the block's heading
 * with why it could not be loaded, or with nothing to show.
 */
export function SourceBlock({ block, context, cut }: SourceBlockProps) {
  const title = blockTitle(block);
  // A private block's title is all that says what is missing, so it shows even when headings are off.
  if (block.private) {
    return (
      <BlockFrame title={title} showHeading>
        <Empty>{block.publicSummary ?? PRIVATE_BLOCK_TEXT}</Empty>
      </BlockFrame>
    );
  }
  const frame = { title, showHeading: block.source.showHeading };
  if (cut && itemCount(block) === 0) return <BlockFrame {...frame} />;
  if (block.error) {
    return (
      <BlockFrame {...frame}>
        <ErrorNotice>{`${title} could not be loaded: ${block.error}`}</ErrorNotice>
        {block.fix && <OwnerFix fix={block.fix} />}
      </BlockFrame>
    );
  }
  if (block.nothingNew) {
    return (
      <BlockFrame {...frame}>
        <Empty>{NOTHING_NEW_MESSAGE}</Empty>
      </BlockFrame>
    );
  }
  if (!block.content) {
    return (
      <BlockFrame {...frame}>
        <Empty>Nothing to show</Empty>
      </BlockFrame>
    );
  }
  // The table is keyed by kind, so the kind of `block` picks the component made for its content.
  const Block = BLOCKS[block.source.type] as (props: BlockProps<SourceType>) => ReactNode;
  return <Block source={block.source} content={block.content} context={context} />;
}
