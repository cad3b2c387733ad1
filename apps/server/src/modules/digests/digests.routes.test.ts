import { randomUUID } from 'node:crypto';
import {
  DIGEST_MESSAGES,
  digestListResponseSchema,
  digestResponseSchema,
  MAX_DIGESTS,
} from '@digest/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestBuilds, digestSubscribers, digests } from '#server/db/schema';
import { signUp, startTestApp, type TestApp, type TestUser } from '#server/modules/users/test-support';
import { callerOf, createDigest, DATE, HN, RSS, sources, THREE_SOURCES } from './test-support';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const api = callerOf(() => t.app);

async function rowsOf(userId: string) {
  return t.database.db.select().from(digests).where(eq(digests.userId, userId));
}

async function rowOf(digestId: string) {
  const [row] = await t.database.db.select().from(digests).where(eq(digests.digestId, digestId));
  return row;
}

async function setFullName(user: TestUser, fullName: string) {
  const response = await api(user, 'PATCH', '/api/users/me', { fullName });
  expect(response.statusCode).toBe(200);
}

describe('POST /api/digests creates a digest', () => {
  it('answers 201 { digest } with docs/product.md §3 defaults for every omitted field', async () => {
    const user = await signUp(t);
    const response = await api(user, 'POST', '/api/digests', { sources: THREE_SOURCES });
    expect(response.statusCode).toBe(201);
    const { digest } = digestResponseSchema.parse(response.json());
    expect(digest).toMatchObject({
      name: "User's Digest",
      active: true,
      scheduleType: 'daily',
      time: '07:00',
      weekDay: 1,
      monthDay: 1,
      issueRetentionMonths: 12,
      subscribers: [],
      builds: [],
      latestBuildNumber: null,
    });
    expect(digest.sources.map((source) => source.type)).toEqual(['HACKER_NEWS', 'DATE', 'RSS']);
    expect(await rowsOf(user.userId)).toHaveLength(1);
  });

  it('names an unnamed digest "{full name}\'s Digest" (docs/product.md §5)', async () => {
    const user = await signUp(t);
    await setFullName(user, 'Ada Lovelace');
    const digest = await createDigest(t.app, user, { name: '   ' });
    expect(digest.name).toBe("Ada Lovelace's Digest");
  });

  it('stores every field it is given, sources in order with the docs/product.md §9 defaults filled in', async () => {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user, {
      name: '  Morning  read ',
      active: false,
      scheduleType: 'monthly',
      time: '23:55',
      weekDay: 0,
      monthDay: 31,
      sources: [RSS, { type: 'REDDIT', sourceName: 'r/programming' }, HN],
    });
    expect(digest).toMatchObject({
      name: 'Morning read',
      active: false,
      scheduleType: 'monthly',
      time: '23:55',
      weekDay: 0,
      monthDay: 31,
    });
    expect(digest.sources).toEqual([
      {
        type: 'RSS',
        name: '',
        showHeading: true,
        feedLink: 'https://example.com/feed.xml',
        sourceName: 'Example',
        numberOfPosts: 6,
        images: 'show',
        postBody: 'paragraph',
        layout: 2,
        onlyNew: true,
      },
      {
        type: 'REDDIT',
        name: '',
        showHeading: true,
        sourceName: 'programming',
        numberOfPosts: 6,
        images: 'show',
        postBody: 'paragraph',
        layout: 2,
        onlyNew: true,
      },
      {
        type: 'HACKER_NEWS',
        name: 'Hacker News',
        showHeading: true,
        numberOfPosts: 6,
        story: 'top',
        askHN: false,
        showHN: false,
        layout: 2,
        onlyNew: true,
      },
    ]);
    expect((await rowOf(digest.digestId))?.sources).toEqual(digest.sources);
  });

  it('strips source icons: they are never stored', async () => {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user, {
      sources: [{ ...HN, icon: 'hn.svg' }, { ...DATE, icon: { src: 'x' } }, RSS],
    });
    const row = await rowOf(digest.digestId);
    expect(JSON.stringify(row?.sources)).not.toContain('icon');
    expect(JSON.stringify(digest.sources)).not.toContain('icon');
  });

  it('answers 401 without a session', async () => {
    expect((await api(null, 'POST', '/api/digests', { sources: THREE_SOURCES })).statusCode).toBe(401);
  });
});

describe('POST /api/digests refuses bad input with a message and stores nothing', () => {
  const cases: [string, object, string][] = [
    ['2 sources', { sources: sources(2) }, DIGEST_MESSAGES.minSources],
    ['no sources', { sources: [] }, DIGEST_MESSAGES.minSources],
    ['21 sources', { sources: sources(21) }, DIGEST_MESSAGES.maxSources],
    ['a time without a leading zero', { time: '7:00' }, DIGEST_MESSAGES.time],
    ['time 24:00', { time: '24:00' }, DIGEST_MESSAGES.time],
    ['time 12:60', { time: '12:60' }, DIGEST_MESSAGES.time],
    ['a 12-hour time', { time: '07:00 AM' }, DIGEST_MESSAGES.time],
    ['weekDay 7', { weekDay: 7 }, DIGEST_MESSAGES.weekDay],
    ['weekDay -1', { weekDay: -1 }, DIGEST_MESSAGES.weekDay],
    ['weekDay 1.5', { weekDay: 1.5 }, DIGEST_MESSAGES.weekDay],
    ['monthDay 0', { monthDay: 0 }, DIGEST_MESSAGES.monthDay],
    ['monthDay 32', { monthDay: 32 }, DIGEST_MESSAGES.monthDay],
    ['scheduleType hourly', { scheduleType: 'hourly' }, DIGEST_MESSAGES.scheduleType],
    ['issues kept 2 months', { issueRetentionMonths: 2 }, DIGEST_MESSAGES.issueRetention],
    ['issues kept forever (0)', { issueRetentionMonths: 0 }, DIGEST_MESSAGES.issueRetention],
    ['issues kept 36 months', { issueRetentionMonths: 36 }, DIGEST_MESSAGES.issueRetention],
    ['issues kept "12"', { issueRetentionMonths: '12' }, DIGEST_MESSAGES.issueRetention],
    ['issues kept null', { issueRetentionMonths: null }, DIGEST_MESSAGES.issueRetention],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, DIGEST_MESSAGES.name],
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['an unknown source type', { sources: [HN, DATE, { type: 'MYSPACE' }] }, 'Source type must be one of'],
    ['an unknown source field', { sources: [HN, DATE, { ...RSS, colour: 'red' }] }, 'colour'],
    [
      'Hacker News with 11 posts',
      { sources: [HN, DATE, { type: 'HACKER_NEWS', numberOfPosts: 11 }] },
      'Number of posts must be at most 10',
    ],
    [
      'Product Hunt with 11 posts',
      { sources: [HN, DATE, { type: 'PRODUCT_HUNT', numberOfPosts: 11 }] },
      'Number of posts must be at most 10',
    ],
    [
      'Reddit with 11 posts',
      { sources: [HN, DATE, { type: 'REDDIT', sourceName: 'news', numberOfPosts: 11 }] },
      'at most 10',
    ],
    [
      'YouTube with 11 posts',
      { sources: [HN, DATE, { type: 'YOUTUBE', channelId: 'UCabc', numberOfPosts: 11 }] },
      'at most 10',
    ],
    ['RSS with 51 posts', { sources: [HN, DATE, { ...RSS, numberOfPosts: 51 }] }, 'at most 50'],
    ['a negative count', { sources: [HN, DATE, { ...RSS, numberOfPosts: -1 }] }, 'at least 0'],
    [
      'tweets with 51',
      { sources: [HN, DATE, { type: 'TWITTER_TWEETS', tokenId: 't', limit: 51 }] },
      'Number of tweets must be at most 50',
    ],
    [
      'Twitter search with 21',
      { sources: [HN, DATE, { type: 'TWITTER_SEARCH', tokenId: 't', search: 'typescript', limit: 21 }] },
      'Number of tweets must be at most 20',
    ],
    [
      'an RSS feed that is not http(s)',
      { sources: [HN, DATE, { ...RSS, feedLink: 'file:///etc/passwd' }] },
      'http',
    ],
    ['a layout of 3 columns', { sources: [HN, DATE, { ...RSS, layout: 3 }] }, 'Layout must be 1'],
    [
      'newsletters: 21 of them',
      { sources: [HN, DATE, { type: 'NEWSLETTERS', count: 21 }] },
      'Number of newsletters must be at most 20',
    ],
    [
      'newsletters: none of them',
      { sources: [HN, DATE, { type: 'NEWSLETTERS', count: 0 }] },
      'Number of newsletters must be at least 1',
    ],
    [
      'newsletters: no sender chosen',
      { sources: [HN, DATE, { type: 'NEWSLETTERS', senders: [] }] },
      'Choose at least one sender, or all senders',
    ],
    [
      'newsletters: a sender that is not an id',
      { sources: [HN, DATE, { type: 'NEWSLETTERS', senders: ['news@example.com'] }] },
      'Each chosen sender must be a sender id',
    ],
    [
      'newsletters: another layout',
      { sources: [HN, DATE, { type: 'NEWSLETTERS', layout: 'magazine' }] },
      "Layout must be 'full' (whole issue) or 'summary'",
    ],
    [
      'a bad friend e-mail',
      { subscribers: ['friend@example.com', 'not-an-email'] },
      'not-an-email should be a valid email!',
    ],
  ];

  it.each(cases)('%s → 400', async (_label, body, message) => {
    const user = await signUp(t);
    const response = await api(user, 'POST', '/api/digests', { sources: THREE_SOURCES, ...body });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
    expect(response.json().message).toContain(message);
    expect(await rowsOf(user.userId)).toEqual([]);
  });

  it('refuses a body that is not JSON', async () => {
    const user = await signUp(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/digests',
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: '{"sources": [',
    });
    expect(response.statusCode).toBe(400);
    expect(await rowsOf(user.userId)).toEqual([]);
  });
});

describe('at most 100 digests per user (creation refused when the user already has more than 99)', () => {
  it('creates the 100th, refuses the 101st (create and duplicate) with 422, stores nothing more', async () => {
    const user = await signUp(t);
    const now = new Date();
    await t.database.db.insert(digests).values(
      Array.from({ length: MAX_DIGESTS - 1 }, (_, index) => ({
        userId: user.userId,
        name: `Digest ${index}`,
        sources: [],
        createdAt: now,
        updatedAt: now,
      })),
    );
    const hundredth = await createDigest(t.app, user);
    expect(await rowsOf(user.userId)).toHaveLength(100);

    const refused = await api(user, 'POST', '/api/digests', { sources: THREE_SOURCES });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ code: 'TOO_MANY_DIGESTS', message: DIGEST_MESSAGES.maxDigests });
    const duplicate = await api(user, 'POST', `/api/digests/duplicate/${hundredth.digestId}`);
    expect(duplicate.statusCode).toBe(422);
    expect(await rowsOf(user.userId)).toHaveLength(100);
  });

  it('holds when creations arrive together', async () => {
    const user = await signUp(t);
    const now = new Date();
    await t.database.db.insert(digests).values(
      Array.from({ length: MAX_DIGESTS - 2 }, () => ({
        userId: user.userId,
        name: 'd',
        sources: [],
        createdAt: now,
        updatedAt: now,
      })),
    );
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => api(user, 'POST', '/api/digests', { sources: THREE_SOURCES })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 422, 422, 422]);
    expect(await rowsOf(user.userId)).toHaveLength(100);
  });
});

describe('GET /api/digests lists the user’s digests', () => {
  it('answers { digests } newest first, each with its source kinds and subscriber count and no build history', async () => {
    const user = await signUp(t);
    const first = await createDigest(t.app, user, { name: 'First' });
    const second = await createDigest(t.app, user, {
      name: 'Second',
      subscribers: ['Friend@Example.com', 'other@example.com'],
    });
    await api(user, 'PUT', `/api/digests/${second.digestId}/subscribers`, {
      subscribers: ['friend@example.com'],
    });
    const response = await api(user, 'GET', '/api/digests');
    expect(response.statusCode).toBe(200);
    const list = digestListResponseSchema.parse(response.json()).digests;
    expect(list.map((digest) => digest.digestId)).toEqual([second.digestId, first.digestId]);
    expect(list[0]).toMatchObject({
      name: 'Second',
      sourceTypes: THREE_SOURCES.map((source) => source.type),
      subscriberCount: 1,
      latestBuildNumber: null,
    });
    expect(list[1]?.subscriberCount).toBe(0);
  });

  it('answers only what a card shows: no sources’ settings, addresses or build history (the digest has them)', async () => {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user, { subscribers: ['friend@example.com'] });
    const [summary] = (await api(user, 'GET', '/api/digests')).json().digests;
    for (const field of ['sources', 'subscribers', 'builds', 'lastRun'])
      expect(summary).not.toHaveProperty(field);
    const opened = digestResponseSchema.parse(
      (await api(user, 'GET', `/api/digests/${digest.digestId}`)).json(),
    );
    expect(opened.digest.subscribers).toEqual(['friend@example.com']);
    expect(opened.digest.sources.map((source) => source.type)).toEqual(summary.sourceTypes);
  });

  it('answers an empty list for a new user and never another user’s digests', async () => {
    const owner = await signUp(t);
    await createDigest(t.app, owner);
    const other = await signUp(t);
    expect((await api(other, 'GET', '/api/digests')).json()).toEqual({ digests: [] });
  });

  it('answers 401 without a session', async () => {
    expect((await api(null, 'GET', '/api/digests')).statusCode).toBe(401);
  });
});

describe('GET /api/digests/:id answers one digest with its issues', () => {
  it('lists the issues oldest first with a link to their HTML, and the latest number', async () => {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user);
    await t.database.db.insert(digestBuilds).values([
      { digestId: digest.digestId, buildNumber: 2, html: '<p>2</p>', text: '2' },
      { digestId: digest.digestId, buildNumber: 1, html: '<p>1</p>', text: '1' },
    ]);
    const response = await api(user, 'GET', `/api/digests/${digest.digestId}`);
    expect(response.statusCode).toBe(200);
    const body = digestResponseSchema.parse(response.json());
    expect(body.digest.builds.map((build) => build.buildNumber)).toEqual([1, 2]);
    // The owner's signed link to the full issue (the public page is by share token, once turned on).
    expect(body.digest.builds[1]?.htmlLink).toMatch(
      new RegExp(`^/api/digests/${digest.digestId}/issues/2/html\\?expires=\\d+&signature=[\\w-]+$`),
    );
    expect(body.digest.latestBuildNumber).toBe(2);
    const list = (await api(user, 'GET', '/api/digests')).json().digests;
    expect(list[0].latestBuildNumber).toBe(2);
  });

  it('answers 404 for an unknown id, a malformed id and another user’s digest (issues included)', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner);
    await t.database.db
      .insert(digestBuilds)
      .values({ digestId: digest.digestId, buildNumber: 1, html: '<p>secret</p>', text: 'secret' });
    const other = await signUp(t);
    for (const url of [
      `/api/digests/${randomUUID()}`,
      '/api/digests/not-a-uuid',
      `/api/digests/${digest.digestId}`,
    ]) {
      const response = await api(other, 'GET', url);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 'DIGEST_NOT_FOUND', message: 'No such Digest.' });
    }
  });
});

describe('PATCH /api/digests/:id changes a digest', () => {
  it('pauses with { active: false } and resumes with { active: true }, changing nothing else', async () => {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user, { name: 'Mine' });
    const paused = await api(user, 'PATCH', `/api/digests/${digest.digestId}`, { active: false });
    expect(paused.statusCode).toBe(200);
    expect(paused.json().digest).toMatchObject({ active: false, name: 'Mine', sources: digest.sources });
    expect((await rowOf(digest.digestId))?.active).toBe(false);
    const resumed = await api(user, 'PATCH', `/api/digests/${digest.digestId}`, { active: true });
    expect(resumed.json().digest.active).toBe(true);
  });

  it('changes the schedule, name and sources; an emptied name takes the default', async () => {
    const user = await signUp(t);
    await setFullName(user, 'Grace Hopper');
    const digest = await createDigest(t.app, user, { name: 'Mine' });
    const response = await api(user, 'PATCH', `/api/digests/${digest.digestId}`, {
      scheduleType: 'weekly',
      time: '18:30',
      weekDay: 5,
      sources: [DATE, DATE, DATE, HN],
    });
    expect(response.json().digest).toMatchObject({
      scheduleType: 'weekly',
      time: '18:30',
      weekDay: 5,
      name: 'Mine',
    });
    expect(response.json().digest.sources).toHaveLength(4);
    const renamed = await api(user, 'PATCH', `/api/digests/${digest.digestId}`, { name: '' });
    expect(renamed.json().digest.name).toBe("Grace Hopper's Digest");
    const row = await rowOf(digest.digestId);
    expect(row?.updatedAt.getTime()).toBeGreaterThanOrEqual(row?.createdAt.getTime() ?? 0);
  });

  const bad: [string, object, string][] = [
    ['nothing to change', {}, DIGEST_MESSAGES.nothingToChange],
    ['weekDay 7', { weekDay: 7 }, DIGEST_MESSAGES.weekDay],
    ['monthDay 0', { monthDay: 0 }, DIGEST_MESSAGES.monthDay],
    ['time 7pm', { time: '7pm' }, DIGEST_MESSAGES.time],
    ['2 sources', { sources: sources(2) }, DIGEST_MESSAGES.minSources],
    ['21 sources', { sources: sources(21) }, DIGEST_MESSAGES.maxSources],
    ['active as text', { active: 'no' }, 'active'],
    ['an unknown field', { owner: 'me' }, 'owner'],
  ];
  it.each(bad)('refuses %s with 400 and changes nothing', async (_label, body, message) => {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user);
    const before = await rowOf(digest.digestId);
    const response = await api(user, 'PATCH', `/api/digests/${digest.digestId}`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(await rowOf(digest.digestId)).toEqual(before);
  });

  it('answers 404 for another user’s digest and changes nothing', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, { subscribers: ['a@example.com'] });
    const before = await rowOf(digest.digestId);
    const other = await signUp(t);
    for (const body of [{ active: false }, { name: 'Stolen' }, { subscribers: ['thief@example.com'] }]) {
      const response = await api(other, 'PATCH', `/api/digests/${digest.digestId}`, body);
      expect(response.statusCode).toBe(404);
    }
    expect(await rowOf(digest.digestId)).toEqual(before);
    const emails = await t.database.db
      .select({ email: digestSubscribers.email })
      .from(digestSubscribers)
      .where(eq(digestSubscribers.digestId, digest.digestId));
    expect(emails).toEqual([{ email: 'a@example.com' }]);
  });
});

describe('issue retention: how long a digest keeps its issues (docs/product.md §3)', () => {
  it('keeps a year unless told otherwise, takes 1, 3, 6, 12 or 24 months at creation and by PATCH', async () => {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user, { issueRetentionMonths: 3 });
    expect(digest.issueRetentionMonths).toBe(3);
    expect((await rowOf(digest.digestId))?.issueRetentionMonths).toBe(3);
    for (const months of [1, 6, 12, 24, 3]) {
      const response = await api(user, 'PATCH', `/api/digests/${digest.digestId}`, {
        issueRetentionMonths: months,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().digest.issueRetentionMonths).toBe(months);
      expect((await rowOf(digest.digestId))?.issueRetentionMonths).toBe(months);
    }
    const listed = (await api(user, 'GET', '/api/digests')).json().digests;
    expect(listed[0].issueRetentionMonths).toBe(3);
  });

  it('refuses any other retention by PATCH with the message and changes nothing', async () => {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user);
    const before = await rowOf(digest.digestId);
    for (const months of [0, 2, 12.5, 36, -1, '6', null]) {
      const response = await api(user, 'PATCH', `/api/digests/${digest.digestId}`, {
        issueRetentionMonths: months,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(DIGEST_MESSAGES.issueRetention);
    }
    expect(await rowOf(digest.digestId)).toEqual(before);
  });

  it('answers 404 to another user and 401 without a session, changing nothing', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner);
    const before = await rowOf(digest.digestId);
    const other = await signUp(t);
    const body = { issueRetentionMonths: 1 };
    expect((await api(other, 'PATCH', `/api/digests/${digest.digestId}`, body)).statusCode).toBe(404);
    expect((await api(null, 'PATCH', `/api/digests/${digest.digestId}`, body)).statusCode).toBe(401);
    expect(await rowOf(digest.digestId)).toEqual(before);
  });

  it('is copied by duplicate', async () => {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user, { issueRetentionMonths: 24 });
    const response = await api(user, 'POST', `/api/digests/duplicate/${digest.digestId}`);
    expect(response.json().digest.issueRetentionMonths).toBe(24);
  });
});

describe('DELETE /api/digests/:id', () => {
  it('deletes the digest with its subscribers and issues', async () => {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user, { subscribers: ['a@example.com'] });
    await t.database.db
      .insert(digestBuilds)
      .values({ digestId: digest.digestId, buildNumber: 1, html: 'x', text: 'x' });
    const response = await api(user, 'DELETE', `/api/digests/${digest.digestId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Your Digest has been deleted.' });
    expect(await rowOf(digest.digestId)).toBeUndefined();
    expect(
      await t.database.db.select().from(digestBuilds).where(eq(digestBuilds.digestId, digest.digestId)),
    ).toEqual([]);
    expect(
      await t.database.db
        .select()
        .from(digestSubscribers)
        .where(eq(digestSubscribers.digestId, digest.digestId)),
    ).toEqual([]);
    expect((await api(user, 'GET', `/api/digests/${digest.digestId}`)).statusCode).toBe(404);
    expect((await api(user, 'DELETE', `/api/digests/${digest.digestId}`)).statusCode).toBe(404);
  });

  it('answers 404 for another user’s digest and deletes nothing', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner);
    const other = await signUp(t);
    expect((await api(other, 'DELETE', `/api/digests/${digest.digestId}`)).statusCode).toBe(404);
    expect(await rowOf(digest.digestId)).toBeDefined();
  });
});

describe('POST /api/digests/duplicate/:id', () => {
  it('makes a paused copy "{name} (copy)" with the same schedule and sources and no subscribers', async () => {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user, {
      name: 'Weekly news',
      scheduleType: 'weekly',
      weekDay: 3,
      time: '09:15',
      subscribers: ['friend@example.com'],
    });
    const response = await api(user, 'POST', `/api/digests/duplicate/${digest.digestId}`);
    expect(response.statusCode).toBe(201);
    const copy = response.json().digest;
    expect(copy.digestId).not.toBe(digest.digestId);
    expect(copy).toMatchObject({
      name: 'Weekly news (copy)',
      active: false,
      scheduleType: 'weekly',
      weekDay: 3,
      time: '09:15',
      subscribers: [],
      sources: digest.sources,
      builds: [],
    });
    expect(await rowsOf(user.userId)).toHaveLength(2);
  });

  it('keeps the copy’s name within 100 characters', async () => {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user, { name: 'n'.repeat(100) });
    const copy = (await api(user, 'POST', `/api/digests/duplicate/${digest.digestId}`)).json().digest;
    expect(copy.name).toHaveLength(100);
    expect(copy.name.endsWith(' (copy)')).toBe(true);
  });

  it('answers 404 for another user’s digest and creates nothing', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner);
    const other = await signUp(t);
    const response = await api(other, 'POST', `/api/digests/duplicate/${digest.digestId}`);
    expect(response.statusCode).toBe(404);
    expect(await rowsOf(other.userId)).toEqual([]);
    expect(await rowsOf(owner.userId)).toHaveLength(1);
  });
});

describe('OpenAPI', () => {
  it('names every digest call with a tag, a summary and bearer security', async () => {
    const document = (await api(null, 'GET', '/api/openapi.json')).json();
    const expected: [string, string][] = [
      ['/api/digests', 'post'],
      ['/api/digests', 'get'],
      ['/api/digests/{id}', 'get'],
      ['/api/digests/{id}', 'patch'],
      ['/api/digests/{id}', 'delete'],
      ['/api/digests/{id}/visibility', 'put'],
      ['/api/digests/duplicate/{id}', 'post'],
      ['/api/digests/drafts', 'post'],
      ['/api/digests/drafts', 'get'],
      ['/api/digests/drafts/{id}', 'patch'],
      ['/api/digests/drafts/{id}', 'delete'],
      ['/api/digests/web/{category}', 'get'],
      ['/api/digests/{id}/subscribers', 'get'],
      ['/api/digests/{id}/subscribers', 'put'],
      ['/api/digests/{id}/subscribers/{email}', 'delete'],
    ];
    for (const [path, method] of expected) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.tags.length).toBeGreaterThan(0);
      expect(operation.summary).toBeTruthy();
      expect(operation.security).toEqual([{ bearerAuth: [] }]);
    }
    for (const path of [
      '/api/digests/share/{shareToken}',
      '/api/digests/{id}/issues/{buildNumber}/html',
      '/api/subscriptions/{token}',
      '/api/subscriptions/{token}/unsubscribe',
    ]) {
      const operation = Object.values(document.paths[path] ?? {})[0] as {
        security?: unknown;
        summary: string;
      };
      expect(operation?.summary, path).toBeTruthy();
      expect(operation.security).toBeUndefined();
    }
  });
});
