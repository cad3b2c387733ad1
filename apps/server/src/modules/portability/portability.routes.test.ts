import { readFileSync } from 'node:fs';
import {
  DIGEST_MESSAGES,
  digestResponseSchema,
  folderTooLargeMessage,
  folderTooSmallMessage,
  MAX_DIGESTS,
  noRoomForDigestsMessage,
  OPML_MAX_BYTES,
  OPML_MESSAGES,
  opmlImportResponseSchema,
} from '@digest/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedAccounts, digestBuilds, digests, users } from '#server/db/schema';
import { callerOf, createDigest, HN, RSS, THREE_SOURCES } from '#server/modules/digests/test-support';
import { signUp, startTestApp, type TestApp, type TestUser } from '#server/modules/users/test-support';
import { URL_REFUSALS } from '#server/platform/safe-fetch/address-policy';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const api = callerOf(() => t.app);
const FIXTURES = new URL('../../../../../test/fixtures/opml/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES));

function upload(user: Pick<TestUser, 'headers'> | null, body: Buffer | string, type = 'text/x-opml') {
  return t.app.inject({
    method: 'POST',
    url: '/api/opml/import',
    headers: { ...(user?.headers ?? {}), 'content-type': type },
    payload: body,
  });
}

const digestsOf = (userId: string) => t.database.db.select().from(digests).where(eq(digests.userId, userId));

const feedsOf = (count: number, host = 'example.com') =>
  Array.from({ length: count }, (_, n) => ({ title: `Feed ${n}`, xmlUrl: `https://${host}/${n}.xml` }));

describe('POST /api/opml/import reads a file and stores nothing', () => {
  it('answers the folders and feeds of a Feedly export', async () => {
    const user = await signUp(t);
    const response = await upload(user, fixture('feedly.opml'));
    expect(response.statusCode).toBe(200);
    const preview = opmlImportResponseSchema.parse(response.json());
    expect(preview).toMatchObject({
      title: 'Jo subscriptions in feedly Cloud',
      feedCount: 6,
      refusedCount: 0,
    });
    expect(preview.folders.map((folder) => [folder.name, folder.feeds.length])).toEqual([
      ['Tech', 3],
      ['Cooking & Food', 3],
    ]);
    expect(await digestsOf(user.userId)).toEqual([]);
  });

  it('sets apart, with a reason, feeds on private addresses, other schemes and bad URLs', async () => {
    const user = await signUp(t);
    const file = `<opml version="2.0"><body><outline text="Mixed">
      <outline text="Good" xmlUrl="https://example.com/feed"/>
      <outline text="Router" xmlUrl="http://192.168.1.1/rss"/>
      <outline text="Metadata" xmlUrl="http://169.254.169.254/latest/meta-data"/>
      <outline text="Local" xmlUrl="http://localhost:8080/feed"/>
      <outline text="Script" xmlUrl="javascript:alert(1)"/>
      <outline text="Broken" xmlUrl="not a url"/>
    </outline></body></opml>`;
    const response = await upload(user, file, 'application/xml');
    expect(response.statusCode).toBe(200);
    const [folder] = opmlImportResponseSchema.parse(response.json()).folders;
    expect(folder?.feeds.map((feed) => feed.title)).toEqual(['Good']);
    expect(folder?.refused).toEqual([
      { title: 'Router', xmlUrl: 'http://192.168.1.1/rss', reason: URL_REFUSALS.private },
      { title: 'Metadata', xmlUrl: 'http://169.254.169.254/latest/meta-data', reason: URL_REFUSALS.private },
      { title: 'Local', xmlUrl: 'http://localhost:8080/feed', reason: URL_REFUSALS.private },
      { title: 'Script', xmlUrl: 'javascript:alert(1)', reason: 'Feed link must be an http(s) URL' },
      { title: 'Broken', xmlUrl: 'not a url', reason: 'Feed link must be an http(s) URL' },
    ]);
  });

  it.each([
    ['not XML', 'hello, this is a text file', OPML_MESSAGES.notOpml],
    ['an empty body', '', OPML_MESSAGES.empty],
    [
      'billion laughs that lists no feed',
      '<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><opml><body><outline text="&b;"/></body></opml>',
      OPML_MESSAGES.noFeeds,
    ],
  ])('refuses %s with 422 and its message', async (_, body, message) => {
    const user = await signUp(t);
    const response = await upload(user, body);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ message, code: 'OPML_INVALID' });
  });

  it('refuses 10 MB with 413 and a clear message, before parsing', async () => {
    const user = await signUp(t);
    const response = await upload(user, Buffer.alloc(10 * 1024 * 1024, '<outline text="x"/>'));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: OPML_MESSAGES.tooLarge, code: 'OPML_TOO_LARGE' });
    const justOver = await upload(user, Buffer.alloc(OPML_MAX_BYTES + 1, ' '));
    expect(justOver.statusCode).toBe(413);
  });

  it('needs a session (401), even for a file too large', async () => {
    expect((await upload(null, fixture('feedly.opml'))).statusCode).toBe(401);
    expect((await upload(null, Buffer.alloc(2 * 1024 * 1024, ' '))).statusCode).toBe(401);
  });
});

describe('POST /api/opml/digests creates one digest per folder, all or none', () => {
  it('creates each folder as a digest of RSS blocks with the docs/product.md §3 defaults', async () => {
    const user = await signUp(t);
    const preview = opmlImportResponseSchema.parse((await upload(user, fixture('feedly.opml'))).json());
    const response = await api(user, 'POST', '/api/opml/digests', {
      folders: preview.folders.map((folder) => ({ name: folder.name, feeds: folder.feeds })),
    });
    expect(response.statusCode).toBe(201);
    const { digests: created } = response.json();
    expect(created.map((digest: { name: string }) => digest.name)).toEqual(['Tech', 'Cooking & Food']);
    const detail = digestResponseSchema.parse(
      (await api(user, 'GET', `/api/digests/${created[0].digestId}`)).json(),
    ).digest;
    expect(detail).toMatchObject({ active: true, scheduleType: 'daily', time: '07:00', subscribers: [] });
    expect(detail.sources[0]).toMatchObject({
      type: 'RSS',
      feedLink: 'https://news.ycombinator.com/rss',
      sourceName: 'Hacker News',
      numberOfPosts: 6,
    });
  });

  it('names the folder of feeds outside any folder "{full name}\'s Digest", like any unnamed digest', async () => {
    const user = await signUp(t);
    const response = await api(user, 'POST', '/api/opml/digests', {
      folders: [{ name: '', feeds: feedsOf(3) }],
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().digests[0].name).toBe("User's Digest");
  });

  it('refuses a folder of more than 20 feeds, or fewer than 3, naming it, and creates nothing', async () => {
    const user = await signUp(t);
    const tooMany = await api(user, 'POST', '/api/opml/digests', {
      folders: [
        { name: 'Fine', feeds: feedsOf(3) },
        { name: 'Big', feeds: feedsOf(21) },
      ],
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toContain(folderTooLargeMessage('Big', 21));
    const tooFew = await api(user, 'POST', '/api/opml/digests', {
      folders: [{ name: 'Two', feeds: feedsOf(2) }],
    });
    expect(tooFew.statusCode).toBe(400);
    expect(tooFew.json().message).toContain(folderTooSmallMessage('Two', 2));
    expect(await digestsOf(user.userId)).toEqual([]);
  });

  it('refuses the whole request when one feed is on a private address, naming it, and creates nothing', async () => {
    const user = await signUp(t);
    const response = await api(user, 'POST', '/api/opml/digests', {
      folders: [
        { name: 'Fine', feeds: feedsOf(3) },
        { name: 'Sneaky', feeds: [...feedsOf(2), { title: 'Admin', xmlUrl: 'http://10.0.0.1/admin.xml' }] },
      ],
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'OPML_FEEDS_REFUSED',
      message: `${OPML_MESSAGES.unsafeFeeds} "Admin" (http://10.0.0.1/admin.xml): ${URL_REFUSALS.private}.`,
    });
    expect(await digestsOf(user.userId)).toEqual([]);
  });

  it('refuses bad bodies (no folder, javascript: feed, unknown field) with 400 and creates nothing', async () => {
    const user = await signUp(t);
    for (const body of [
      { folders: [] },
      { folders: [{ name: 'X', feeds: [...feedsOf(2), { title: 'J', xmlUrl: 'javascript:alert(1)' }] }] },
      { folders: [{ name: 'X', feeds: feedsOf(3), active: false }] },
      {},
    ]) {
      const response = await api(user, 'POST', '/api/opml/digests', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const empty = await api(user, 'POST', '/api/opml/digests', { folders: [] });
    expect(empty.json().message).toContain(OPML_MESSAGES.noFolders);
    expect(await digestsOf(user.userId)).toEqual([]);
  });

  it('counts every folder against the 100-digest limit and creates none past it', async () => {
    const user = await signUp(t);
    const now = new Date();
    await t.database.db.insert(digests).values(
      Array.from({ length: MAX_DIGESTS - 1 }, (_, n) => ({
        userId: user.userId,
        name: `D${n}`,
        sources: [],
        createdAt: now,
        updatedAt: now,
      })),
    );
    const folders = [
      { name: 'A', feeds: feedsOf(3) },
      { name: 'B', feeds: feedsOf(3) },
    ];
    const response = await api(user, 'POST', '/api/opml/digests', { folders });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ code: 'TOO_MANY_DIGESTS', message: noRoomForDigestsMessage(2, 1) });
    expect(await digestsOf(user.userId)).toHaveLength(MAX_DIGESTS - 1);
    const one = await api(user, 'POST', '/api/opml/digests', { folders: folders.slice(0, 1) });
    expect(one.statusCode).toBe(201);
    const more = await api(user, 'POST', '/api/opml/digests', { folders: folders.slice(1) });
    expect(more.json()).toEqual({ code: 'TOO_MANY_DIGESTS', message: DIGEST_MESSAGES.maxDigests });
  });

  it('needs a session (401)', async () => {
    const response = await api(null, 'POST', '/api/opml/digests', {
      folders: [{ name: 'A', feeds: feedsOf(3) }],
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /api/digests/{id}/opml exports the digest’s feeds', () => {
  it('answers an OPML attachment that imports back as the same feeds (round trip)', async () => {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user, {
      name: 'Tom & Jerry’s <news>',
      sources: [
        HN,
        { type: 'RSS', feedLink: 'https://example.com/feed?a=1&b=2', sourceName: 'A & "B"' },
        RSS,
      ],
    });
    const response = await api(user, 'GET', `/api/digests/${digest.digestId}/opml`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/x-opml; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Tom & Jerry_s <news>.opml"; filename*=UTF-8''${encodeURIComponent('Tom & Jerry’s <news>.opml')}`,
    );
    expect(response.body).toContain('<title>Tom &amp; Jerry’s &lt;news&gt;</title>');
    const back = opmlImportResponseSchema.parse((await upload(user, response.body)).json());
    expect(back.title).toBe('Tom & Jerry’s <news>');
    expect(back.folders).toEqual([
      {
        name: '',
        refused: [],
        feeds: [
          { title: 'A & "B"', xmlUrl: 'https://example.com/feed?a=1&b=2', htmlUrl: '' },
          { title: 'Example', xmlUrl: 'https://example.com/feed.xml', htmlUrl: '' },
        ],
      },
    ]);
  });

  it('answers 404 for another user’s digest and for an unknown id, 401 without a session', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner);
    const other = await signUp(t);
    expect((await api(other, 'GET', `/api/digests/${digest.digestId}/opml`)).statusCode).toBe(404);
    expect((await api(owner, 'GET', '/api/digests/not-an-id/opml')).statusCode).toBe(404);
    expect((await api(null, 'GET', `/api/digests/${digest.digestId}/opml`)).statusCode).toBe(401);
  });
});

describe('GET /api/account/archive: all my data as JSON', () => {
  it('holds the digests with settings, friends and issue HTML, the drafts, and no secret', async () => {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user, {
      name: 'Mine',
      subscribers: ['friend@example.com'],
      sendOnlyWhenNew: true,
    });
    const visibility = await api(user, 'PUT', `/api/digests/${digest.digestId}/visibility`, {
      visibility: 'public',
    });
    expect(visibility.statusCode).toBe(200);
    await api(user, 'POST', '/api/digests/drafts', { name: 'Half done', sources: [HN] });
    await t.database.db.insert(digestBuilds).values(
      Array.from({ length: 45 }, (_, n) => ({
        digestId: digest.digestId,
        buildNumber: n + 1,
        html: `<p>Issue ${n + 1}</p>`,
        text: `Issue ${n + 1}`,
      })),
    );
    await t.database.db.insert(connectedAccounts).values({
      userId: user.userId,
      provider: 'STRIPE',
      providerAccountId: 'acct_1',
      accessTokenEnc: 'SECRET-ACCESS-TOKEN-CIPHERTEXT',
      refreshTokenEnc: 'SECRET-REFRESH-TOKEN-CIPHERTEXT',
    });
    const other = await signUp(t);
    await createDigest(t.app, other, { name: 'Not mine' });

    const response = await api(user, 'GET', '/api/account/archive');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['content-disposition']).toContain('attachment; filename="digest-archive.json"');
    const archive = JSON.parse(response.body);
    expect(archive).toMatchObject({
      format: 'digest-account-archive',
      version: 1,
      account: { email: user.email },
      drafts: [{ name: 'Half done' }],
    });
    expect(archive.digests).toHaveLength(1);
    const [mine] = archive.digests;
    expect(mine).toMatchObject({
      digestId: digest.digestId,
      name: 'Mine',
      scheduleType: 'daily',
      time: '07:00',
      visibility: 'public',
      sendOnlyWhenNew: true,
      subscribers: [{ email: 'friend@example.com', status: 'invited' }],
    });
    expect(mine.sources.map((source: { type: string }) => source.type)).toEqual(
      THREE_SOURCES.map((source) => source.type),
    );
    expect(mine.issues.map((issue: { buildNumber: number }) => issue.buildNumber)).toEqual(
      Array.from({ length: 45 }, (_, n) => n + 1),
    );
    expect(mine.issues[44].html).toBe('<p>Issue 45</p>');

    const [account] = await t.database.db.select().from(users).where(eq(users.userId, user.userId));
    const [row] = await t.database.db.select().from(digests).where(eq(digests.digestId, digest.digestId));
    for (const secret of [
      account?.passwordHash,
      row?.shareToken,
      user.accessToken,
      user.refreshToken,
      'SECRET-ACCESS-TOKEN-CIPHERTEXT',
      'SECRET-REFRESH-TOKEN-CIPHERTEXT',
      'Not mine',
    ]) {
      expect(secret).toBeTruthy();
      expect(response.body).not.toContain(secret as string);
    }
    expect(response.body).not.toMatch(/passwordHash|shareToken|"token"/);
  });

  it('answers an empty account and needs a session', async () => {
    const user = await signUp(t);
    const archive = JSON.parse((await api(user, 'GET', '/api/account/archive')).body);
    expect(archive).toMatchObject({ digests: [], drafts: [] });
    expect((await api(null, 'GET', '/api/account/archive')).statusCode).toBe(401);
  });
});

describe('OpenAPI', () => {
  it('names every portability call with its tag, a summary and bearer security', async () => {
    const document = (await api(null, 'GET', '/api/openapi.json')).json();
    for (const [path, method] of [
      ['/api/opml/import', 'post'],
      ['/api/opml/digests', 'post'],
      ['/api/digests/{id}/opml', 'get'],
      ['/api/account/archive', 'get'],
    ] as const) {
      const operation = document.paths[path]?.[method];
      expect(operation?.tags, path).toEqual(['portability']);
      expect(operation?.summary, path).toBeTruthy();
      expect(operation?.security, path).toEqual([{ bearerAuth: [] }]);
    }
  });
});
