import { SOURCE_LABELS } from '@digest/contracts';
import type { BlockPreview } from '../api/preview-api';
import type { BuilderBlock } from '../store';

/**
 * Why Done (or Update digest) is disabled, or null when it is not: SPEC §5 "Done is disabled when any
 * source has an error". The sources are named so the user knows which block to edit or remove.
 */
export function doneBlockedReason(
  blocks: readonly BuilderBlock[],
  previews: readonly BlockPreview[],
): string | null {
  const failed = blocks.filter((_, index) => previews[index]?.error);
  if (failed.length === 0) return null;
  const names = failed.map((block) => block.source.name?.trim() || SOURCE_LABELS[block.source.type]);
  const which = failed.length === 1 ? 'this source' : 'these sources';
  return `Some content could not be loaded: edit or remove ${which} first: ${names.join(', ')}.`;
}
