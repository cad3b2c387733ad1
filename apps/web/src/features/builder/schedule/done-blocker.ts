import { sourceTitle } from '@digest/email/blocks';
import type { BlockPreview } from '../api/preview-api';
import type { BuilderBlock } from '../store';

/**
 * Why Done (or Update digest) is disabled, or null when it is not: docs/product.md §5 "Done is disabled when any
 * source has an error". The sources are named as their blocks are titled (a feed by its name, a subreddit
 * as r/…), so the user knows which block to edit or remove.
 */
export function doneBlockedReason(
  blocks: readonly BuilderBlock[],
  previews: readonly BlockPreview[],
): string | null {
  const failed = blocks.filter((_, index) => previews[index]?.error);
  if (failed.length === 0) return null;
  const names = failed.map((block) => sourceTitle(block.source));
  const which = failed.length === 1 ? 'this source' : 'these sources';
  return `Some content could not be loaded: edit or remove ${which} first: ${names.join(', ')}.`;
}
