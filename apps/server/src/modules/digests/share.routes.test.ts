import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestBuilds } from '#server/db/schema';
import { signUp, startTestApp, type TestApp } from '#server/modules/users/test-support';
import { call, createDigest } from './test-support';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const CSP =
  "default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'; frame-ancestors 'self'";

async function digestWithIssues(numbers: number[]) {
  const owner = await signUp(t);
  const digest = await createDigest(t.app, owner);
  if (numbers.length > 0) {
    await t.database.db.insert(digestBuilds).values(
      numbers.map((buildNumber) => ({
        digestId: digest.digestId,
        buildNumber,
        html: `<html><head><title>Issue ${buildNumber}</title></head><body>issue ${buildNumber}</body></html>`,
        text: `issue ${buildNumber}`,
      })),
    );
  }
  return { owner, digest };
}

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('GET /api/digests/share/:digestId[/:buildNumber] serves an issue’s HTML without login', () => {
  it('answers the latest issue when no number is given, as text/html with a CSP that forbids scripts', async () => {
    const { digest } = await digestWithIssues([1, 3, 2]);
    const response = await get(`/api/digests/share/${digest.digestId}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Issue 3</title>');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe(CSP);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('answers the issue with the given number', async () => {
    const { digest } = await digestWithIssues([1, 2]);
    const response = await get(`/api/digests/share/${digest.digestId}/1`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('issue 1');
    expect(response.headers['content-security-policy']).toBe(CSP);
  });

  it('serves a paused digest’s issues too: pausing stops new issues, it does not unpublish', async () => {
    const { owner, digest } = await digestWithIssues([1]);
    await call(t.app, owner, 'PATCH', `/api/digests/${digest.digestId}`, { active: false });
    expect((await get(`/api/digests/share/${digest.digestId}`)).statusCode).toBe(200);
  });

  it('answers 404 { message, code } for an unknown digest, build, a digest without issues or a malformed id', async () => {
    const { digest } = await digestWithIssues([1]);
    const { digest: empty } = await digestWithIssues([]);
    for (const url of [
      `/api/digests/share/${randomUUID()}`,
      `/api/digests/share/${digest.digestId}/2`,
      `/api/digests/share/${digest.digestId}/one`,
      `/api/digests/share/${digest.digestId}/-1`,
      `/api/digests/share/${empty.digestId}`,
      '/api/digests/share/not-a-uuid',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ code: 'BUILD_NOT_FOUND', message: 'No such issue of this Digest.' });
    }
  });

  it('no longer serves a deleted digest', async () => {
    const { owner, digest } = await digestWithIssues([1]);
    await call(t.app, owner, 'DELETE', `/api/digests/${digest.digestId}`);
    expect((await get(`/api/digests/share/${digest.digestId}/1`)).statusCode).toBe(404);
  });

  it('gives another signed-in user the same public HTML but nothing else of the digest', async () => {
    const { digest } = await digestWithIssues([1]);
    const other = await signUp(t);
    expect((await call(t.app, other, 'GET', `/api/digests/share/${digest.digestId}/1`)).statusCode).toBe(200);
    expect((await call(t.app, other, 'GET', `/api/digests/${digest.digestId}`)).statusCode).toBe(404);
  });
});
