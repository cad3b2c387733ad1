import { randomUUID } from 'node:crypto';
import { DIGEST_MESSAGES, draftResponseSchema, MAX_DRAFTS } from '@digest/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestDrafts } from '#server/db/schema';
import { signUp, startTestApp, type TestApp, type TestUser } from '#server/modules/users/test-support';
import { callerOf, DATE, HN, RSS, sources } from './test-support';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const api = callerOf(() => t.app);

const draftsOf = (userId: string) =>
  t.database.db.select().from(digestDrafts).where(eq(digestDrafts.userId, userId));

async function createDraft(user: TestUser, body: object) {
  const response = await api(user, 'POST', '/api/digests/drafts', body);
  expect(response.statusCode).toBe(201);
  return draftResponseSchema.parse(response.json()).digest;
}

describe('POST /api/digests/drafts saves a draft', () => {
  it('answers 201 { digest } with digestId; a draft may have one source (the first one added)', async () => {
    const user = await signUp(t);
    const draft = await createDraft(user, { sources: [{ ...HN, icon: 'hn.svg' }] });
    expect(draft).toMatchObject({ name: '', sources: [{ type: 'HACKER_NEWS', numberOfPosts: 6 }] });
    expect(JSON.stringify(draft.sources)).not.toContain('icon');
    const [row] = await draftsOf(user.userId);
    expect(row?.draftId).toBe(draft.digestId);
  });

  it('accepts no sources and up to 20', async () => {
    const user = await signUp(t);
    expect((await createDraft(user, {})).sources).toEqual([]);
    expect((await createDraft(user, { name: 'Big', sources: sources(20) })).sources).toHaveLength(20);
  });

  const bad: [string, object, string][] = [
    ['21 sources', { sources: sources(21) }, DIGEST_MESSAGES.maxDraftSources],
    ['an unknown source type', { sources: [{ type: 'FAX' }] }, 'Source type must be one of'],
    ['an unknown source field', { sources: [{ ...DATE, extra: 1 }] }, 'extra'],
    ['a schedule (drafts have none)', { time: '07:00' }, 'time'],
    ['an out-of-range count', { sources: [{ ...RSS, numberOfPosts: 51 }] }, 'at most 50'],
  ];
  it.each(bad)('refuses %s with 400 and stores nothing', async (_label, body, message) => {
    const user = await signUp(t);
    const response = await api(user, 'POST', '/api/digests/drafts', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(await draftsOf(user.userId)).toEqual([]);
  });

  it(`keeps at most ${MAX_DRAFTS} drafts per user`, async () => {
    const user = await signUp(t);
    await t.database.db
      .insert(digestDrafts)
      .values(Array.from({ length: MAX_DRAFTS }, () => ({ userId: user.userId, sources: [] })));
    const response = await api(user, 'POST', '/api/digests/drafts', {});
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ code: 'TOO_MANY_DRAFTS', message: DIGEST_MESSAGES.maxDrafts });
  });
});

describe('GET /api/digests/drafts (not captured by /digests/:id)', () => {
  it('answers { digests } with the user’s drafts only, most recently changed first', async () => {
    const user = await signUp(t);
    const older = await createDraft(user, { name: 'Older' });
    const newer = await createDraft(user, { name: 'Newer' });
    const other = await signUp(t);
    await createDraft(other, { name: 'Not yours' });
    const response = await api(user, 'GET', '/api/digests/drafts');
    expect(response.statusCode).toBe(200);
    expect(response.json().digests.map((draft: { digestId: string }) => draft.digestId)).toEqual([
      newer.digestId,
      older.digestId,
    ]);
    await api(user, 'PATCH', `/api/digests/drafts/${older.digestId}`, { name: 'Touched' });
    expect((await api(user, 'GET', '/api/digests/drafts')).json().digests[0].name).toBe('Touched');
  });

  it('answers 401 without a session', async () => {
    expect((await api(null, 'GET', '/api/digests/drafts')).statusCode).toBe(401);
  });
});

describe('PATCH /api/digests/drafts/:id', () => {
  it('changes the name and the sources', async () => {
    const user = await signUp(t);
    const draft = await createDraft(user, { sources: [HN] });
    const response = await api(user, 'PATCH', `/api/digests/drafts/${draft.digestId}`, {
      name: 'Later',
      sources: [HN, { type: 'DATE', name: '   ' }],
    });
    expect(response.statusCode).toBe(200);
    const updated = response.json().digest;
    expect(updated).toMatchObject({ digestId: draft.digestId, name: 'Later' });
    expect(updated.sources[1]).toEqual({ type: 'DATE', name: '', showHeading: true });
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const user = await signUp(t);
    const draft = await createDraft(user, { name: 'Keep', sources: [HN] });
    for (const body of [{}, { sources: sources(21) }, { sources: [{ type: 'NOPE' }] }, { active: true }]) {
      expect((await api(user, 'PATCH', `/api/digests/drafts/${draft.digestId}`, body)).statusCode).toBe(400);
    }
    const [row] = await draftsOf(user.userId);
    expect(row?.name).toBe('Keep');
    expect(row?.sources).toHaveLength(1);
  });

  it('answers 404 for another user’s draft, an unknown and a malformed id, changing nothing', async () => {
    const owner = await signUp(t);
    const draft = await createDraft(owner, { name: 'Mine' });
    const other = await signUp(t);
    for (const id of [draft.digestId, randomUUID(), 'drafts']) {
      const response = await api(other, 'PATCH', `/api/digests/drafts/${id}`, { name: 'Stolen' });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('DRAFT_NOT_FOUND');
    }
    expect((await draftsOf(owner.userId))[0]?.name).toBe('Mine');
  });
});

describe('DELETE /api/digests/drafts/:id', () => {
  it('deletes the draft', async () => {
    const user = await signUp(t);
    const draft = await createDraft(user, {});
    const response = await api(user, 'DELETE', `/api/digests/drafts/${draft.digestId}`);
    expect(response.statusCode).toBe(200);
    expect(await draftsOf(user.userId)).toEqual([]);
    expect((await api(user, 'DELETE', `/api/digests/drafts/${draft.digestId}`)).statusCode).toBe(404);
  });

  it('answers 404 for another user’s draft and deletes nothing', async () => {
    const owner = await signUp(t);
    const draft = await createDraft(owner, {});
    const other = await signUp(t);
    expect((await api(other, 'DELETE', `/api/digests/drafts/${draft.digestId}`)).statusCode).toBe(404);
    expect(await draftsOf(owner.userId)).toHaveLength(1);
  });

  it('is not the digest delete: a draft id is no digest', async () => {
    const user = await signUp(t);
    const draft = await createDraft(user, {});
    expect((await api(user, 'DELETE', `/api/digests/${draft.digestId}`)).statusCode).toBe(404);
    expect(await draftsOf(user.userId)).toHaveLength(1);
  });
});
