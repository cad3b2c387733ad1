import type { SourceInputOf } from '@digest/contracts';
import type { Subreddit } from '@digest/contracts/content';

/** The settings a picked subreddit gives a Reddit block: its name, without r/ (as Reddit lists it). */
export function subredditSettings(subreddit: Subreddit): Pick<SourceInputOf<'REDDIT'>, 'sourceName'> {
  return { sourceName: subreddit.name };
}
