import { describe, expect, it } from 'vitest';
import { parseFeedDate } from './feed-dates';
import { findFeedLinks } from './feed-discovery';
import { decodeFeedBody, isHtmlPage, parseFeed } from './feed-parser';

const URL_ = 'https://example.com/blog/feed.xml';
const parse = (body: string | Uint8Array, contentType?: string) =>
  parseFeed(body, { url: URL_, contentType });

const rss = (items: string, channel = '') =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>${channel}${items}</channel></rss>`;

describe('parseFeedDate', () => {
  it.each([
    ['Thu, 01 Jan 2004 19:48:21 GMT', '2004-01-01T19:48:21.000Z'],
    ['Thu, 1 Jan 2004 19:48:21 +0200', '2004-01-01T17:48:21.000Z'],
    ['01 Jan 04 19:48 EST', '2004-01-02T00:48:00.000Z'],
    ['Thursday, 01 January 2004 19:48:21 PDT', '2004-01-02T02:48:21.000Z'],
    ['Thu,01 Jan 2004 19:48:21 +00:00', '2004-01-01T19:48:21.000Z'],
    ['Wed, 03 Jan 2018 13:47:00 GMT\r\n      ', '2018-01-03T13:47:00.000Z'],
    ['Mon, 2 Jan 2006 15:04:05 -0700 (MST)', '2006-01-02T22:04:05.000Z'],
    ['2004-01-01T19:48:21Z', '2004-01-01T19:48:21.000Z'],
    ['2004-01-01T19:48:21.52+01:00', '2004-01-01T18:48:21.520Z'],
    ['2004-01-01 19:48:21', '2004-01-01T19:48:21.000Z'],
    ['2004-01-01', '2004-01-01T00:00:00.000Z'],
    ['January 1, 2004 7:48 PM GMT', '2004-01-01T19:48:00.000Z'],
  ])('reads %j as %s', (text, iso) => {
    expect(parseFeedDate(text)).toBe(iso);
  });

  it.each(['', 'yesterday', '31 Feb 2004 10:00:00 GMT', '2004-13-01', 'Thu, 01 Foo 2004 19:48:21 GMT'])(
    'leaves %j empty rather than guess',
    (text) => {
      expect(parseFeedDate(text)).toBe('');
    },
  );
});

describe('parseFeed', () => {
  it("reads a feed that carries a DOCTYPE (Netscape's RSS 0.91) without fetching or obeying it", () => {
    const body = `<?xml version="1.0"?><!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">${rss('<item><title>I</title></item>')}`;
    expect(parse(body)).toMatchObject({ title: 'T', items: [{ title: 'I' }] });
  });

  it('refuses a feed nesting elements deeper than any real one, before parsing it', () => {
    const body = `<rss><channel>${'<item>'.repeat(100_000)}</channel></rss>`;
    expect(() => parse(body)).toThrow('The feed nests its elements too deeply to be read');
    // Unclosed HTML inside a description closes with it, as the parser does: no false alarm.
    const broken = rss('<item><title>x</title><description><br><p>unclosed</description></item>'.repeat(500));
    expect(parse(broken).items).toHaveLength(500);
  });

  it("decodes XML's, numeric and HTML's named references once; others, and CDATA, stay as written", () => {
    const feed = parse(
      rss(
        '<item><title>A &amp; B &#233; &#x263A; &eacute;&nbsp;&hellip; &amp;eacute; &custom;</title><description><![CDATA[<p>&eacute;</p>]]></description></item>',
      ),
    );
    expect(feed.items[0]?.title).toBe('A & B é ☺ é … &eacute; &custom;');
    expect(feed.items[0]?.content).toBe('<p>&eacute;</p>');
  });

  it('accepts a byte-order mark and leading white space', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`\n\n  ${rss('')}`)]);
    expect(parse(bytes).title).toBe('T');
    expect(parse(`\uFEFF   ${rss('')}`).title).toBe('T');
  });

  it('keeps CDATA content as HTML and reads namespaced elements whatever their prefix', () => {
    const feed = parse(
      `<rss version="2.0" xmlns:c="http://purl.org/rss/1.0/modules/content/" xmlns:d="http://purl.org/dc/elements/1.1/" xmlns:m="http://search.yahoo.com/mrss/" xmlns:a10="http://www.w3.org/2005/Atom"><channel><title>T</title><a10:link rel="alternate" href="/home"/><item><title>I</title><c:encoded><![CDATA[<p>Hi <b>there</b></p>]]></c:encoded><d:creator>Ann</d:creator><m:content url="pic.jpg" medium="image"/><a10:updated>2020-01-02T03:04:05Z</a10:updated></item></channel></rss>`,
    );
    expect(feed.link).toBe('https://example.com/home');
    expect(feed.items[0]).toMatchObject({
      content: '<p>Hi <b>there</b></p>',
      creator: 'Ann',
      image: 'https://example.com/blog/pic.jpg',
      pubDate: '2020-01-02T03:04:05.000Z',
    });
  });

  it('reads Atom text, html and xhtml content, resolving links against xml:base', () => {
    const feed = parse(
      `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://site.example/a/"><title type="html">&lt;b&gt;Bold&lt;/b&gt; &amp;amp; co</title>
      <entry xml:base="posts/"><title>x &lt; y</title><link href="one"/><content type="text">1 &lt; 2</content></entry>
      <entry><title>E2</title><link href="/two"/><content type="html">&lt;p&gt;html&lt;/p&gt;</content></entry>
      <entry><title>E3</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>x<br/>y &amp; z</p></div></content></entry></feed>`,
    );
    expect(feed.title).toBe('Bold & co');
    expect(feed.items.map((item) => [item.title, item.link, item.content])).toEqual([
      ['x < y', 'https://site.example/a/posts/one', '1 &lt; 2'],
      ['E2', 'https://site.example/two', '<p>html</p>'],
      ['E3', '', '<p>x<br>y &amp; z</p>'],
    ]);
  });

  it('reads JSON Feed 1.0 and 1.1 authors', () => {
    const feed = parse(
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1',
        title: 'J',
        home_page_url: 'https://j.example/',
        author: { name: 'Old style' },
        items: [
          { id: '1', url: '/p/1', title: 'P', content_text: 'a < b', date_published: '2020-05-06T07:08:09Z' },
        ],
      }),
    );
    expect(feed.items[0]).toMatchObject({
      link: 'https://example.com/p/1',
      content: 'a &lt; b',
      creator: 'Old style',
      pubDate: '2020-05-06T07:08:09.000Z',
    });
  });

  it('refuses HTML pages, JSON that is not a feed, and XML that is not a feed', () => {
    expect(() => parse('<!doctype html><html><head></head></html>')).toThrow(/web page, not a feed/);
    expect(() => parse('{"hello": "world"}')).toThrow(/not a JSON Feed/);
    expect(() => parse('<?xml version="1.0"?><note><to>x</to></note>')).toThrow(
      /not an RSS, Atom or JSON feed/,
    );
  });
});

describe('decodeFeedBody and isHtmlPage', () => {
  it('decodes the encoding the XML declaration names, windows-1252 punctuation included', () => {
    const bytes = Buffer.from(
      '<?xml version="1.0" encoding="ISO-8859-1"?><rss>caf\xe9 \x93quoted\x94</rss>',
      'latin1',
    );
    expect(decodeFeedBody(bytes)).toContain('café “quoted”');
  });

  it('uses the Content-Type charset when the document declares none', () => {
    const bytes = Buffer.from('<rss>caf\xe9</rss>', 'latin1');
    expect(decodeFeedBody(bytes, 'text/xml; charset=iso-8859-1')).toBe('<rss>café</rss>');
  });

  it('tells a page from a feed by its root element, even when the server calls the feed text/html', () => {
    expect(isHtmlPage('<!DOCTYPE html><html></html>')).toBe(true);
    expect(isHtmlPage('<?xml version="1.0"?><!-- hi --><rss></rss>', 'text/html')).toBe(false);
    expect(isHtmlPage('<p>loose html</p>', 'text/html; charset=utf-8')).toBe(true);
  });
});

describe('findFeedLinks', () => {
  it('finds alternate feed links, resolved against <base> or the page, RSS and Atom before JSON', () => {
    const html = `<html><head><base href="https://cdn.example/x/">
      <link rel="alternate" type="application/feed+json" href="feed.json">
      <link rel="stylesheet" type="text/css" href="style.css">
      <link rel="alternate" type="text/html" href="other.html">
      <link rel="Alternate home" type="application/atom+xml" href="/atom.xml">
      <link rel="alternate" type="application/rss+xml; charset=utf-8" href="rss.xml"></head></html>`;
    expect(findFeedLinks(html, 'https://page.example/')).toEqual([
      'https://cdn.example/atom.xml',
      'https://cdn.example/x/rss.xml',
      'https://cdn.example/x/feed.json',
    ]);
  });

  it('finds nothing in a page without feed links', () => {
    expect(findFeedLinks('<html><head><title>x</title></head></html>', 'https://page.example/')).toEqual([]);
  });
});
