import { readFileSync } from 'node:fs';
import { OPML_MAX_BYTES, OPML_MAX_OUTLINES, OPML_MESSAGES } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import { AppError } from '#server/platform/http/errors';
import { parseOpml, writeOpml } from './opml';

const FIXTURES = new URL('../../../../../test/fixtures/opml/', import.meta.url);
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(name, FIXTURES)));
const bytes = (text: string) => new TextEncoder().encode(text);
const opml = (body: string, head = '<head><title>T</title></head>') =>
  `<?xml version="1.0" encoding="UTF-8"?><opml version="2.0">${head}<body>${body}</body></opml>`;
const feed = (n: number, extra = '') =>
  `<outline type="rss" text="Feed ${n}" xmlUrl="https://example.com/${n}.xml"${extra}/>`;

/** The names of the folders and the URLs of their feeds. */
const shape = (file: Uint8Array) =>
  parseOpml(file).folders.map((folder) => [folder.name, folder.feeds.map((f) => f.xmlUrl)]);

function refusal(file: Uint8Array): AppError {
  try {
    parseOpml(file);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('parsed');
}

describe('parseOpml reads the exports of real feed readers, folders and all', () => {
  it('Feedly (OPML 1.0, one level of folders, an escaped & in a URL and a folder name)', () => {
    const document = parseOpml(fixture('feedly.opml'));
    expect(document.title).toBe('Jo subscriptions in feedly Cloud');
    expect(shape(fixture('feedly.opml'))).toEqual([
      [
        'Tech',
        [
          'https://news.ycombinator.com/rss',
          'https://feeds.arstechnica.com/arstechnica/index',
          'https://www.theverge.com/rss/index.xml',
        ],
      ],
      [
        'Cooking & Food',
        [
          'https://smittenkitchen.com/feed/',
          'https://www.seriouseats.com/feeds/all',
          'https://www.budgetbytes.com/feed/?type=rss&v=2',
        ],
      ],
    ]);
    expect(document.folders[0]?.feeds[0]).toEqual({
      title: 'Hacker News',
      xmlUrl: 'https://news.ycombinator.com/rss',
      htmlUrl: 'https://news.ycombinator.com/',
    });
  });

  it('Inoreader (a feed listed twice in one folder is kept once)', () => {
    expect(shape(fixture('inoreader.opml'))).toEqual([
      [
        'Design',
        [
          'https://alistapart.com/main/feed/',
          'https://www.smashingmagazine.com/feed/',
          'https://css-tricks.com/feed/',
        ],
      ],
      ['Science', ['https://www.quantamagazine.org/feed/', 'https://www.nasa.gov/news-release/feed/']],
    ]);
  });

  it('NetNewsWire (OPML 1.1, feeds outside folders, a folder inside a folder)', () => {
    expect(shape(fixture('netnewswire.opml'))).toEqual([
      ['', ['https://daringfireball.net/feeds/main', 'https://inessential.com/feed.json']],
      ['Apple', ['https://sixcolors.com/feed/', 'https://www.macstories.net/feed/']],
      ['Apple / Podcasts', ['https://atp.fm/rss']],
    ]);
  });

  it('Miniflux (OPML 2.0, numeric character references in titles)', () => {
    const document = parseOpml(fixture('miniflux.opml'));
    expect(document.folders.map((folder) => folder.name)).toEqual(['All']);
    expect(document.folders[0]?.feeds.map((f) => f.title)).toEqual([
      'LWN.net',
      'Julia Evans',
      "Simon Willison's Weblog",
    ]);
  });

  it('The Old Reader (a folder, then a feed outside any folder)', () => {
    expect(shape(fixture('the-old-reader.opml'))).toEqual([
      [
        'News',
        [
          'http://feeds.bbci.co.uk/news/rss.xml',
          'https://feeds.npr.org/1001/rss.xml',
          'https://www.theguardian.com/uk/rss',
        ],
      ],
      ['', ['https://xkcd.com/rss.xml']],
    ]);
  });

  it('an ISO-8859-1 file decodes by its XML declaration', () => {
    const document = parseOpml(fixture('latin1.opml'));
    expect(document.folders[0]?.name).toBe('Actualités');
    expect(document.folders[0]?.feeds.map((f) => f.title)).toEqual([
      'Le Monde à la une',
      'France Info',
      'Libération',
    ]);
  });

  it('UTF-16 with a byte-order mark, attribute names in any case, `url` on type="rss", text when no title', () => {
    const text = opml(
      '<outline text="Old"><outline TYPE="rss" TEXT="A" XMLURL="https://a.example/feed"/>' +
        '<outline type="rss" text="B" url="https://b.example/feed"/>' +
        '<outline type="link" text="Not a feed" url="https://c.example/"/></outline>',
    ).replace('UTF-8', 'UTF-16');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(shape(new Uint8Array(utf16))).toEqual([
      ['Old', ['https://a.example/feed', 'https://b.example/feed']],
    ]);
  });

  it('keeps the URL as written, even one no digest may use (the import sets those apart with a reason)', () => {
    expect(shape(bytes(opml(`<outline text="x" xmlUrl="javascript:alert(1)"/>${feed(1)}`)))).toEqual([
      ['', ['javascript:alert(1)', 'https://example.com/1.xml']],
    ]);
  });
});

describe('parseOpml refuses bad files with a clear message', () => {
  it.each([
    ['an empty file', '', OPML_MESSAGES.empty],
    ['plain text', 'just some words', OPML_MESSAGES.notOpml],
    ['JSON', '{"feeds": ["https://example.com/feed"]}', OPML_MESSAGES.notOpml],
    [
      'an HTML page',
      '<!doctype html><html><body><a href="/feed">feed</a></body></html>',
      OPML_MESSAGES.notOpml,
    ],
    ['an RSS feed', '<rss version="2.0"><channel><title>T</title></channel></rss>', OPML_MESSAGES.notOpml],
    ['OPML without a body', '<opml version="2.0"><head><title>T</title></head></opml>', OPML_MESSAGES.noBody],
    [
      'OPML with folders but no feed',
      opml('<outline text="Empty"/><outline text="Also"></outline>'),
      OPML_MESSAGES.noFeeds,
    ],
    [
      'an unended DOCTYPE',
      '<?xml version="1.0"?><!DOCTYPE opml [ <!ENTITY a "b">',
      OPML_MESSAGES.unendedDoctype,
    ],
  ])('%s', (_, text, message) => {
    const error = refusal(bytes(text));
    expect(error.statusCode).toBe(422);
    expect(error.message).toBe(message);
  });

  it('a PNG image', () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    expect(refusal(new Uint8Array(png)).message).toBe(OPML_MESSAGES.notOpml);
  });

  it('billion laughs: the DOCTYPE is skipped, no entity is expanded, the title stays as written', () => {
    const lol = Array.from(
      { length: 9 },
      (_, n) => `<!ENTITY lol${n + 1} "${`&lol${n || ''};`.repeat(10)}">`,
    ).join('');
    const text = `<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY lol "lol">${lol}<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${opml(
      `<outline text="&lol9;"><outline text="&xxe;" xmlUrl="https://example.com/&lol9;"/></outline>`,
    )}`;
    const started = Date.now();
    const document = parseOpml(bytes(text));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(document.folders).toEqual([
      { name: '&lol9;', feeds: [{ title: '&xxe;', xmlUrl: 'https://example.com/&lol9;', htmlUrl: '' }] },
    ]);
  });

  it(`a file past ${OPML_MAX_BYTES} bytes (10 MB of outlines) is refused before it is read`, () => {
    const outline = feed(1);
    const text = opml(outline.repeat(Math.ceil((10 * 1024 * 1024) / outline.length)));
    expect(refusal(bytes(text)).message).toBe(OPML_MESSAGES.tooLarge);
  });

  it(`${OPML_MAX_OUTLINES + 1} outlines are too many; ${OPML_MAX_OUTLINES} are read`, () => {
    const many = (count: number) => opml(Array.from({ length: count }, (_, n) => feed(n)).join(''));
    expect(refusal(bytes(many(2000))).message).toBe(OPML_MESSAGES.tooManyOutlines);
    expect(refusal(bytes(many(OPML_MAX_OUTLINES + 1))).message).toBe(OPML_MESSAGES.tooManyOutlines);
    expect(parseOpml(bytes(many(OPML_MAX_OUTLINES))).folders[0]?.feeds).toHaveLength(OPML_MAX_OUTLINES);
  });

  it('folders nested deeper than any reader writes are refused; twelve levels are read', () => {
    const nested = (levels: number) =>
      opml(`${'<outline text="f">'.repeat(levels)}${feed(1)}${'</outline>'.repeat(levels)}`);
    expect(refusal(bytes(nested(500))).message).toBe(OPML_MESSAGES.tooDeep);
    expect(shape(bytes(nested(12)))[0]?.[1]).toEqual(['https://example.com/1.xml']);
  });
});

describe('writeOpml', () => {
  it('escapes every value, drops characters XML cannot hold, and reads back as the same feeds', () => {
    const feeds = [
      { title: 'Tom & Jerry\'s "<Feed>"', xmlUrl: 'https://example.com/feed?a=1&b=<2>', htmlUrl: '' },
      { title: 'Bell\u0007 here', xmlUrl: 'https://example.com/two', htmlUrl: 'https://example.com/' },
    ];
    const written = writeOpml('Mine & <yours>', feeds, new Date('2026-01-02T03:04:05Z'));
    expect(written).toContain('<title>Mine &amp; &lt;yours&gt;</title>');
    expect(written).not.toContain('\u0007');
    const back = parseOpml(bytes(written));
    expect(back.title).toBe('Mine & <yours>');
    expect(back.folders).toEqual([
      {
        name: '',
        feeds: [
          { ...feeds[0] },
          { title: 'Bell here', xmlUrl: 'https://example.com/two', htmlUrl: 'https://example.com/' },
        ],
      },
    ]);
  });
});
