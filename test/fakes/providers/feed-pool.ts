/**
 * Feed pool: `/feeds/pool/<n>.xml`, as many distinct RSS 2.0 feeds as a benchmark wants (the burst bench
 * draws its digests' sources from the first few hundred). Each feed is generated from its number alone,
 * so every run and every process sees the same feed: 10–20 items with titles, paragraphs, links and
 * dates, an ETag and Last-Modified (a matching If-None-Match answers 304), and `Cache-Control:
 * max-age=300` like a typical blog. Each answer waits a random 50–300 ms by default, the spread of real
 * sites, so a burst of fetches overlaps as it would on the Internet.
 */
import { createHash } from 'node:crypto';
import type { FakeProvider, FakeRequest, FakeResponse } from '../fake-provider';

export interface FeedPoolOptions {
  /** Each answer waits between these two values (ms), drawn per request. */
  latencyMs?: { min: number; max: number };
}

/** Feeds the pool serves: `/feeds/pool/0.xml` … `/feeds/pool/9999.xml`. */
export const FEED_POOL_SIZE = 10_000;

/** Last-Modified of every pool feed: fixed, so the feed is the same whenever it is read. */
const PUBLISHED = Date.UTC(2026, 10, 20, 6, 0, 0);

const TOPICS = [
  'PostgreSQL',
  'TypeScript',
  'Rust',
  'Kubernetes',
  'WebAssembly',
  'SQLite',
  'React',
  'Linux',
  'Go',
  'Python',
  'HTTP/3',
  'Unicode',
  'Time zones',
  'E-mail deliverability',
  'Caching',
  'Observability',
];
const ANGLES = [
  'What we learned migrating to',
  'A practical guide to',
  'The hidden cost of',
  'Benchmarking',
  'Ten years of',
  'Debugging a production outage in',
  'Why we stopped worrying about',
  'Notes on',
  'Getting started with',
  'Scaling',
];
const ENDINGS = [
  'in production',
  'for small teams',
  'without the hype',
  'the hard way',
  'on a budget',
  'at 3 a.m.',
  '',
];
const SENTENCES = [
  'We measured everything before changing anything, and the numbers surprised us.',
  'The first version worked on a laptop and fell over the first Monday morning.',
  'Most of the time went into reading logs rather than writing code.',
  'A single configuration flag turned out to matter more than the whole rewrite.',
  'Here is the checklist we now run before every release.',
  'Readers asked for the details, so this post walks through the setup step by step.',
  'The fix was three lines; finding them took two weeks.',
  'We compare the obvious approach with the one we ended up shipping.',
];
const BLOG_NAMES = ['Engineering', 'Field Notes', 'Dev Log', 'Tech Blog', 'Weekly', 'Journal'];

/** mulberry32: a small seeded generator, so feed n is the same in every process. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T;
}

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function slug(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function item(random: () => number, site: string, published: number): string {
  const title = `${pick(random, ANGLES)} ${pick(random, TOPICS)} ${pick(random, ENDINGS)}`.trim();
  const link = `${site}/posts/${slug(title)}-${Math.floor(random() * 100_000)}`;
  const paragraphs = Array.from(
    { length: 2 + Math.floor(random() * 3) },
    () => `<p>${pick(random, SENTENCES)} ${pick(random, SENTENCES)}</p>`,
  ).join('');
  return `<item><title>${escapeXml(title)}</title><link>${link}</link><guid isPermaLink="true">${link}</guid><pubDate>${new Date(published).toUTCString()}</pubDate><description>${escapeXml(paragraphs)}</description></item>`;
}

/** The feed numbered `n`: its XML, ETag and Last-Modified, always the same for the same n. */
export function poolFeed(n: number): { xml: string; etag: string; lastModified: string } {
  const random = seeded(n + 1);
  const site = `https://blog${n}.example.com`;
  const name = `${pick(random, TOPICS)} ${pick(random, BLOG_NAMES)} #${n}`;
  const count = 10 + Math.floor(random() * 11);
  const items = Array.from({ length: count }, (_, index) =>
    // Newest first, a few hours apart, like a busy blog.
    item(random, site, PUBLISHED - index * 3_600_000 * (1 + Math.floor(random() * 12))),
  );
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>${escapeXml(name)}</title><link>${site}/</link><description>Posts from ${escapeXml(name)}</description><language>en</language><lastBuildDate>${new Date(PUBLISHED).toUTCString()}</lastBuildDate>${items.join('')}</channel></rss>`;
  const etag = `"${createHash('sha1').update(xml).digest('hex').slice(0, 16)}"`;
  return { xml, etag, lastModified: new Date(PUBLISHED).toUTCString() };
}

const POOL_PATH = /^\/(\d{1,4})\.xml$/;

function answer(request: FakeRequest): FakeResponse | undefined {
  if (request.method !== 'GET') return { status: 405, body: 'Method Not Allowed' };
  const match = POOL_PATH.exec(request.path);
  if (!match) return undefined;
  const feed = poolFeed(Number(match[1]));
  const headers = { etag: feed.etag, 'last-modified': feed.lastModified, 'cache-control': 'max-age=300' };
  if (request.headers['if-none-match'] === feed.etag) return { status: 304, headers };
  return { headers: { ...headers, 'content-type': 'application/rss+xml; charset=utf-8' }, body: feed.xml };
}

/** The pool under `/feeds/pool` (registered before the feeds fake, whose `/feeds` prefix it narrows). */
export function feedPoolFake(options: FeedPoolOptions = {}): FakeProvider {
  const { min, max } = options.latencyMs ?? { min: 50, max: 300 };
  return {
    prefix: '/feeds/pool',
    env: {},
    async handle(request) {
      const wait = min + Math.random() * (max - min);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      return answer(request);
    },
  };
}
