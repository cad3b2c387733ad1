import { render } from '@react-email/render';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { plainTextOf, type RenderedEmail } from '../render';
import type { BlockHtmlCache } from './block-cache';
import { DigestEmail } from './DigestEmail';
import { markRecipientFooter, RECIPIENT_FOOTER_MARKER, RECIPIENT_FOOTER_MAX_BYTES } from './footer';
import { safeHref } from './html';
import { type IssueBlock, itemCount, keepFirstItems, keepHeadings } from './items';
import { markOwnerOnly } from './owner-only';
import { SourceBlock } from './SourceBlock';
import type { BlockContext, DigestBlockInput } from './types';

/** Gmail clips a message whose HTML passes 102 KB; an issue with its footer stays at or below this. */
export const DIGEST_HTML_MAX_BYTES = 100_000;

export interface DigestEmailInput {
  digestName: string;
  issueNumber: number;
  date: Date;
  /** The owner's IANA zone and locale. */
  timeZone: string;
  locale: string;
  blocks: DigestBlockInput[];
  /**
   * The issue's public page: "View in browser" and "Continue reading". Left out while the digest is
   * private (and in the public copy itself), so no mail links to a page that answers 404.
   */
  publicUrl?: string | undefined;
  /** A resume's catch-up issue: marked "While you were away", with the time it covers. */
  catchUp?: { since: Date; until: Date } | undefined;
}

export interface RenderedDigest extends RenderedEmail {
  /** The document title: the digest's name. */
  title: string;
  /** Set when items were left out to fit the size limit (a "Continue reading" link replaces them). */
  truncated: boolean;
  /**
   * The blocks as the mail shows them: cut to fit when `truncated`. What an issue carried (the newsletters
   * it must not carry again) is read from these, not from what was fetched.
   */
  blocks: IssueBlock[];
}

const byteLength = (text: string) => new TextEncoder().encode(text).length;

/** Renders nothing to remember: every block is rendered where it is needed. */
const NO_BLOCK_CACHE: BlockHtmlCache = { rendered: (_block, _context, render) => render() };

const PLACEHOLDER = /<div data-digest-block="(\d+)"><\/div>/g;

/**
 * Where a block's text goes in the text of the issue's frame. The nonce is this process's own, so no digest
 * name or other text of the frame can name a block's place.
 */
const TEXT_MARK = `digest-block-${Math.random().toString(36).slice(2)}-`;
const TEXT_MARKS = new RegExp(`^${TEXT_MARK}(\\d+)$`, 'gm');

/**
 * React puts `<link rel="preload" as="image">` hints for a fragment's images before it; inside the whole
 * issue it puts none (its head is React Email's own), so the block's HTML goes without them.
 */
const IMAGE_PRELOADS = /^(?:<link rel="preload" as="image"[^>]*\/>)+/;

function renderBlock(block: IssueBlock, context: BlockContext): RenderedEmail {
  const html = renderToString(createElement(SourceBlock, { block, context, cut: block.cut })).replace(
    IMAGE_PRELOADS,
    '',
  );
  return { html, text: plainTextOf(html) };
}

/**
 * The issue's HTML and text with each block rendered on its own (or taken from `cache`) in its place. The
 * HTML is the same as rendering the blocks inside the issue, since a block's markup depends only on its
 * props. The text is the frame's text with each block's own text in its place, one blank line around it:
 * converting the whole issue gave the same lines, only the blank lines between blocks could differ.
 */
async function renderWithBlocks(
  element: Parameters<typeof render>[0],
  blocks: readonly IssueBlock[],
  context: BlockContext,
  cache: BlockHtmlCache,
): Promise<RenderedEmail> {
  const frame = await render(element);
  const parts = blocks.map((block) => cache.rendered(block, context, () => renderBlock(block, context)));
  const partAt = (index: string) => parts[Number(index)] as RenderedEmail;
  const html = frame.replace(PLACEHOLDER, (_, index: string) => partAt(index).html);
  const frameText = plainTextOf(
    frame.replace(PLACEHOLDER, (_, index: string) => `<p>${TEXT_MARK}${index}</p>`),
  );
  return { html, text: frameText.replace(TEXT_MARKS, (_, index: string) => partAt(index).text) };
}

/** The largest `n` in [0, max] for which `fits(n)` holds, with what it gave, or undefined when none does. */
async function largestFitting<T>(
  max: number,
  attempt: (n: number) => Promise<T | undefined>,
): Promise<{ n: number; value: T } | undefined> {
  let low = 0;
  let high = max;
  let best: { n: number; value: T } | undefined;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const value = await attempt(middle);
    if (value === undefined) high = middle - 1;
    else {
      best = { n: middle, value };
      low = middle + 1;
    }
  }
  return best;
}

/**
 * Renders an issue once for all its recipients: HTML and text with the recipient footer's markers (see
 * `personalizeDigest`). When the HTML would pass the size limit, items are dropped from the end — found by
 * a binary search over how many are kept, not one render per item — then, if even the headings are too
 * long, whole blocks; a "Continue reading" link to the public page follows what is kept.
 */
export async function renderDigestEmail(
  input: DigestEmailInput,
  options: { blockCache?: BlockHtmlCache | undefined } = {},
): Promise<RenderedDigest> {
  if (input.publicUrl !== undefined && !safeHref(input.publicUrl)?.startsWith('http')) {
    throw new TypeError('renderDigestEmail: publicUrl must be an absolute http(s) URL');
  }
  const budget = DIGEST_HTML_MAX_BYTES - RECIPIENT_FOOTER_MAX_BYTES;
  const render = async (blocks: IssueBlock[], truncated: boolean) => {
    const element = createElement(DigestEmail, {
      ...input,
      blocks,
      truncated,
      footer: RECIPIENT_FOOTER_MARKER.text,
      blockPlaceholders: true,
    });
    const context = { locale: input.locale, timeZone: input.timeZone };
    const { html, text } = await renderWithBlocks(
      element,
      blocks,
      context,
      options.blockCache ?? NO_BLOCK_CACHE,
    );
    return { html: markOwnerOnly(markRecipientFooter(html)), text, blocks };
  };
  const done = (rendered: RenderedEmail & { blocks: IssueBlock[] }, truncated: boolean) => ({
    ...rendered,
    title: input.digestName,
    truncated,
  });

  const full = await render(input.blocks, false);
  if (byteLength(full.html) <= budget) return done(full, false);

  const fitting = async (blocks: IssueBlock[]) => {
    const rendered = await render(blocks, true);
    return byteLength(rendered.html) <= budget ? rendered : undefined;
  };
  const total = input.blocks.reduce((sum, block) => sum + itemCount(block), 0);
  const withItems = await largestFitting(total - 1, (n) => fitting(keepFirstItems(input.blocks, n)));
  if (withItems) return done(withItems.value, true);
  const withHeadings = await largestFitting(input.blocks.length, (n) =>
    fitting(keepHeadings(input.blocks, n)),
  );
  return done(withHeadings?.value ?? (await render([], true)), true);
}
