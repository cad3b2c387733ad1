import { DomUtils, parseDocument } from 'htmlparser2';
import sanitize from 'sanitize-html';
import { nestsDeeperThan } from './markup-depth';

/**
 * The one allow-list for HTML that comes from outside (feed content, Reddit self text, Product Hunt
 * descriptions…), used for both the web and e-mail. No styles, classes or ids at all: a style can hide
 * text or lay a fake login form over the page, and e-mail clients restyle anyway.
 */
export interface SanitizeOptions {
  /** The page or feed the HTML came from: relative links and images resolve against it. */
  baseUrl?: string;
}

const BLOCK_TAGS = [
  'p',
  'div',
  'blockquote',
  'pre',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'figure',
  'figcaption',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'hr',
];
const INLINE_TAGS = ['br', 'a', 'img', 'b', 'strong', 'i', 'em', 'u', 's', 'code', 'span'];

/** Sectioning wrappers keep their separation as a plain div instead of running paragraphs together. */
const AS_DIV = ['section', 'article', 'header', 'footer', 'main', 'aside', 'nav', 'center'];

const LINK_SCHEMES = ['http:', 'https:', 'mailto:'];
const IMAGE_SCHEMES = ['http:', 'https:'];

/**
 * The absolute URL `value` points to, or undefined when it is relative without a base or uses a scheme
 * outside `schemes`. The WHATWG parser strips tabs and newlines and lower-cases the scheme, so
 * obfuscations like `jav&#x09;ascript:` (already entity-decoded here) are seen for what they are.
 */
function safeUrl(value: string, baseUrl: string | undefined, schemes: string[]): string | undefined {
  let url: URL;
  try {
    url = baseUrl ? new URL(value.trim(), baseUrl) : new URL(value.trim());
  } catch {
    return undefined;
  }
  return schemes.includes(url.protocol) ? url.href : undefined;
}

function dimension(value: string | undefined): string | undefined {
  return value && /^\d{1,4}$/.test(value.trim()) ? value.trim() : undefined;
}

function span(value: string | undefined): string | undefined {
  return value && /^[1-9]\d?$/.test(value.trim()) ? value.trim() : undefined;
}

/** Attributes with undefined values left out, so sanitize-html never sees them. */
function defined(attributes: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(attributes).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

function optionsFor(baseUrl: string | undefined): sanitize.IOptions {
  return {
    allowedTags: [...BLOCK_TAGS, ...INLINE_TAGS],
    allowedAttributes: {
      a: ['href', 'title', 'rel', 'target'],
      img: ['src', 'alt', 'width', 'height'],
      th: ['colspan', 'rowspan'],
      td: ['colspan', 'rowspan'],
    },
    // Checked again by sanitize-html after our own resolution below: two independent gates.
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowedSchemesAppliedToAttributes: ['href', 'src'],
    allowProtocolRelative: false,
    // Their text is code or chrome, never content.
    nonTextTags: [
      'script',
      'style',
      'textarea',
      'option',
      'select',
      'button',
      'noscript',
      'template',
      'title',
      'head',
      'iframe',
      'noembed',
      'noframes',
      'xmp',
    ],
    disallowedTagsMode: 'discard',
    parser: { lowerCaseTags: true, lowerCaseAttributeNames: true },
    transformTags: {
      ...Object.fromEntries(AS_DIV.map((tag) => [tag, () => ({ tagName: 'div', attribs: {} })])),
      a: (_tag, attribs) => ({
        tagName: 'a',
        attribs: defined({
          href: attribs.href === undefined ? undefined : safeUrl(attribs.href, baseUrl, LINK_SCHEMES),
          title: attribs.title,
          rel: 'noopener noreferrer nofollow',
          target: '_blank',
        }),
      }),
      img: (_tag, attribs) => ({
        tagName: 'img',
        attribs: defined({
          src: attribs.src === undefined ? undefined : safeUrl(attribs.src, baseUrl, IMAGE_SCHEMES),
          alt: attribs.alt,
          width: dimension(attribs.width),
          height: dimension(attribs.height),
        }),
      }),
      td: (_tag, attribs) => ({
        tagName: 'td',
        attribs: defined({ colspan: span(attribs.colspan), rowspan: span(attribs.rowspan) }),
      }),
      th: (_tag, attribs) => ({
        tagName: 'th',
        attribs: defined({ colspan: span(attribs.colspan), rowspan: span(attribs.rowspan) }),
      }),
    },
    // An image whose source was refused shows nothing but a broken-image box.
    exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  };
}

/** Far deeper than real content; deeper HTML is only ever an attack on the parser (platform/markup-depth). */
const MAX_NESTING = 256;

/**
 * HTML nested too deeply to parse safely, as plain text: every tag dropped, `<`/`>` left nowhere, entities
 * kept as they were (they are valid HTML text).
 */
function flattened(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>?/g, ' ')
    .replace(/[<>"]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text ? `<p>${text}</p>` : '';
}

/** `html` reduced to the allow-list; safe to put in a page or an e-mail as is. */
export function sanitizeHtml(html: string, options: SanitizeOptions = {}): string {
  if (nestsDeeperThan(html, MAX_NESTING, { html: true })) return flattened(html);
  return sanitize(html, optionsFor(options.baseUrl)).trim();
}

const SKIPPED_FOR_TEXT = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'title',
  'head',
  'iframe',
  'object',
  'svg',
  'math',
  'textarea',
  'select',
]);

/** `text` as HTML text or a double-quoted attribute value: the characters that could end either are escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The readable text of `html`: entities decoded, blocks separated by a space, whitespace collapsed. */
export function htmlToText(html: string): string {
  const parts: string[] = [];
  const visit = (nodes: ReturnType<typeof parseDocument>['children']) => {
    for (const node of nodes) {
      if (DomUtils.isText(node)) parts.push(node.data);
      else if (DomUtils.isTag(node) && !SKIPPED_FOR_TEXT.has(node.name)) {
        // Tags never glue words: "a</p><p>b" and "a<br>b" read as "a b".
        parts.push(' ');
        visit(node.children);
        parts.push(' ');
      }
    }
  };
  const shallow = nestsDeeperThan(html, MAX_NESTING, { html: true }) ? flattened(html) : html;
  visit(parseDocument(shallow).children);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

type Node = ReturnType<typeof parseDocument>['children'][number];

function hasText(nodes: Node[]): boolean {
  return nodes.some((node) => DomUtils.textContent(node).trim() !== '');
}

function isBlock(node: Node): boolean {
  return DomUtils.isTag(node) && BLOCK_TAGS.includes(node.name);
}

function isBreak(node: Node | undefined): boolean {
  return node !== undefined && DomUtils.isTag(node) && node.name === 'br';
}

/**
 * The first block of `nodes` with text, as a slice of `html` (whose offsets the nodes carry). Loose
 * inline content counts as a paragraph that ends at a block or at a blank line (`<br><br>`); a div is
 * looked into rather than taken whole.
 */
function firstBlock(nodes: Node[], html: string): string | undefined {
  let run: Node[] = [];
  const flush = () => {
    const found = hasText(run) ? run : undefined;
    run = [];
    if (!found) return undefined;
    while (isBreak(found.at(-1)) || !hasText(found.slice(-1))) found.pop();
    const first = found[0] as Node;
    const last = found[found.length - 1] as Node;
    return `<p>${html.slice(first.startIndex ?? 0, (last.endIndex ?? html.length - 1) + 1).trim()}</p>`;
  };
  for (const [index, node] of nodes.entries()) {
    if (isBlock(node) && DomUtils.isTag(node)) {
      const inline = flush();
      if (inline) return inline;
      if (node.name === 'div') {
        const inner = firstBlock(node.children, html);
        if (inner) return inner;
      } else if (hasText([node])) {
        return html.slice(node.startIndex ?? 0, (node.endIndex ?? html.length - 1) + 1);
      }
    } else if (isBreak(node) && isBreak(nodes[index + 1])) {
      const inline = flush();
      if (inline) return inline;
    } else if (!(isBreak(node) && run.length === 0)) {
      run.push(node);
    }
  }
  return flush();
}

/** The first non-empty paragraph of `html`, sanitised ('paragraph' post content). Empty if none. */
export function firstParagraph(html: string, options: SanitizeOptions = {}): string {
  const clean = sanitizeHtml(html, options);
  const document = parseDocument(clean, { withStartIndices: true, withEndIndices: true });
  return firstBlock(document.children, clean) ?? '';
}
