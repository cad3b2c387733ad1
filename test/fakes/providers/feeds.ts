/**
 * Feeds: any web site's RSS, Atom, RDF or JSON feed, or an HTML page announcing one. Feeds are arbitrary
 * URLs: tests use `<fakes>/feeds/<name>` directly, and FEED_MIRROR_URL sends every other feed to the
 * mirror below.
 *
 * - `/feeds/<fixture>`: the files of fixtures/feeds (RSS 2.0, Atom, RDF, JSON Feed, pages with and
 *   without a feed link, a billion-laughs DOCTYPE, XSS in content, a windows-1252 feed, plain text).
 * - `/feeds/huge.xml`: a valid RSS feed larger than the 5 MB body cap.
 * - `/feeds/mirror/<host>/<path>`: an offline stand-in for the real feed at https://<host>/<path> (the
 *   RSS list's popular feeds), so `npm run dev` can preview them without a network.
 * - `/feeds/scripted/<name>`: a feed whose answer a test sets (source health: a feed that fails, then
 *   recovers, or moved): `PUT` it with `{ "status": 500 }`, `{ "status": 308, "location": "…" }` or
 *   `{ "status": 200 }` (the RSS 2.0 fixture, never cached). Until set, it is the fixture. The end-to-end
 *   specs reach the fakes' process only over HTTP, so the switch is a request too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { FakeProvider, FakeResponse } from '../fake-provider';

const FIXTURES = new URL('../fixtures/feeds/', import.meta.url);

/** What a real server would say each fixture is (the windows-1252 feed declares its charset in XML only). */
const CONTENT_TYPES: Record<string, string> = {
  '.xml': 'application/rss+xml; charset=utf-8',
  '.json': 'application/feed+json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};
const SPECIAL_TYPES: Record<string, string> = {
  'atom.xml': 'application/atom+xml; charset=utf-8',
  'rdf.xml': 'application/rdf+xml; charset=utf-8',
  'windows-1252.xml': 'application/rss+xml',
};

const fixtures = new Map(
  readdirSync(FIXTURES)
    .filter((name) => name !== 'mirror-template.xml')
    .map((name) => [name, readFileSync(new URL(name, FIXTURES))]),
);
const mirrorTemplate = readFileSync(new URL('mirror-template.xml', FIXTURES), 'utf8');

function contentTypeOf(name: string): string {
  return (
    SPECIAL_TYPES[name] ?? CONTENT_TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream'
  );
}

let hugeFeed: Buffer | undefined;

/** A well-formed feed of about 6 MB: over the body cap, so the fetch must stop reading it. */
function huge(): Buffer {
  if (!hugeFeed) {
    const paragraph = `<p>${'All work and no play makes a very long feed. '.repeat(40)}</p>`;
    const items = Array.from(
      { length: 3000 },
      (_, index) =>
        `<item><title>Post ${index}</title><link>https://huge.example.com/${index}</link><description><![CDATA[${paragraph}]]></description></item>`,
    );
    hugeFeed = Buffer.from(
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Huge</title><link>https://huge.example.com/</link>${items.join('')}</channel></rss>`,
    );
  }
  return hugeFeed;
}

const HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/i;

function mirror(path: string): FakeResponse | undefined {
  const [host = '', ...rest] = path.split('/').filter(Boolean);
  if (!HOST.test(host)) return undefined;
  const site = `https://${host}`;
  const body = mirrorTemplate
    .replaceAll('{{host}}', host)
    .replaceAll('{{site}}', site)
    .replaceAll('{{feed}}', `${site}/${rest.join('/')}`);
  return { headers: { 'content-type': 'application/rss+xml; charset=utf-8' }, body };
}

/** What each scripted feed answers now. */
const scripted = new Map<string, { status: number; location?: string }>();

function scriptedFeed(name: string, request: { method: string; body: string }): FakeResponse {
  if (request.method === 'PUT') {
    const answer = JSON.parse(request.body) as { status: number; location?: string };
    scripted.set(name, answer);
    return { status: 204 };
  }
  const answer = scripted.get(name) ?? { status: 200 };
  if (answer.status === 200) {
    return {
      headers: { 'content-type': CONTENT_TYPES['.xml'] ?? '', 'cache-control': 'no-store' },
      body: fixtures.get('rss2.xml') ?? '',
    };
  }
  return {
    status: answer.status,
    headers: { 'content-type': 'text/plain', ...(answer.location ? { location: answer.location } : {}) },
    body: `scripted answer ${answer.status}`,
  };
}

export const feedsFake: FakeProvider = {
  prefix: '/feeds',
  env: { FEED_MIRROR_URL: '/mirror' },
  handle(request) {
    if (request.path.startsWith('/scripted/')) return scriptedFeed(request.path.slice(10), request);
    if (request.method !== 'GET') return { status: 405, body: 'Method Not Allowed' };
    if (request.path.startsWith('/mirror/')) return mirror(request.path.slice('/mirror'.length));
    const name = request.path.slice(1);
    if (name === 'huge.xml')
      return { headers: { 'content-type': CONTENT_TYPES['.xml'] ?? '' }, body: huge() };
    const file = fixtures.get(name);
    if (!file) {
      return { status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>404 Not Found</h1>' };
    }
    return { headers: { 'content-type': contentTypeOf(name), 'cache-control': 'max-age=300' }, body: file };
  },
};
