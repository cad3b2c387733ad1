/**
 * htmlparser2 costs O(depth) per opening tag and our tree walks recurse, so a hostile document of a
 * few hundred thousand nested elements (a megabyte) takes seconds or overflows the stack. This linear
 * scan finds such documents before they are parsed. It closes elements the way htmlparser2 does (a close
 * tag pops back to its opening one); comments and CDATA are skipped.
 */
const HTML_VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

function skipPast(text: string, from: number, terminator: string): number {
  const end = text.indexOf(terminator, from);
  return end === -1 ? text.length : end + terminator.length;
}

/**
 * Whether elements nest deeper than `maxDepth`. In HTML (`html: true`) names are case-insensitive and void
 * elements (`<br>`, `<img>`…) open nothing.
 */
export function nestsDeeperThan(markup: string, maxDepth: number, { html = false } = {}): boolean {
  const open: string[] = [];
  let index = markup.indexOf('<');
  while (index !== -1 && index < markup.length) {
    if (markup.startsWith('<![CDATA[', index)) index = skipPast(markup, index, ']]>');
    else if (markup.startsWith('<!--', index)) index = skipPast(markup, index, '-->');
    else {
      const end = skipPast(markup, index, '>');
      const tag = markup.slice(index + 1, end - 1);
      const found = /^\/?([^\s/>]+)/.exec(tag)?.[1] ?? '';
      const name = html ? found.toLowerCase() : found;
      if (tag.startsWith('/')) {
        const at = open.lastIndexOf(name);
        if (at !== -1) open.length = at;
      } else if (
        name &&
        !/^[!?]/.test(tag) &&
        !tag.endsWith('/') &&
        !(html && HTML_VOID_ELEMENTS.has(name))
      ) {
        open.push(name);
        if (open.length > maxDepth) return true;
      }
      index = end;
    }
    index = markup.indexOf('<', index);
  }
  return false;
}
