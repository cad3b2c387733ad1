import type { RenderedEmail } from '../render';
import type { IssueBlock } from './items';
import type { BlockContext } from './types';

/**
 * Rendered blocks kept across issues: in a burst thousands of digests show the same feed with the same
 * settings, and rendering each of them again (its HTML, and the text derived from it) was most of a
 * build's CPU. The server gives one (keyed by a hash of everything that changes a block's HTML); the
 * package itself stays free of Node APIs.
 */
export interface BlockHtmlCache {
  /** The HTML and text of `block` for `context`: a copy rendered earlier for an identical block, or `render()`'s. */
  rendered(block: IssueBlock, context: BlockContext, render: () => RenderedEmail): RenderedEmail;
}

/**
 * What a block's HTML depends on, and nothing else: its settings (kind, name, options), what was fetched or
 * why it failed, whether it is a public copy's private block, whether it had nothing new, whether it was cut, and the owner's locale
 * and zone (dates, numbers). Two blocks with equal parts render to the same HTML.
 */
export function blockHtmlKeyParts(block: IssueBlock, context: BlockContext): string {
  return JSON.stringify([
    block.source,
    block.content ?? null,
    block.error ?? null,
    block.fix ?? null,
    block.private ?? false,
    block.publicSummary ?? null,
    block.nothingNew ?? false,
    block.cut ?? false,
    context.locale,
    context.timeZone,
  ]);
}
