import { Marked } from 'marked';
import { escapeHtml, sanitizeHtml } from './sanitize-html';

// Raw HTML in Markdown is shown as the text it is: a Markdown document says what it means in Markdown,
// and an operator who wants HTML gives an .html file (sanitised as well).
const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
});

/** `markdown` as HTML reduced to the sanitiser's allow-list: safe to show as is. */
export function markdownToSafeHtml(markdown: string): string {
  return sanitizeHtml(marked.parse(markdown) as string);
}
