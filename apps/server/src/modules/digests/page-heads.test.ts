import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestBuilds, users } from '#server/db/schema';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { call, createDigest } from './test-support';

const APP_URL = 'https://digest.example';
// The shape of the built web app's index.html (apps/web/index.html after Vite).
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="description" content="Digest: personal newsletters built from the things you follow." />
    <title>Digest</title>
    <script type="module" crossorigin src="/assets/index-1a2b3c.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

let t: TestApi;
let webDistDir: string;
beforeAll(async () => {
  webDistDir = await mkdtemp(path.join(os.tmpdir(), 'digest-web-'));
  await writeFile(path.join(webDistDir, 'index.html'), INDEX_HTML);
  t = await startTestApi({ appUrl: APP_URL, webDistDir });
});
afterAll(async () => {
  await t?.close();
  await rm(webDistDir, { recursive: true, force: true });
});

/** The content of each tag of the head: `og:title` → its content, `title` → the <title> text. */
function headOf(html: string) {
  const head = /<head>([\s\S]*)<\/head>/.exec(html)?.[1] ?? '';
  const tags: Record<string, string[]> = {};
  const add = (key: string, value: string) => {
    tags[key] = [...(tags[key] ?? []), value];
  };
  for (const [, key = '', value = ''] of head.matchAll(
    /<meta (?:name|property)="([^"]+)" content="([^"]*)"/g,
  )) {
    add(key, value);
  }
  for (const [, value = ''] of head.matchAll(/<title>([^<]*)<\/title>/g)) add('title', value);
  for (const [, value = ''] of head.matchAll(/<link rel="canonical" href="([^"]*)"/g))
    add('canonical', value);
  for (const [, type = '', title = '', href = ''] of head.matchAll(
    /<link rel="alternate" type="([^"]*)" title="([^"]*)" href="([^"]*)"/g,
  )) {
    add('alternate', `${type} ${title} ${href}`);
  }
  return tags;
}

async function ownerNamed(fullName: string) {
  const owner = await signUp(t);
  const username = `Reader${Math.random().toString(36).slice(2, 8)}`;
  const response = await call(t.app, owner, 'PATCH', '/api/users/me', { fullName, username });
  expect(response.statusCode).toBe(200);
  return { ...owner, username };
}

/** A digest with these issues, its public link turned on (`token`) unless `visibility` is private. */
async function digestWithIssues(
  owner: TestUser,
  numbers: number[],
  name = 'Morning Brief',
  visibility: 'public' | 'private' = 'public',
) {
  const digest = await createDigest(t.app, owner, { name });
  if (numbers.length > 0) {
    const html = (buildNumber: number) =>
      `<html><head><title>${name}</title></head><body>issue ${buildNumber}</body></html>`;
    await t.database.db.insert(digestBuilds).values(
      numbers.map((buildNumber) => ({
        digestId: digest.digestId,
        buildNumber,
        html: html(buildNumber),
        text: `issue ${buildNumber}`,
        publicHtml: html(buildNumber),
      })),
    );
  }
  if (visibility === 'private') return { ...digest, token: '' };
  const answer = await call(t.app, owner, 'PUT', `/api/digests/${digest.digestId}/visibility`, {
    visibility,
  });
  return { ...digest, token: String(answer.json().shareUrl).split('/').pop() ?? '' };
}

const get = (url: string, ip = '203.0.113.1') =>
  t.app.inject({ method: 'GET', url, headers: { 'x-forwarded-for': ip } });

const GENERIC_HEAD = {
  title: ['Digest'],
  description: ['Digest: personal newsletters built from the things you follow.'],
  canonical: [`${APP_URL}/`],
  'og:site_name': ['Digest'],
  'og:type': ['website'],
  'og:title': ['Digest'],
  'og:description': ['Digest: personal newsletters built from the things you follow.'],
  'og:url': [`${APP_URL}/`],
  'og:image': [`${APP_URL}/social-preview.png`],
  'twitter:card': ['summary'],
  'twitter:title': ['Digest'],
  'twitter:description': ['Digest: personal newsletters built from the things you follow.'],
  'twitter:image': [`${APP_URL}/social-preview.png`],
};

describe('GET /digests/share/{shareToken}[/{buildNumber}] carries the issue’s link preview in its HTML', () => {
  it('names the digest, describes the latest issue and points at the shared link, in Open Graph and Twitter Card tags', async () => {
    const owner = await ownerNamed('Ann Smith');
    const digest = await digestWithIssues(owner, [1, 3, 2]);
    const response = await get(`/digests/share/${digest.token}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const description = "Issue 3 of a daily digest by Ann Smith, with Hacker News, Today's Date, and RSS.";
    const url = `${APP_URL}/digests/share/${digest.token}`;
    const image = `${APP_URL}/social-preview.png`;
    expect(headOf(response.body)).toEqual({
      title: ['Morning Brief'],
      description: [description],
      canonical: [url],
      'og:site_name': ['Digest'],
      'og:type': ['article'],
      'og:title': ['Morning Brief'],
      'og:description': [description],
      'og:url': [url],
      'og:image': [image],
      'twitter:card': ['summary'],
      'twitter:title': ['Morning Brief'],
      'twitter:description': [description],
      'twitter:image': [image],
      viewport: ['width=device-width, initial-scale=1'],
      alternate: [
        `application/atom+xml Morning Brief (Atom) ${APP_URL}/api/digests/share/${digest.token}/feed.atom`,
        `application/feed+json Morning Brief (JSON Feed) ${APP_URL}/api/digests/share/${digest.token}/feed.json`,
      ],
    });
    // The rest of the app's page is as built: the app still starts from it.
    expect(response.body).toContain('<div id="root"></div>');
    expect(response.body).toContain(
      '<script type="module" crossorigin src="/assets/index-1a2b3c.js"></script>',
    );
  });

  it('describes the issue with the given number, at its own address', async () => {
    const owner = await ownerNamed('Ann Smith');
    const digest = await digestWithIssues(owner, [1, 2]);
    const head = headOf((await get(`/digests/share/${digest.token}/1`)).body);
    expect(head['og:description']?.[0]).toMatch(/^Issue 1 of a daily digest/);
    expect(head['og:url']).toEqual([`${APP_URL}/digests/share/${digest.token}/1`]);
    expect(head.canonical).toEqual([`${APP_URL}/digests/share/${digest.token}/1`]);
    // An issue's page announces the feeds of its digest, not of one issue.
    expect(head.alternate?.map((link) => link.split(' ').pop())).toEqual([
      `${APP_URL}/api/digests/share/${digest.token}/feed.atom`,
      `${APP_URL}/api/digests/share/${digest.token}/feed.json`,
    ]);
  });

  it('announces the feeds only while the digest is public: none once its link is turned off', async () => {
    const owner = await ownerNamed('Ann Smith');
    const digest = await digestWithIssues(owner, [1]);
    expect(headOf((await get(`/digests/share/${digest.token}`)).body).alternate).toHaveLength(2);
    await call(t.app, owner, 'PUT', `/api/digests/${digest.digestId}/visibility`, { visibility: 'private' });
    const { body } = await get(`/digests/share/${digest.token}`);
    expect(headOf(body).alternate).toBeUndefined();
    expect(body).not.toContain('rel="alternate"');
  });

  it('shows the owner’s public photo as the image, as an absolute address', async () => {
    const owner = await ownerNamed('Ann Smith');
    const photoId = randomUUID();
    await t.database.db.update(users).set({ photoId }).where(eq(users.userId, owner.userId));
    const digest = await digestWithIssues(owner, [1]);
    const head = headOf((await get(`/digests/share/${digest.token}`)).body);
    expect(head['og:image']).toEqual([`${APP_URL}/api/photos/${photoId}`]);
    expect(head['twitter:image']).toEqual([`${APP_URL}/api/photos/${photoId}`]);
  });

  it('escapes what users wrote: a name cannot close a tag or an attribute', async () => {
    const owner = await ownerNamed('Tom');
    // A name as a social sign-in may bring it, beyond the letters the profile form allows.
    await t.database.db
      .update(users)
      .set({ fullName: 'Tom & "Jerry" <b>' })
      .where(eq(users.userId, owner.userId));
    const digest = await digestWithIssues(owner, [1], '"><script>alert(1)</script> & Co');
    const { body } = await get(`/digests/share/${digest.token}`);
    expect(body).not.toContain('<script>alert(1)');
    expect(body).not.toContain('<b>');
    expect(body.match(/<script/g)).toHaveLength(1);
    const head = headOf(body);
    expect(head['og:title']).toEqual(['&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co']);
    expect(head.title).toEqual(['&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co']);
    expect(head.alternate?.[0]).toContain(
      ' &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co (Atom) ',
    );
    expect(head['og:description']?.[0]).toContain('by Tom &amp; &quot;Jerry&quot; &lt;b&gt;, with');
  });

  it('keeps the app’s strict Content-Security-Policy and is cached briefly, as a public page', async () => {
    const owner = await ownerNamed('Ann Smith');
    const digest = await digestWithIssues(owner, [1]);
    const response = await get(`/digests/share/${digest.token}`);
    const home = await get('/');
    expect(response.headers['content-security-policy']).toBe(home.headers['content-security-policy']);
    expect(response.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(response.headers['cache-control']).toBe('public, max-age=60');
  });

  it('reveals nothing of a digest that is unknown, deleted, private, turned off or has no issue, nor by its id: the app’s generic head, the same answer for each', async () => {
    const owner = await ownerNamed('Secret Owner');
    const deleted = await digestWithIssues(owner, [1], 'Deleted Digest');
    expect((await call(t.app, owner, 'DELETE', `/api/digests/${deleted.digestId}`)).statusCode).toBe(200);
    const empty = await digestWithIssues(owner, [], 'Empty Digest');
    const published = await digestWithIssues(owner, [1], 'Published Digest');
    const privateOne = await digestWithIssues(owner, [1], 'Private Digest', 'private');
    const turnedOff = await digestWithIssues(owner, [1], 'Turned Off Digest');
    await call(t.app, owner, 'PUT', `/api/digests/${turnedOff.digestId}/visibility`, {
      visibility: 'private',
    });
    const unknown = await get(`/digests/share/${randomUUID()}`);
    expect(headOf(unknown.body)).toEqual({
      ...GENERIC_HEAD,
      viewport: ['width=device-width, initial-scale=1'],
    });
    for (const url of [
      `/digests/share/${deleted.token}`,
      `/digests/share/${empty.token}`,
      `/digests/share/${published.token}/2`,
      `/digests/share/${published.token}/one`,
      `/digests/share/${published.digestId}`,
      `/digests/share/${privateOne.digestId}`,
      `/digests/share/${privateOne.digestId}/1`,
      `/digests/share/${turnedOff.token}`,
      `/digests/share/${turnedOff.digestId}/1`,
      '/digests/share/not-a-token',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(unknown.body);
      expect(response.headers['cache-control'], url).toBe(unknown.headers['cache-control']);
      expect(response.body, url).not.toMatch(
        /Deleted Digest|Empty Digest|Published Digest|Private Digest|Turned Off Digest|Secret Owner/,
      );
    }
  });

  it('answers the same head whatever the case of the path, as the web app’s routes match', async () => {
    const owner = await ownerNamed('Ann Smith');
    const digest = await digestWithIssues(owner, [1]);
    const head = headOf((await get(`/Digests/Share/${digest.token}/`)).body);
    expect(head['og:url']).toEqual([`${APP_URL}/digests/share/${digest.token}`]);
  });

  it('limits a client to 300 previews a minute', async () => {
    const url = `/digests/share/${randomUUID()}`;
    for (let i = 0; i < 300; i += 1) expect((await get(url, '203.0.113.99')).statusCode).toBe(200);
    const limited = await get(url, '203.0.113.99');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await get(url, '203.0.113.100')).statusCode).toBe(200);
  });
});

describe('GET /user/{username} carries the public profile’s link preview in its HTML', () => {
  it('names the user and shows the bio', async () => {
    const owner = await ownerNamed('Ada Lovelace');
    await call(t.app, owner, 'PATCH', '/api/users/me', { bio: 'Notes on engines.' });
    const head = headOf((await get(`/user/${owner.username.toLowerCase()}`)).body);
    expect(head['og:title']).toEqual([`Ada Lovelace (@${owner.username}) on Digest`]);
    expect(head['og:description']).toEqual(['Notes on engines.']);
    expect(head['og:type']).toEqual(['profile']);
    expect(head['og:url']).toEqual([`${APP_URL}/user/${owner.username}`]);
    expect(head['og:image']).toEqual([`${APP_URL}/social-preview.png`]);
  });

  it('says whose digests they are when there is no bio', async () => {
    const owner = await ownerNamed('Ada Lovelace');
    const head = headOf((await get(`/user/${owner.username}`)).body);
    expect(head['og:description']).toEqual(['The digests of Ada Lovelace on Digest.']);
  });

  it('answers the generic head for an unknown or malformed username', async () => {
    const generic = (await get(`/digests/share/${randomUUID()}`)).body;
    for (const url of ['/user/nobody0here', '/user/not%20a%20name', `/user/${'a'.repeat(31)}`]) {
      expect((await get(url)).body, url).toBe(generic);
    }
  });
});

describe('every other page of the web app', () => {
  it('is the built index.html, unchanged and never cached', async () => {
    for (const url of ['/', '/digests', '/digests/share', '/user', '/digests/42/share/x']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(INDEX_HTML);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
  });
});
