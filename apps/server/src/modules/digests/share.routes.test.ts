import { randomUUID } from 'node:crypto';
import { visibilityResponseSchema } from '@digest/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestBuilds, digests } from '#server/db/schema';
import { signUp, startTestApp, type TestApp, type TestUser } from '#server/modules/users/test-support';
import { call, createDigest } from './test-support';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const CSP = "default-src 'none'; img-src https: data:; style-src 'unsafe-inline'; frame-ancestors 'self'";
const NOT_FOUND = { code: 'BUILD_NOT_FOUND', message: 'No such issue of this Digest.' };

/** The owner's copy says "owner", the public one "public": a test sees which one it was given. */
const issueHtml = (copy: string, buildNumber: number) =>
  `<html><head><title>Issue ${buildNumber}</title></head><body>${copy} copy of issue ${buildNumber}</body></html>`;

async function digestWithIssues(numbers: number[], options: { withoutPublicCopy?: number[] } = {}) {
  const owner = await signUp(t);
  const digest = await createDigest(t.app, owner);
  if (numbers.length > 0) {
    await t.database.db.insert(digestBuilds).values(
      numbers.map((buildNumber) => ({
        digestId: digest.digestId,
        buildNumber,
        html: issueHtml('owner', buildNumber),
        text: `issue ${buildNumber}`,
        publicHtml: options.withoutPublicCopy?.includes(buildNumber)
          ? null
          : issueHtml('public', buildNumber),
      })),
    );
  }
  return { owner, digest };
}

const setVisibility = (user: TestUser | null, digestId: string, visibility: unknown) =>
  call(t.app, user, 'PUT', `/api/digests/${digestId}/visibility`, { visibility });

/** Turns the public link on and answers the share token of its address. */
async function publish(owner: TestUser, digestId: string) {
  const response = await setVisibility(owner, digestId, 'public');
  expect(response.statusCode).toBe(200);
  const { visibility, shareUrl } = visibilityResponseSchema.parse(response.json());
  expect(visibility).toBe('public');
  const prefix = `${new URL(shareUrl ?? '').origin}/digests/share/`;
  expect(shareUrl?.startsWith(prefix)).toBe(true);
  return (shareUrl ?? '').slice(prefix.length);
}

const get = (url: string) => t.app.inject({ method: 'GET', url });
const rowOf = async (digestId: string) =>
  (await t.database.db.select().from(digests).where(eq(digests.digestId, digestId)))[0];

describe('a digest is private until its owner turns the public link on', () => {
  it('a new digest is private: no share URL, and its id-based address answers 404', async () => {
    const { digest } = await digestWithIssues([1]);
    expect(digest.visibility).toBe('private');
    expect(digest.shareUrl).toBeNull();
    for (const url of [`/api/digests/share/${digest.digestId}`, `/api/digests/share/${digest.digestId}/1`]) {
      expect((await get(url)).json()).toEqual(NOT_FOUND);
    }
  });

  it('turning it on makes a random URL-safe token of 256 bits that serves the public copy, latest or numbered', async () => {
    const { owner, digest } = await digestWithIssues([1, 3, 2]);
    const token = await publish(owner, digest.digestId);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token).not.toContain(digest.digestId);

    const latest = await get(`/api/digests/share/${token}`);
    expect(latest.statusCode).toBe(200);
    expect(latest.body).toContain('public copy of issue 3');
    expect(latest.body).not.toContain('owner copy');
    expect(latest.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(latest.headers['x-content-type-options']).toBe('nosniff');
    expect(latest.headers['x-frame-options']).toBe('SAMEORIGIN');
    const numbered = await get(`/api/digests/share/${token}/1`);
    expect(numbered.body).toContain('public copy of issue 1');

    // The digest's id never becomes a way in, public or not.
    expect((await get(`/api/digests/share/${digest.digestId}`)).statusCode).toBe(404);
    const listed = await call(t.app, owner, 'GET', `/api/digests/${digest.digestId}`);
    expect(listed.json().digest).toMatchObject({
      visibility: 'public',
      shareUrl: expect.stringContaining(token),
    });
  });

  it('serves images over https only: the CSP has no img-src http:', async () => {
    const { owner, digest } = await digestWithIssues([1]);
    const token = await publish(owner, digest.digestId);
    const response = await get(`/api/digests/share/${token}/1`);
    expect(response.headers['content-security-policy']).toBe(CSP);
    expect(response.headers['content-security-policy']).not.toMatch(/http:/);
  });

  it('turning it off ends the link; on again makes another token and the old one stays dead', async () => {
    const { owner, digest } = await digestWithIssues([1]);
    const first = await publish(owner, digest.digestId);
    const off = await setVisibility(owner, digest.digestId, 'private');
    expect(off.json()).toEqual({ visibility: 'private', shareUrl: null });
    expect((await rowOf(digest.digestId))?.shareToken).toBeNull();
    expect((await get(`/api/digests/share/${first}`)).json()).toEqual(NOT_FOUND);

    const second = await publish(owner, digest.digestId);
    expect(second).not.toBe(first);
    expect((await get(`/api/digests/share/${first}/1`)).statusCode).toBe(404);
    expect((await get(`/api/digests/share/${second}/1`)).statusCode).toBe(200);
  });

  it('turning it on again while on keeps the link (a double click does not break what was shared)', async () => {
    const { owner, digest } = await digestWithIssues([1]);
    const first = await publish(owner, digest.digestId);
    expect(await publish(owner, digest.digestId)).toBe(first);
  });

  it('a private digest, a token turned off, an unknown token and an id answer the very same 404', async () => {
    const { owner, digest } = await digestWithIssues([1]);
    const turnedOff = await publish(owner, digest.digestId);
    await setVisibility(owner, digest.digestId, 'private');
    const answers = [];
    for (const url of [
      `/api/digests/share/${turnedOff}`,
      `/api/digests/share/${'A'.repeat(43)}`,
      `/api/digests/share/${digest.digestId}`,
      `/api/digests/share/${randomUUID()}`,
      '/api/digests/share/not-a-token',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      answers.push({ body: response.body, type: response.headers['content-type'] });
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(JSON.parse(answers[0]?.body ?? '')).toEqual(NOT_FOUND);
  });

  it('answers 404 for a missing or malformed issue number and a public digest without issues', async () => {
    const { owner, digest } = await digestWithIssues([1]);
    const token = await publish(owner, digest.digestId);
    const { owner: other, digest: empty } = await digestWithIssues([]);
    const emptyToken = await publish(other, empty.digestId);
    for (const url of [
      `/api/digests/share/${token}/2`,
      `/api/digests/share/${token}/one`,
      `/api/digests/share/${token}/-1`,
      `/api/digests/share/${emptyToken}`,
    ]) {
      expect((await get(url)).json(), url).toEqual(NOT_FOUND);
    }
  });

  it('never serves an issue stored without a public copy (built before copies existed)', async () => {
    const { owner, digest } = await digestWithIssues([1, 2, 3], { withoutPublicCopy: [2, 3] });
    const token = await publish(owner, digest.digestId);
    expect((await get(`/api/digests/share/${token}`)).body).toContain('public copy of issue 1');
    expect((await get(`/api/digests/share/${token}/3`)).statusCode).toBe(404);
    expect((await get(`/api/digests/share/${token}/2`)).statusCode).toBe(404);
  });

  it('serves a paused public digest’s issues: pausing stops new issues, it does not unpublish', async () => {
    const { owner, digest } = await digestWithIssues([1]);
    const token = await publish(owner, digest.digestId);
    await call(t.app, owner, 'PATCH', `/api/digests/${digest.digestId}`, { active: false });
    expect((await get(`/api/digests/share/${token}`)).statusCode).toBe(200);
  });

  it('no longer serves a deleted digest', async () => {
    const { owner, digest } = await digestWithIssues([1]);
    const token = await publish(owner, digest.digestId);
    await call(t.app, owner, 'DELETE', `/api/digests/${digest.digestId}`);
    expect((await get(`/api/digests/share/${token}/1`)).statusCode).toBe(404);
  });
});

describe('PUT /api/digests/:id/visibility is the owner’s alone', () => {
  it('answers 404 to another user and 401 without a session, and changes nothing', async () => {
    const { digest } = await digestWithIssues([1]);
    const before = await rowOf(digest.digestId);
    const other = await signUp(t);
    for (const visibility of ['public', 'private']) {
      const stolen = await setVisibility(other, digest.digestId, visibility);
      expect(stolen.statusCode).toBe(404);
      expect(stolen.json().code).toBe('DIGEST_NOT_FOUND');
      expect((await setVisibility(null, digest.digestId, visibility)).statusCode).toBe(401);
    }
    for (const id of [randomUUID(), 'not-an-id']) {
      expect((await setVisibility(other, id, 'public')).statusCode).toBe(404);
    }
    expect(await rowOf(digest.digestId)).toEqual(before);
  });

  it('refuses a bad body with 400 naming the field, and changes nothing', async () => {
    const { owner, digest } = await digestWithIssues([1]);
    const before = await rowOf(digest.digestId);
    for (const body of [
      { visibility: 'everyone' },
      { visibility: true },
      {},
      { visibility: 'public', x: 1 },
    ]) {
      const response = await call(t.app, owner, 'PUT', `/api/digests/${digest.digestId}/visibility`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const named = await setVisibility(owner, digest.digestId, 'everyone');
    expect(named.json().message).toContain("body.visibility: Visibility must be 'private' or 'public'");
    expect(await rowOf(digest.digestId)).toEqual(before);
  });
});

describe("the owner's signed issue link (builds[].htmlLink) serves the full issue, to nobody else", () => {
  it('serves the owner copy without a session (the frame sends none), even while the digest is private', async () => {
    const { owner, digest } = await digestWithIssues([1, 2]);
    const { builds } = (await call(t.app, owner, 'GET', `/api/digests/${digest.digestId}`)).json().digest;
    const response = await get(builds[1].htmlLink);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('owner copy of issue 2');
    expect(response.headers['content-security-policy']).toBe(CSP);
    expect(response.headers['cache-control']).toBe('private, max-age=60');
  });

  it('answers 404 to a link changed to another issue or digest, a forged or missing signature', async () => {
    const { owner, digest } = await digestWithIssues([1, 2]);
    const { digest: other } = await digestWithIssues([1]);
    const link: string = (await call(t.app, owner, 'GET', `/api/digests/${digest.digestId}`)).json().digest
      .builds[0].htmlLink;
    const url = new URL(link, 'http://app.test');
    const expires = url.searchParams.get('expires') ?? '';
    const signature = url.searchParams.get('signature') ?? '';
    for (const forged of [
      link.replace('/issues/1/', '/issues/2/'),
      link.replace(digest.digestId, other.digestId),
      link.replace(`expires=${expires}`, `expires=${Number(expires) + 3600}`),
      link.replace(signature, `${signature.slice(0, -2)}AA`),
      link.replace(`&signature=${signature}`, ''),
      `/api/digests/${digest.digestId}/issues/1/html`,
    ]) {
      const response = await get(forged);
      expect(response.statusCode, forged).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }
  });
});
