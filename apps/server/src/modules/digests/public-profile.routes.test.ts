import { publicProfileResponseSchema } from '@digest/contracts';
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

describe('GET /api/users/by-username/:username (public profile, no login)', () => {
  it('answers the photo, name, bio and the public, running digests by share token, never the e-mail, an id or settings', async () => {
    const user = await signUp(t);
    const username = `Reader${Math.random().toString(36).slice(2, 8)}`;
    await call(t.app, user, 'PATCH', '/api/users/me', { fullName: 'Ada Lovelace', username, bio: 'Notes.' });
    const first = await createDigest(t.app, user, { name: 'First', subscribers: ['friend@example.com'] });
    const second = await createDigest(t.app, user, { name: 'Second' });
    const secret = await createDigest(t.app, user, { name: 'Revenue and meetings' });
    const paused = await createDigest(t.app, user, { name: 'Paused one' });
    await call(t.app, user, 'PATCH', `/api/digests/${paused.digestId}`, { active: false });
    const tokens: Record<string, string> = {};
    for (const digest of [first, second, paused]) {
      const answer = await call(t.app, user, 'PUT', `/api/digests/${digest.digestId}/visibility`, {
        visibility: 'public',
      });
      tokens[digest.name] = answer.json().shareUrl.split('/').pop();
    }
    await t.database.db.insert(digestBuilds).values([
      { digestId: first.digestId, buildNumber: 4, html: 'x', text: 'x', publicHtml: 'x' },
      // Built before public copies existed: never public, so not the latest the profile links.
      { digestId: first.digestId, buildNumber: 5, html: 'x', text: 'x' },
    ]);

    const response = await call(t.app, null, 'GET', `/api/users/by-username/${username.toLowerCase()}`);
    expect(response.statusCode).toBe(200);
    expect(publicProfileResponseSchema.parse(response.json())).toEqual({
      user: { fullName: 'Ada Lovelace', username, bio: 'Notes.', profileImg: null },
      digests: [
        { shareToken: tokens.Second, name: 'Second', latestBuildNumber: null },
        { shareToken: tokens.First, name: 'First', latestBuildNumber: 4 },
      ],
    });
    expect(response.body).not.toContain(user.email);
    expect(response.body).not.toContain('friend@example.com');
    expect(response.body).not.toContain('sources');
    for (const digest of [first, second, secret, paused])
      expect(response.body).not.toContain(digest.digestId);
    expect(response.body).not.toContain('Revenue and meetings');
    expect(response.body).not.toContain('Paused one');
  });

  it('lists no digest of a user whose digests are all private', async () => {
    const user = await signUp(t);
    const username = `Quiet${Math.random().toString(36).slice(2, 8)}`;
    await call(t.app, user, 'PATCH', '/api/users/me', { username });
    await createDigest(t.app, user, { name: 'Mine' });
    const response = await call(t.app, null, 'GET', `/api/users/by-username/${username}`);
    expect(response.json().digests).toEqual([]);
  });

  it('answers 404 for an unknown or malformed username', async () => {
    for (const name of ['nobodyhere123', 'not a name', '%00']) {
      const response = await call(t.app, null, 'GET', `/api/users/by-username/${encodeURIComponent(name)}`);
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('PROFILE_NOT_FOUND');
    }
  });
});
