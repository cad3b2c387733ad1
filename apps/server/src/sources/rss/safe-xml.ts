/**
 * XML from outside (feeds, OPML files) as a DOM, safely. A DOCTYPE is read past, never obeyed: its
 * internal subset is skipped unread, nothing it names is fetched, and no entity it declares is ever
 * expanded. Only the XML entities, numeric references and HTML's named entities are decoded, once, in
 * place, so "billion laughs", quadratic blow-up and external entities (XXE) have nothing to work with.
 * Too deep a nesting is refused before parsing (see platform/markup-depth).
 */
import { type ChildNode, type Document, isTag, isText } from 'domhandler';
import { decodeHTMLStrict } from 'entities';
import { parseDocument } from 'htmlparser2';
import { nestsDeeperThan } from '#server/platform/markup-depth';

/**
 * Where a declaration of the internal subset (`<!ENTITY …>`, `<!ATTLIST …>`…) that starts at `from` ends,
 * or -1: at the first `>` outside quotes. Not recursive, so no nesting can exhaust the stack.
 */
function endOfMarkupDeclaration(text: string, from: number): number {
  let at = from;
  while (at < text.length) {
    const char = text[at];
    if (char === '"' || char === "'") {
      const close = text.indexOf(char, at + 1);
      if (close === -1) return -1;
      at = close + 1;
    } else if (char === '>') return at + 1;
    else at += 1;
  }
  return -1;
}

/** Where the DOCTYPE that starts at `from` (just past `<!DOCTYPE`) ends, or -1. Quotes and comments skipped. */
function endOfDeclaration(text: string, from: number): number {
  let at = from;
  while (at < text.length) {
    const char = text[at];
    if (char === '"' || char === "'") {
      const close = text.indexOf(char, at + 1);
      if (close === -1) return -1;
      at = close + 1;
    } else if (text.startsWith('<!--', at)) {
      const close = text.indexOf('-->', at + 4);
      if (close === -1) return -1;
      at = close + 3;
    } else if (text.startsWith('<?', at)) {
      const close = text.indexOf('?>', at + 2);
      if (close === -1) return -1;
      at = close + 2;
    } else if (char === '[') {
      // The internal subset: declarations, comments, processing instructions, parameter references.
      at += 1;
      while (at < text.length && text[at] !== ']') {
        if (text.startsWith('<!--', at) || text.startsWith('<?', at)) {
          const close = text.indexOf(text[at + 1] === '!' ? '-->' : '?>', at + 2);
          if (close === -1) return -1;
          at = close + (text[at + 1] === '!' ? 3 : 2);
        } else if (text.startsWith('<!', at)) {
          const end = endOfMarkupDeclaration(text, at + 2);
          if (end === -1) return -1;
          at = end;
        } else at += 1;
      }
      if (at >= text.length) return -1;
      at += 1;
    } else if (char === '>') {
      return at + 1;
    } else at += 1;
  }
  return -1;
}

const PROLOG_SKIP = /\s*(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->)/y;

/**
 * The document with its DOCTYPE declaration (internal subset and all) cut out, unread; the document as
 * it is when it has none. Only the prolog is searched: a DOCTYPE comes before the root element.
 */
function withoutDoctype(text: string, unended: () => Error): string {
  let at = 0;
  for (;;) {
    PROLOG_SKIP.lastIndex = at;
    if (!PROLOG_SKIP.test(text)) break;
    at = PROLOG_SKIP.lastIndex;
  }
  while (/\s/.test(text[at] ?? '')) at += 1;
  if (text.slice(at, at + 9).toUpperCase() !== '<!DOCTYPE') return text;
  const end = endOfDeclaration(text, at + 9);
  if (end === -1) {
    throw unended();
  }
  return text.slice(0, at) + text.slice(end);
}

/**
 * Character and entity references in text and attribute values, decoded once: XML's five, numeric ones
 * and HTML's named entities (with their semicolon). Any other `&name;` stays as written. CDATA stays
 * as written too. Iterative, so no document can exhaust the stack here.
 */
function decodeReferences(document: Document): void {
  const pending: ChildNode[] = [...document.children];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (isText(node)) {
      if (node.data.includes('&')) node.data = decodeHTMLStrict(node.data);
    } else if (isTag(node)) {
      for (const [name, value] of Object.entries(node.attribs)) {
        if (value.includes('&')) node.attribs[name] = decodeHTMLStrict(value);
      }
      for (const child of node.children) pending.push(child);
    }
  }
}

/** The errors the caller's readers see, in its own words. */
export interface XmlRefusals {
  unendedDoctype: () => Error;
  tooDeep: () => Error;
}

/** The document parsed leniently (htmlparser2's XML mode), its DOCTYPE cut out and its references decoded. */
export function readXmlDocument(text: string, maxNesting: number, refusals: XmlRefusals): Document {
  const markup = withoutDoctype(text, refusals.unendedDoctype);
  if (nestsDeeperThan(markup, maxNesting)) throw refusals.tooDeep();
  const document = parseDocument(markup, { xmlMode: true, decodeEntities: false });
  decodeReferences(document);
  return document;
}
