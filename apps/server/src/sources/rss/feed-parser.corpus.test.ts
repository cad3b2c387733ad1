/**
 * The feed parser against public corpora (see ../shared/corpora/README.md): gofeed's test data and
 * the real-world feeds of rss-parser's test suite, each with the values those parsers produced.
 *
 * The corpora sit next to the repository, not in it (test/feed-corpora.ts finds them); where they are
 * absent these tests are skipped, saying so, rather than failed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SourceError } from '#server/sources/source-error';
import { findFeedCorpora } from '#test/feed-corpora';
import { type ParsedFeed, parseFeed } from './feed-parser';

const FOUND = findFeedCorpora();
const CORPORA = FOUND ?? '';
const HAVE_CORPORA = FOUND !== undefined;
const FEED_URL = 'https://example.org/feed';

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

// ---------------------------------------------------------------------------------------------------
// Comparing our values with another parser's
// ---------------------------------------------------------------------------------------------------

interface Mismatch {
  file: string;
  field: string;
  ours: unknown;
  theirs: unknown;
}

/** Where we differ on purpose. Each must still occur (a stale entry fails), each says why. */
interface Exception {
  file: string;
  field: RegExp;
  reason: string;
}

class Comparison {
  checks = 0;
  mismatches: Mismatch[] = [];

  constructor(readonly exceptions: Exception[]) {}

  /** One value compared: `same` says whether ours matches theirs. */
  check<Ours, Theirs>(
    file: string,
    field: string,
    same: (ours: Ours, theirs: Theirs) => boolean,
    ours: Ours,
    theirs: Theirs,
  ) {
    this.checks += 1;
    if (!same(ours, theirs)) this.mismatches.push({ file, field, ours, theirs });
  }

  isExcepted = (mismatch: Mismatch) =>
    this.exceptions.some(
      (exception) => exception.file === mismatch.file && exception.field.test(mismatch.field),
    );

  unexplained = () => this.mismatches.filter((mismatch) => !this.isExcepted(mismatch));

  staleExceptions = () =>
    this.exceptions.filter(
      (exception) =>
        !this.mismatches.some(
          (mismatch) => mismatch.file === exception.file && exception.field.test(mismatch.field),
        ),
    );

  matchRate = () => (this.checks - this.mismatches.length) / this.checks;
}

const sameCount = (ours: number, theirs: number) => ours === theirs;
const collapse = (value: unknown) => (typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '');
const sameText = (ours: string, theirs: unknown) => collapse(ours) === collapse(theirs);
/** Their dates normalised to an instant (we answer ISO 8601 UTC). */
const sameInstant = (ours: string, theirs: unknown) =>
  typeof theirs === 'string' ? ours !== '' && Date.parse(ours) === Date.parse(theirs) : ours === '';
/** Their links resolved against the feed's URL, since we answer absolute links only. */
const sameUrl = (ours: string, theirs: unknown) => {
  if (typeof theirs !== 'string' || theirs === '') return ours === '';
  return URL.canParse(theirs, FEED_URL) ? ours === new URL(theirs, FEED_URL).href : ours === theirs;
};

/** The parts of gofeed's normalised feed we compare. */
interface GofeedItem {
  title?: string;
  link?: string;
  publishedParsed?: string;
  updatedParsed?: string;
  content?: string;
  description?: string;
  image?: { url?: string };
  authors?: { name?: string }[];
}
interface GofeedFeed {
  title?: string;
  link?: string;
  description?: string;
  image?: { url?: string };
  items?: GofeedItem[];
}
interface RssParserFeed {
  title?: string;
  items: { title?: string; link?: string; creator?: string; isoDate?: string }[];
}

function parseCorpusFile(path: string): ParsedFeed {
  return parseFeed(readFileSync(path), { url: FEED_URL });
}

function reportRate(name: string, comparison: Comparison) {
  const percent = (comparison.matchRate() * 100).toFixed(1);
  console.info(
    `${name}: ${comparison.checks} checks, ${percent}% match (${comparison.mismatches.length} explained)`,
  );
}

describe.skipIf(!HAVE_CORPORA)(
  'feed corpora in ../shared/corpora (skipped where they are absent; FEED_CORPORA_DIR names them)',
  () => {
    it('parses every corpus file without crashing, answering only a feed or a SourceError, in under 30 s', () => {
      const files = filesUnder(CORPORA).filter((path) => !/(?:LICENSE|README\.md)$/.test(path));
      expect(files.length).toBeGreaterThan(1000);
      const started = performance.now();
      for (const path of files) {
        try {
          const feed = parseCorpusFile(path);
          expect(Array.isArray(feed.items), path).toBe(true);
        } catch (error) {
          expect(error, path).toBeInstanceOf(SourceError);
        }
      }
      expect(performance.now() - started).toBeLessThan(30_000);
    });

    it('reads every feed file of the corpora; the only ones refused are the four that are no feed', () => {
      // Inputs only: gofeed's expected-output JSON and rss-parser's output folder are not feeds.
      const inputs = [
        ...filesUnder(join(CORPORA, 'gofeed/testdata')).filter(
          (path) =>
            /\.(?:xml|json)$/.test(path) &&
            !path.endsWith('_expected.json') &&
            (path.endsWith('.xml') || path.includes('/json/')),
        ),
        ...filesUnder(join(CORPORA, 'rss-parser/test/input')),
      ];
      const refused = inputs.filter((path) => {
        try {
          parseCorpusFile(path);
          return false;
        } catch {
          return true;
        }
      });
      expect(inputs.length).toBeGreaterThan(550);
      expect(refused.map((path) => path.slice(CORPORA.length).replace(/^\//, ''))).toEqual([
        'gofeed/testdata/parser/json/invalid/invalid.json',
        'gofeed/testdata/parser/universal/empty_feed.xml',
        'gofeed/testdata/parser/universal/unknown_feed.xml',
        'rss-parser/test/input/unrecognized.rss',
      ]);
    });

    it('reads the corpus feed that declares a DOCTYPE (RSS 0.91 Netscape), as gofeed does', () => {
      const path = join(CORPORA, 'gofeed/testdata/parser/rss/version_rss_091_netscape.xml');
      expect(parseCorpusFile(path)).toMatchObject({ title: '', items: [] });
    });

    it('reads the latin-1 feed by its declared encoding', () => {
      const feed = parseCorpusFile(join(CORPORA, 'rss-parser/test/input/encoding.rss'));
      expect(feed.title).toBe('Jornal de Notícias - Últimas Notícias');
    });

    it("matches gofeed's normalised feeds (translator test data), apart from the listed differences", () => {
      const comparison = new Comparison([
        {
          file: 'rss/feed_item_links_-_rss_channel_item_links.xml',
          field: /^item0\.link$/,
          reason: 'of several <link>s the first is the item link; gofeed keeps the last',
        },
        {
          file: 'rss/feed_links_-_rss_channel_links.xml',
          field: /^link$/,
          reason: 'of several <link>s the first is the site; gofeed keeps the last',
        },
        {
          file: 'rss/feed_links_-_rdf_channel_links.xml',
          field: /^link$/,
          reason: 'of several <link>s the first is the site; gofeed keeps the last',
        },
        {
          file: 'atom/feed_item_guid_-_atom03_feed_entry_id.xml',
          field: /^item0\.link$/,
          reason: 'an entry without <link> links to its id when that is an http(s) URL',
        },
        {
          file: 'atom/feed_item_guid_-_atom10_feed_entry_id.xml',
          field: /^item0\.link$/,
          reason: 'an entry without <link> links to its id when that is an http(s) URL',
        },
        {
          file: 'rss/feed_image_-_rss_channel_description.xml',
          field: /^image$/,
          reason:
            'the feed picture (our favicon) comes from image elements, not from an <img> in the description',
        },
      ]);
      for (const kind of ['rss', 'atom', 'json']) {
        const folder = join(CORPORA, 'gofeed/testdata/translator', kind);
        for (const name of readdirSync(folder)) {
          const isExpected = kind === 'json' ? name.endsWith('_expected.json') : name.endsWith('.json');
          if (!isExpected) continue;
          const input = kind === 'json' ? name.replace('_expected', '') : name.replace(/\.json$/, '.xml');
          const file = `${kind}/${input}`;
          const expected: GofeedFeed = JSON.parse(readFileSync(join(folder, name), 'utf8'));
          const feed = parseCorpusFile(join(folder, input));
          comparison.check(file, 'title', sameText, feed.title, expected.title);
          comparison.check(file, 'link', sameUrl, feed.link, expected.link);
          if (expected.description) {
            comparison.check(file, 'description', sameText, feed.description, expected.description);
          }
          if (expected.image?.url) {
            const picture = feed.image || feed.icon;
            comparison.check(file, 'image', sameUrl, picture, expected.image.url);
          }
          const items = expected.items ?? [];
          comparison.check(file, 'items', sameCount, feed.items.length, items.length);
          items.forEach((theirs, index) => {
            const ours = feed.items[index];
            if (!ours) return;
            const at = `item${index}`;
            comparison.check(file, `${at}.title`, sameText, ours.title, theirs.title);
            comparison.check(file, `${at}.link`, sameUrl, ours.link, theirs.link);
            const published = theirs.publishedParsed ?? theirs.updatedParsed;
            comparison.check(file, `${at}.pubDate`, sameInstant, ours.pubDate, published);
            // gofeed's content is content:encoded / Atom content, its description the RSS description / summary.
            if (theirs.content) {
              comparison.check(file, `${at}.content`, sameText, ours.content, theirs.content);
            }
            if (theirs.description) {
              const summary = theirs.description;
              comparison.check(file, `${at}.summary`, sameText, ours.summary, summary);
            }
            if (theirs.image?.url) {
              comparison.check(file, `${at}.image`, sameUrl, ours.image, theirs.image.url);
            }
            const author = theirs.authors?.[0]?.name;
            if (author) comparison.check(file, `${at}.creator`, sameText, ours.creator, author);
          });
        }
      }
      reportRate('gofeed translator', comparison);
      expect(comparison.unexplained()).toEqual([]);
      expect(comparison.staleExceptions()).toEqual([]);
      expect(comparison.checks).toBeGreaterThan(400);
    });

    it("matches rss-parser's output for its real-world feeds, apart from the listed differences", () => {
      const comparison = new Comparison([
        {
          file: 'encoding',
          field: /title$/,
          reason:
            'the feed declares ISO-8859-1 and we decode it so ("Notícias"); rss-parser read it as UTF-8 ("Not\uFFFDcias")',
        },
      ]);
      const folder = join(CORPORA, 'rss-parser/test');
      for (const name of readdirSync(join(folder, 'output'))) {
        const file = name.replace(/\.json$/, '');
        const input = ['rss', 'atom']
          .map((extension) => join(folder, 'input', `${file}.${extension}`))
          .find(existsSync);
        if (!input) throw new Error(`no input feed for ${name}`);
        const expected: RssParserFeed = JSON.parse(readFileSync(join(folder, 'output', name), 'utf8')).feed;
        const feed = parseCorpusFile(input);
        comparison.check(file, 'title', sameText, feed.title, expected.title);
        comparison.check(file, 'items', sameCount, feed.items.length, expected.items.length);
        expected.items.forEach((theirs, index) => {
          const ours = feed.items[index];
          if (!ours) return;
          const at = `item${index}`;
          comparison.check(file, `${at}.title`, sameText, ours.title, theirs.title);
          comparison.check(file, `${at}.link`, sameUrl, ours.link, theirs.link);
          if (theirs.creator) {
            comparison.check(file, `${at}.creator`, sameText, ours.creator, theirs.creator);
          }
          // isoDate is rss-parser's normalised pubDate / dc:date / updated.
          comparison.check(file, `${at}.pubDate`, sameInstant, ours.pubDate, theirs.isoDate);
        });
      }
      reportRate('rss-parser', comparison);
      expect(comparison.unexplained()).toEqual([]);
      expect(comparison.staleExceptions()).toEqual([]);
      expect(comparison.checks).toBeGreaterThan(3000);
    });
  },
);
