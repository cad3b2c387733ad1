import { sourceKindOf } from '@digest/contracts';
import type { DigestBlockInput } from './types';

/**
 * The blocks of an issue's public copy (docs/design.md §10 "Private by default"): a block whose kind reads
 * private data (its descriptor's `readsPrivateData`) keeps only its settings, for its title, and is marked
 * private, so nothing it fetched can reach a public page; a kind that sums its content up (newsletters:
 * "3 newsletters") keeps that sentence and nothing else.
 */
export function publicCopyOf(blocks: readonly DigestBlockInput[]): DigestBlockInput[] {
  return blocks.map((block) => {
    const kind = sourceKindOf(block.source.type);
    // The public page is nobody's copy: no owner's link to fix a source.
    if (!kind.readsPrivateData) {
      if (!block.fix) return block;
      const { fix: _fix, ...shown } = block;
      return shown as DigestBlockInput;
    }
    const summary = block.content && kind.publicSummary?.(block.content);
    return {
      source: block.source,
      private: true,
      ...(summary ? { publicSummary: summary } : {}),
    } as DigestBlockInput;
  });
}

/**
 * Issues are cut to fit under the e-mail size limit by items, counted and cut from the end the way each
 * kind's descriptor says (weather and the date are one item each).
 */
const listOf = (block: DigestBlockInput) => sourceKindOf(block.source.type).items;

/** How many items a block shows (an error block or one without content: none). */
export function itemCount(block: DigestBlockInput): number {
  if (block.error || !block.content) return 0;
  return listOf(block).count(block.content);
}

/** A block showing only its first `count` items; with none left it has no content (its heading only). */
export function keepItems(block: DigestBlockInput, count: number): DigestBlockInput {
  if (block.error || !block.content || count >= itemCount(block)) return block;
  if (count <= 0) return { ...block, content: undefined };
  return { ...block, content: listOf(block).keep(block.content, count) } as DigestBlockInput;
}

/** A block of an issue that had to be cut to fit, with `cut` set when it lost items. */
export type IssueBlock = DigestBlockInput & { cut?: boolean };

/** The blocks with only the first `count` items of the issue kept (in block order); later blocks keep their heading. */
export function keepFirstItems(blocks: readonly DigestBlockInput[], count: number): IssueBlock[] {
  let left = count;
  return blocks.map((block) => {
    const items = itemCount(block);
    const kept = Math.min(items, left);
    left -= kept;
    return kept < items ? { ...keepItems(block, kept), cut: true } : block;
  });
}

/** Only the headings of the first `count` blocks: the last resort when even those with no items are too long. */
export function keepHeadings(blocks: readonly DigestBlockInput[], count: number): IssueBlock[] {
  return blocks
    .slice(0, count)
    .map((block) => ({ ...block, content: undefined, error: undefined, cut: true }));
}
