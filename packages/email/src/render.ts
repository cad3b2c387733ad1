import { render, toPlainText } from '@react-email/render';
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
 * Renders one e-mail element into its HTML part and a plain-text part derived from that same HTML,
 * so both always say the same thing. Elements marked `data-skip-in-text` (the preview line, images)
 * are left out of the text part; links keep their URL.
 */
export async function renderEmail(
  element: ReactElement,
  /** Completes the rendered HTML before the text part is derived from it (see `renderDigestEmail`). */
  complete: (html: string) => string = (html) => html,
): Promise<RenderedEmail> {
  const html = complete(await render(element));
  const text = toPlainText(html, { selectors: textSelectors }).trim();
  return { html, text };
}
