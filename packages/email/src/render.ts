import { plainTextSelectors, render } from '@react-email/render';
import { compile } from 'html-to-text';
import type { ReactElement } from 'react';

export interface RenderedEmail {
  html: string;
  text: string;
}

/** Headings keep their case in the text part (html-to-text upper-cases them by default). */
const keepCase = { uppercase: false };
const textSelectors = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
  selector,
  options: keepCase,
}));

/**
 * React Email's own conversion (`toPlainText`: its selectors, no word wrap) with ours added, compiled once:
 * `toPlainText` compiles its options again on every call, which was a fifth of the text part's cost.
 */
const convertToText = compile({ wordwrap: false, selectors: [...plainTextSelectors, ...textSelectors] });

/**
 * The plain-text part of an e-mail's HTML: elements marked `data-skip-in-text` (the preview line, images)
 * are left out; links keep their URL.
 */
export function plainTextOf(html: string): string {
  return convertToText(html).trim();
}

/**
 * Renders one e-mail element into its HTML part and a plain-text part derived from that same HTML,
 * so both always say the same thing.
 */
export async function renderEmail(element: ReactElement): Promise<RenderedEmail> {
  const html = await render(element);
  return { html, text: plainTextOf(html) };
}
