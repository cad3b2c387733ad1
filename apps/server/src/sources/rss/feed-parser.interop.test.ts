/**
 * The classes of well-formed feed the parser once refused or misread (issue 16), and the attacks a
 * DOCTYPE carries, on the small feeds of feed-interop.fixtures.ts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SourceError } from '#server/sources/source-error';
import { attackFixtures, INTEROP_FIXTURES, type InteropFixture } from './feed-interop.fixtures';
import { parseFeed } from './feed-parser';

function check(fixture: InteropFixture) {
  const feed = parseFeed(fixture.bytes, { url: fixture.url, contentType: fixture.contentType });
  const item = feed.items[0];
  const { itemSummaryIncludes, ...exact } = fixture.expected;
  const got = {
    title: feed.title,
    link: feed.link,
    itemTitle: item?.title,
    itemLink: item?.link,
    itemImage: item?.image,
  };
  expect(Object.fromEntries(Object.keys(exact).map((key) => [key, got[key as keyof typeof got]]))).toEqual(
    exact,
  );
  if (itemSummaryIncludes) expect(item?.summary).toContain(itemSummaryIncludes);
}

const byKind = (kind: InteropFixture['kind']) =>
  INTEROP_FIXTURES.filter((fixture) => fixture.kind === kind).map(
    (fixture) => [fixture.name, fixture] as const,
  );

describe('every encoding a feed can declare or imply is decoded', () => {
  it.each(byKind('encoding'))('%s', (_name, fixture) => check(fixture));
});

describe('namespaces are matched by URI, whatever the prefix, the root included', () => {
  it.each(byKind('namespace'))('%s', (_name, fixture) => check(fixture));
});

describe('a DOCTYPE is read past: its subset skipped, HTML entities known', () => {
  it.each(byKind('doctype'))('%s', (_name, fixture) => check(fixture));

  it('reads past a DOCTYPE of 100 000 nested "[" and "<!" in linear time, without exhausting the stack', () => {
    const body = `<!DOCTYPE rss [${'<!x ['.repeat(100_000)}>]><rss><channel><title>T</title></channel></rss>`;
    const started = performance.now();
    expect(parseFeed(body, { url: 'https://x.example/' }).title).toBe('T');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('refuses a DOCTYPE that never ends, saying so', () => {
    const body =
      '<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "never closed><rss><channel><title>x</title>';
    expect(() => parseFeed(body, { url: 'https://x.example/' })).toThrow(SourceError);
    expect(() => parseFeed(body, { url: 'https://x.example/' })).toThrow(
      'The feed begins a DOCTYPE and never ends it',
    );
  });
});

describe('Atom 0.3 base64 and escaped modes are decoded', () => {
  it.each(byKind('content mode'))('%s', (_name, fixture) => check(fixture));
});

describe('Media RSS, CDF and relative links', () => {
  it.each(byKind('media and links'))('%s', (_name, fixture) => check(fixture));
});

describe('no entity a DOCTYPE declares is expanded, nothing it names is fetched, the time stays bounded', () => {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    response.end('<!ENTITY exfil "LEAKED">');
  });
  let origin = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each(attackFixtures('http://placeholder').map((attack) => [attack.name]))('%s', async (name) => {
    const attack = attackFixtures(origin).find((candidate) => candidate.name === name);
    if (!attack) throw new Error(`no attack ${name}`);
    const started = performance.now();
    const feed = parseFeed(attack.text, { url: 'https://evil.example/feed' });
    const elapsed = performance.now() - started;
    const output = JSON.stringify(feed);
    // Expanding anything would make the output many times the input (10⁹ "lol"s, 1 GB of "A"s).
    expect(output.length).toBeLessThan(attack.text.length * 3);
    expect(output).not.toMatch(/lollollol|root:|LEAKED/);
    expect(feed.items).toHaveLength(1);
    expect(elapsed).toBeLessThan(2_000);
    // Anything fetched would be fetched asynchronously: give it the time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests).toEqual([]);
  });

  it('leaves an undeclared reference as written: &lol8; stays those six characters', () => {
    const [laughs] = attackFixtures(origin);
    const feed = parseFeed(laughs?.text ?? '', { url: 'https://evil.example/feed' });
    expect(feed.title).toBe('&lol8;');
  });
});
