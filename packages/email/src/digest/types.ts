import type { SourceOf, SourceType } from '@digest/contracts';
import type { SourceContentMap } from '@digest/contracts/content';

/** One block of an issue: the saved source (type and settings), its live content, or why it failed. */
export interface BlockInputOf<T extends SourceType> {
  source: SourceOf<T>;
  content?: SourceContentMap[T];
  /** Set when the source could not be read; the block shows it and the issue still goes out. */
  error?: string;
  /**
   * With `error`, in the owner's copy only: where the owner fixes the source (reconnect the account, edit
   * the source). Rendered between owner-only markers, which every other copy drops (`personalizeDigest`).
   */
  fix?: { label: string; href: string };
  /** Set in an issue's public copy on a block that reads private data: it shows its title and "Private". */
  private?: boolean;
  /** With `private`: what shows instead of "Private", from the kind's `publicSummary` ("3 newsletters"). */
  publicSummary?: string;
  /**
   * Set when every item the source gave was carried by an earlier issue of the digest (its "Only new
   * items"): the block says so in one line instead of repeating them.
   */
  nothingNew?: boolean;
}

export type DigestBlockInput = { [T in SourceType]: BlockInputOf<T> }[SourceType];

/** Where and for whom the issue is rendered: dates, times and amounts follow the owner's zone and locale. */
export interface BlockContext {
  locale: string;
  timeZone: string;
}

/** Props of the component of one kind: its content is there (errors and missing content are handled above). */
export interface BlockProps<T extends SourceType> {
  source: SourceOf<T>;
  content: SourceContentMap[T];
  context: BlockContext;
}

/** Narrows a block to its kind (TypeScript does not narrow a union by a nested `source.type`). */
export function isBlockOf<T extends SourceType>(
  block: DigestBlockInput,
  type: T,
): block is Extract<DigestBlockInput, { source: { type: T } }> {
  return block.source.type === type;
}
