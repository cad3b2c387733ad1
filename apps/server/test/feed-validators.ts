/**
 * Validators of the feeds the server writes, against their specifications (see feed-specs/README.md):
 * Atom by libxml2's RELAX NG validator (xmllint-wasm: libxml2 built to WebAssembly, shipped inside the npm
 * package) with RFC 4287's own schema, plus the schema's Schematron rules; JSON Feed 1.1 by Ajv with its
 * schema. Each answers the list of what is wrong, empty when the document is valid.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Element } from 'domhandler';
import { DomUtils, parseDocument } from 'htmlparser2';
import { validateXML } from 'xmllint-wasm';

const specs = new URL('./feed-specs/', import.meta.url);
const ATOM_RNG = readFileSync(new URL('atom.rng', specs), 'utf8');
const JSON_FEED_SCHEMA = JSON.parse(readFileSync(new URL('json-feed-1.1.schema.json', specs), 'utf8'));

const children = (element: Element, name: string) =>
  element.children.filter((child): child is Element => DomUtils.isTag(child) && child.name === name);

/**
 * RFC 4287 Appendix B's Schematron rules, which a RELAX NG validator skips: a feed names an author unless
 * every entry does; an entry has an alternate link (a link without rel is one) or content.
 */
function schematronErrors(xml: string): string[] {
  const document = parseDocument(xml, { xmlMode: true });
  const feed = DomUtils.findOne((element) => element.name === 'feed', document.children);
  if (!feed) return [];
  const errors: string[] = [];
  const entries = children(feed, 'entry');
  if (
    children(feed, 'author').length === 0 &&
    entries.some((entry) => children(entry, 'author').length === 0)
  ) {
    errors.push(
      'An atom:feed must have an atom:author unless all of its atom:entry children have an atom:author.',
    );
  }
  for (const entry of entries) {
    const alternate = children(entry, 'link').some(
      (link) => (link.attribs.rel ?? 'alternate') === 'alternate',
    );
    if (!alternate && children(entry, 'content').length === 0) {
      errors.push(
        "An atom:entry must have at least one atom:link element with a rel attribute of 'alternate' or an atom:content.",
      );
    }
  }
  return errors;
}

/** What makes `xml` an invalid Atom document (RFC 4287), or nothing. */
export async function validateAtom(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'feed.atom', contents: xml }],
    schema: [{ fileName: 'atom.rng', contents: ATOM_RNG }],
    extension: 'relaxng',
  });
  const errors = result.errors.map((error) => error.rawMessage);
  return result.valid ? schematronErrors(xml) : errors.length > 0 ? errors : [result.rawOutput];
}

const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats.default(ajv);
const jsonFeedSchema = ajv.compile(JSON_FEED_SCHEMA);

/** What makes `document` an invalid JSON Feed 1.1, or nothing. */
export function validateJsonFeed(document: unknown): string[] {
  if (jsonFeedSchema(document)) return [];
  return (jsonFeedSchema.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}
