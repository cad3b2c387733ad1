import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestBuilds, digests, users } from '#server/db/schema';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { parseFeed } from '#server/sources/rss/feed-parser';
import { validateAtom, validateJsonFeed } from '#server-test/feed-validators';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { atomFeedOf } from './public-feeds.presenter';
import { PUBLIC_FEED_ISSUES } from './public-feeds.usecases';
import { call, createDigest } from './test-support';

const APP_URL = 'https://digest.example';

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi({ appUrl: APP_URL });
});
afterAll(async () => {
  await t?.close();
});

const NOT_FOUND = { code: 'FEED_NOT_FOUND', message: 'No such feed: the Digest is not public.' };
const FORMATS = [
  { file: 'feed.atom', type: 'application/atom+xml; charset=utf-8' },
  { file: 'feed.json', type: 'application/feed+json; charset=utf-8' },
] as const;

/** An issue as the build stores it: an e-mail with its hidden inbox preview line; the owner's copy says "owner". */
const issueHtml = (copy: 'owner' | 'public', buildNumber: number) =>
  `<!DOCTYPE html><html><head><title>Issue</title><style>p { color: red }</style></head><body>` +
  `<div style="display:none" data-skip-in-text="true">Preview line ${buildNumber}</div>` +
  `<h1>Issue #${buildNumber}</h1><p>The ${copy} copy of issue ${buildNumber}.</p>` +
  `<!--digest:recipient-footer--></body></html>`;

async function ownerNamed(fullName: string) {
  const owner = await signUp(t);
  const username = `Reader${Math.random().toString(36).slice(2, 8)}`;
  expect((await call(t.app, owner, 'PATCH', '/api/users/me', { fullName, username })).statusCode).toBe(200);
  return { ...owner, username };
}

/** A digest with these issues (a day apart, oldest first), public unless told, and its share token. */
async function digestWithIssues(
  owner: TestUser,
  numbers: number[],
  options: {
    name?: string;
    visibility?: 'public' | 'private';
    publicHtml?: (n: number) => string | null;
  } = {},
) {
  const digest = await createDigest(t.app, owner, {
    name: options.name ?? 'Morning Brief',
    scheduleType: 'weekly',
  });
  if (numbers.length > 0) {
    await t.database.db.insert(digestBuilds).values(
      numbers.map((buildNumber) => ({
        digestId: digest.digestId,
        buildNumber,
        html: issueHtml('owner', buildNumber),
        text: `issue ${buildNumber}`,
        publicHtml: options.publicHtml ? options.publicHtml(buildNumber) : issueHtml('public', buildNumber),
        createdAt: new Date(Date.UTC(2026, 10, 1 + buildNumber, 7)),
      })),
    );
  }
  if (options.visibility === 'private') return { ...digest, token: '' };
  const answer = await call(t.app, owner, 'PUT', `/api/digests/${digest.digestId}/visibility`, {
    visibility: 'public',
  });
  return { ...digest, token: String(answer.json().shareUrl).split('/').pop() ?? '' };
}

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { 'x-forwarded-for': '198.51.100.7', ...headers } });
const atomOf = (token: string) => get(`/api/digests/share/${token}/feed.atom`);
const jsonOf = (token: string) => get(`/api/digests/share/${token}/feed.json`);
const page = (token: string, n?: number) =>
  `${APP_URL}/digests/share/${token}${n === undefined ? '' : `/${n}`}`;

describe('a public digest has an Atom feed and a JSON Feed of its issues', () => {
  it('the Atom feed: the digest, its owner, its share page and self link; each issue newest first with its public copy', async () => {
    const owner = await ownerNamed('Ann Smith');
    const digest = await digestWithIssues(owner, [1, 3, 2]);
    const response = await atomOf(digest.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    const { body } = response;
    expect(body).toMatch(
      /^<\?xml version="1.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/,
    );
    expect(body).toContain('<title type="text">Morning Brief</title>');
    expect(body).toContain(
      '<subtitle type="text">A weekly digest by Ann Smith, made with Digest.</subtitle>',
    );
    expect(body).toContain(`<id>${page(digest.token)}</id>`);
    expect(body).toContain(
      `<link rel="self" type="application/atom+xml" href="${APP_URL}/api/digests/share/${digest.token}/feed.atom"/>`,
    );
    expect(body).toContain(`<link rel="alternate" type="text/html" href="${page(digest.token)}"/>`);
    expect(body).toContain(
      `<author><name>Ann Smith</name><uri>${APP_URL}/user/${owner.username}</uri></author>`,
    );
    const ids = [...body.matchAll(/<entry>\s*<title type="text">([^<]*)<\/title>\s*<id>([^<]*)<\/id>/g)];
    expect(ids.map(([, title, id]) => [title, id])).toEqual([
      ['Morning Brief · Issue #3', page(digest.token, 3)],
      ['Morning Brief · Issue #2', page(digest.token, 2)],
      ['Morning Brief · Issue #1', page(digest.token, 1)],
    ]);
    expect(body).toContain('<published>2026-11-04T07:00:00.000Z</published>');
    // The feed changed when its newest issue came, or when the digest itself last did.
    const [, updated] = /<\/subtitle>[\s\S]*?<updated>([^<]+)<\/updated>/.exec(body) ?? [];
    expect(Date.parse(updated ?? '')).toBeGreaterThanOrEqual(Date.UTC(2026, 10, 4, 7));
    // The public copy, as escaped HTML: the preview line, the head and the footer marker are gone.
    expect(body).toContain(
      '<content type="html">&lt;h1&gt;Issue #3&lt;/h1&gt;&lt;p&gt;The public copy of issue 3.&lt;/p&gt;</content>',
    );
    expect(body).not.toMatch(/owner copy|Preview line|color: red|recipient-footer/);
  });

  it('the JSON Feed: the same digest and issues', async () => {
    const owner = await ownerNamed('Ann Smith');
    const digest = await digestWithIssues(owner, [1, 2]);
    const response = await jsonOf(digest.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/feed+json; charset=utf-8');
    expect(response.json()).toEqual({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'Morning Brief',
      home_page_url: page(digest.token),
      feed_url: `${APP_URL}/api/digests/share/${digest.token}/feed.json`,
      description: 'A weekly digest by Ann Smith, made with Digest.',
      favicon: `${APP_URL}/favicon.svg`,
      authors: [{ name: 'Ann Smith', url: `${APP_URL}/user/${owner.username}` }],
      items: [2, 1].map((n) => ({
        id: page(digest.token, n),
        url: page(digest.token, n),
        title: `Morning Brief · Issue #${n}`,
        content_html: `<h1>Issue #${n}</h1><p>The public copy of issue ${n}.</p>`,
        date_published: new Date(Date.UTC(2026, 10, 1 + n, 7)).toISOString(),
      })),
    });
  });

  it(`carries the newest ${PUBLIC_FEED_ISSUES} issues that have a public copy, and a paused digest's too`, async () => {
    const owner = await ownerNamed('Ann Smith');
    const numbers = Array.from({ length: PUBLIC_FEED_ISSUES + 3 }, (_, index) => index + 1);
    // Issue 23 was stored before public copies existed: it is never public.
    const digest = await digestWithIssues(owner, numbers, {
      publicHtml: (n) => (n === 23 ? null : issueHtml('public', n)),
    });
    await call(t.app, owner, 'PATCH', `/api/digests/${digest.digestId}`, { active: false });
    const items = (await jsonOf(digest.token)).json().items as { id: string }[];
    expect(items.map((item) => item.id)).toEqual(
      Array.from({ length: PUBLIC_FEED_ISSUES }, (_, index) => page(digest.token, 22 - index)),
    );
    expect([...(await atomOf(digest.token)).body.matchAll(/<entry>/g)]).toHaveLength(PUBLIC_FEED_ISSUES);
  });

  it('a public digest without an issue yet has an empty feed, so a reader can follow it before the first one', async () => {
    const owner = await ownerNamed('Ann Smith');
    const digest = await digestWithIssues(owner, []);
    const atom = await atomOf(digest.token);
    expect(atom.statusCode).toBe(200);
    expect(atom.body).not.toContain('<entry>');
    expect(await validateAtom(atom.body)).toEqual([]);
    expect((await jsonOf(digest.token)).json().items).toEqual([]);
  });

  it('names the owner by their handle when they have no name, and links no profile when they have no handle', async () => {
    const named = await ownerNamed('Ann');
    await t.database.db.update(users).set({ fullName: null }).where(eq(users.userId, named.userId));
    const handleOnly = await digestWithIssues(named, [1]);
    expect((await jsonOf(handleOnly.token)).json().authors).toEqual([
      { name: `@${named.username}`, url: `${APP_URL}/user/${named.username}` },
    ]);
    const anonymous = await signUp(t);
    const unnamed = await digestWithIssues(anonymous, [1]);
    expect((await jsonOf(unnamed.token)).json().authors).toEqual([{ name: 'Digest' }]);
    expect((await atomOf(unnamed.token)).body).toContain('<author><name>Digest</name></author>');
  });
});

describe('the feeds validate against their specifications (RFC 4287’s RELAX NG schema; JSON Feed 1.1’s schema)', () => {
  it('both feeds of a public digest are valid, with and without issues', async () => {
    const owner = await ownerNamed('Ann Smith');
    for (const numbers of [[1, 2, 3], []]) {
      const digest = await digestWithIssues(owner, numbers);
      expect(await validateAtom((await atomOf(digest.token)).body)).toEqual([]);
      expect(validateJsonFeed((await jsonOf(digest.token)).json())).toEqual([]);
    }
  });

  it('the validators refuse what the specifications refuse (so a valid answer means something)', async () => {
    const owner = await ownerNamed('Ann Smith');
    const digest = await digestWithIssues(owner, [1]);
    const atom = (await atomOf(digest.token)).body;
    expect(await validateAtom(atom.replace(/<id>[^<]*<\/id>/, ''))).not.toEqual([]);
    expect(
      await validateAtom(atom.replace(/<updated>[^<]*<\/updated>/, '<updated>yesterday</updated>')),
    ).not.toEqual([]);
    expect(await validateAtom(atom.replace(/<author>.*<\/author>/, ''))).toEqual([
      'An atom:feed must have an atom:author unless all of its atom:entry children have an atom:author.',
    ]);
    expect(await validateAtom(atom.replace('</feed>', ''))).not.toEqual([]);
    const json = (await jsonOf(digest.token)).json();
    expect(validateJsonFeed({ ...json, title: undefined })).not.toEqual([]);
    expect(validateJsonFeed({ ...json, items: [{ ...json.items[0], content_html: undefined }] })).not.toEqual(
      [],
    );
    expect(validateJsonFeed({ ...json, feed_url: 'not a url' })).not.toEqual([]);
    expect(validateJsonFeed({ ...json, homepage_url: page(digest.token) })).not.toEqual([]);
  });

  it('our own feed parser reads both back: titles, links, dates and content of every issue', async () => {
    const owner = await ownerNamed('Ann Smith');
    const digest = await digestWithIssues(owner, [1, 2, 3]);
    for (const { file } of FORMATS) {
      const url = `${APP_URL}/api/digests/share/${digest.token}/${file}`;
      const feed = parseFeed((await get(`/api/digests/share/${digest.token}/${file}`)).body, { url });
      expect(feed.title, file).toBe('Morning Brief');
      expect(feed.link, file).toBe(page(digest.token));
      expect(feed.icon, file).toBe(`${APP_URL}/favicon.svg`);
      expect(
        feed.items.map((item) => [item.title, item.link, item.guid, item.pubDate, item.content]),
        file,
      ).toEqual(
        [3, 2, 1].map((n) => [
          `Morning Brief · Issue #${n}`,
          page(digest.token, n),
          page(digest.token, n),
          new Date(Date.UTC(2026, 10, 1 + n, 7)).toISOString(),
          `<h1>Issue #${n}</h1><p>The public copy of issue ${n}.</p>`,
        ]),
      );
    }
  });
});

describe('what people wrote is escaped, and issue HTML is sanitised', () => {
  it('a name with <&>" (and characters XML forbids) stays text and the feeds stay valid', async () => {
    const owner = await ownerNamed('Tom');
    // A name as a social sign-in may bring it, beyond the letters the profile form allows.
    await t.database.db
      .update(users)
      .set({ fullName: 'Tom & "Jerry" <b>' })
      .where(eq(users.userId, owner.userId));
    const name = `"><script>alert(1)</script> & Co's <News>`;
    const digest = await digestWithIssues(owner, [1], { name });
    await t.database.db
      .update(digests)
      .set({ name: `${name}\u0001\uFFFF` })
      .where(eq(digests.digestId, digest.digestId));
    const atom = (await atomOf(digest.token)).body;
    expect(atom).not.toContain('<script>');
    expect(atom).not.toContain('<b>');
    expect(atom).toContain(
      '<title type="text">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co\'s &lt;News&gt;</title>',
    );
    expect(atom).toContain('<name>Tom &amp; &quot;Jerry&quot; &lt;b&gt;</name>');
    expect(await validateAtom(atom)).toEqual([]);
    const json = (await jsonOf(digest.token)).json();
    expect(validateJsonFeed(json)).toEqual([]);
    expect(parseFeed(atom, { url: APP_URL }).title).toBe(name);
    expect(json.authors[0].name).toBe('Tom & "Jerry" <b>');
    // The database cannot hold NUL or a lone surrogate; the writer drops them all the same.
    const written = atomFeedOf({
      appUrl: APP_URL,
      shareToken: digest.token,
      name: 'Lone \uD800 surrogate and \u0000 NUL',
      scheduleType: 'daily',
      ownerName: null,
      ownerUsername: null,
      updatedAt: new Date(),
      issues: [],
    });
    expect(written).toContain('<title type="text">Lone  surrogate and  NUL</title>');
    expect(await validateAtom(written)).toEqual([]);
  });

  it('an issue’s HTML goes through the one allow-list: no script, no handler, no javascript: link', async () => {
    const owner = await ownerNamed('Ann Smith');
    const hostile = () =>
      '<html><body><p onclick="steal()">Hello</p><script>steal()</script>' +
      '<a href="javascript:steal()">x</a><img src="https://img.example/a.png" onerror="steal()">' +
      '<iframe src="https://evil.example/"></iframe><a href="/digests">relative</a></body></html>';
    const digest = await digestWithIssues(owner, [1], { publicHtml: hostile });
    const [item] = (await jsonOf(digest.token)).json().items;
    expect(item.content_html).not.toMatch(/steal|script|iframe|javascript:|onerror|onclick/);
    expect(item.content_html).toContain('<p>Hello</p>');
    expect(item.content_html).toContain('<img src="https://img.example/a.png" />');
    // Relative links resolve against the app, so they work in a reader.
    expect(item.content_html).toContain(`href="${APP_URL}/digests"`);
  });
});

describe('only a public digest has feeds: anything else answers the same 404 (nothing tells a private digest from none)', () => {
  it('private, turned off, deleted, unknown, malformed and a digest id: one answer', async () => {
    const owner = await ownerNamed('Secret Owner');
    const privateOne = await digestWithIssues(owner, [1], { name: 'Private Digest', visibility: 'private' });
    const turnedOff = await digestWithIssues(owner, [1], { name: 'Turned Off Digest' });
    await call(t.app, owner, 'PUT', `/api/digests/${turnedOff.digestId}/visibility`, {
      visibility: 'private',
    });
    const deleted = await digestWithIssues(owner, [1], { name: 'Deleted Digest' });
    await call(t.app, owner, 'DELETE', `/api/digests/${deleted.digestId}`);
    const answers = new Set<string>();
    for (const { file } of FORMATS) {
      for (const token of [
        turnedOff.token,
        deleted.token,
        'A'.repeat(43),
        privateOne.digestId,
        randomUUID(),
        'not-a-token',
        `${turnedOff.token}x`,
      ]) {
        const response = await get(`/api/digests/share/${token}/${file}`);
        expect(response.statusCode, `${token} ${file}`).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
        expect(response.headers.etag).toBeUndefined();
        answers.add(JSON.stringify({ body: response.body, type: response.headers['content-type'] }));
      }
    }
    expect(answers.size).toBe(1);
  });

  it('needs no login and answers the same to the owner: a feed is public or it is nothing', async () => {
    const owner = await ownerNamed('Ann Smith');
    const privateOne = await digestWithIssues(owner, [1], { visibility: 'private' });
    const asOwner = await call(t.app, owner, 'GET', `/api/digests/share/${privateOne.digestId}/feed.atom`);
    expect(asOwner.statusCode).toBe(404);
  });
});

describe('feed readers poll: the feeds are cached a while and answer conditional requests', () => {
  it('ETag and Last-Modified, 304 while nothing changed, 200 with a new ETag once a new issue is built', async () => {
    const owner = await ownerNamed('Ann Smith');
    const digest = await digestWithIssues(owner, [1, 2]);
    for (const { file } of FORMATS) {
      const url = `/api/digests/share/${digest.token}/${file}`;
      const first = await get(url);
      expect(first.headers['cache-control']).toBe('public, max-age=300');
      expect(first.headers['x-content-type-options']).toBe('nosniff');
      expect(first.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      const lastModified = String(first.headers['last-modified']);
      expect(Date.parse(lastModified)).toBeGreaterThan(0);

      const unchanged = await get(url, { 'if-none-match': etag });
      expect(unchanged.statusCode).toBe(304);
      expect(unchanged.body).toBe('');
      expect(unchanged.headers.etag).toBe(etag);
      expect((await get(url, { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
      expect((await get(url, { 'if-modified-since': lastModified })).statusCode).toBe(304);
      expect((await get(url, { 'if-none-match': '"other"' })).statusCode).toBe(200);
      // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2).
      expect(
        (await get(url, { 'if-none-match': '"other"', 'if-modified-since': lastModified })).statusCode,
      ).toBe(200);
      expect((await get(url, { 'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT' })).statusCode).toBe(200);
      expect((await get(url, { 'if-modified-since': 'not a date' })).statusCode).toBe(200);
    }

    const before = await atomOf(digest.token);
    await t.database.db.insert(digestBuilds).values({
      digestId: digest.digestId,
      buildNumber: 3,
      html: issueHtml('owner', 3),
      text: 'issue 3',
      publicHtml: issueHtml('public', 3),
    });
    const after = await get(`/api/digests/share/${digest.token}/feed.atom`, {
      'if-none-match': String(before.headers.etag),
      'if-modified-since': String(before.headers['last-modified']),
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body).toContain(page(digest.token, 3));
  });

  it('a renamed digest is a changed feed', async () => {
    const owner = await ownerNamed('Ann Smith');
    const digest = await digestWithIssues(owner, [1]);
    const before = await atomOf(digest.token);
    await call(t.app, owner, 'PATCH', `/api/digests/${digest.digestId}`, { name: 'Evening Brief' });
    const after = await get(`/api/digests/share/${digest.token}/feed.atom`, {
      'if-none-match': String(before.headers.etag),
    });
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('<title type="text">Evening Brief</title>');
  });
});
