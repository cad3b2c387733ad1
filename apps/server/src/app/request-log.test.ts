import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDigest } from '#server/modules/digests/test-support';
import { subscriberRow } from '#server/modules/subscribers/test-support';
import { signUp } from '#server/modules/users/test-support';
import { randomToken } from '#server/platform/crypto';
import { createLogger } from '#server/platform/logger';
import { startTestApi, type TestApi } from '#server-test/test-api';

let t: TestApi;
const logLines: string[] = [];

beforeAll(async () => {
  // A built web app, so the SPA's own paths (/unsubscribe/…, /digests/share/…) are answered and logged too.
  const webDistDir = await mkdtemp(path.join(os.tmpdir(), 'digest-web-'));
  await writeFile(
    path.join(webDistDir, 'index.html'),
    '<!doctype html><title>Digest</title><div id="root"></div>',
  );
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  t = await startTestApi({ logger: createLogger({ level: 'info', pretty: false, destination }), webDistDir });
});
afterAll(() => t?.close());

describe('tokens never reach the request log', () => {
  it('logs each secret-bearing route with its token replaced, and the route still readable', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, { subscribers: ['friend@example.com'] });
    const { token: unsubscribeToken } = await subscriberRow(
      t.database.db,
      digest.digestId,
      'friend@example.com',
    );
    const secrets = {
      unsubscribe: unsubscribeToken,
      share: digest.digestId,
      recovery: randomToken(),
      ticket: randomToken(),
      code: randomToken(),
      state: randomToken(),
      invitation: randomToken(),
      verification: randomToken(),
      other: randomToken(),
    };
    const requests: { method: 'GET' | 'POST'; url: string }[] = [
      // Today's routes.
      { method: 'GET', url: `/api/subscriptions/${secrets.unsubscribe}` },
      { method: 'POST', url: `/api/subscriptions/${secrets.unsubscribe}/unsubscribe` },
      { method: 'GET', url: `/unsubscribe/${secrets.unsubscribe}` },
      { method: 'GET', url: `/api/digests/share/${secrets.share}` },
      { method: 'GET', url: `/api/digests/share/${secrets.share}/1` },
      { method: 'GET', url: `/digests/share/${secrets.share}` },
      { method: 'GET', url: `/digests/share/${secrets.share}/1` },
      { method: 'GET', url: `/reset-password?recoveryToken=${secrets.recovery}` },
      { method: 'GET', url: `/auth/google/callback?ticket=${secrets.ticket}&mode=signin` },
      { method: 'GET', url: `/api/auth/google/callback?code=${secrets.code}&state=${secrets.state}` },
      { method: 'GET', url: `/api/auth/google/tokens/callback?code=${secrets.code}&state=${secrets.state}` },
      // The shapes of routes still to come (invitations, address verification) and an unknown one.
      { method: 'GET', url: `/api/invitations/${secrets.invitation}` },
      { method: 'POST', url: `/api/invitations/${secrets.invitation}/accept` },
      { method: 'GET', url: `/invitations/${secrets.invitation}` },
      { method: 'GET', url: `/verify-email/${secrets.verification}` },
      { method: 'POST', url: `/api/auth/verify-email/${secrets.verification}` },
      { method: 'GET', url: `/api/anything/${secrets.other}/more` },
      { method: 'GET', url: `/anything?token=${secrets.other}` },
    ];
    logLines.length = 0;
    for (const request of requests) await t.app.inject(request);

    const log = logLines.join('');
    for (const [name, secret] of Object.entries(secrets)) {
      expect(log, name).not.toContain(secret);
      expect(log, name).not.toContain(encodeURIComponent(secret));
    }
    const urls = logLines
      .map((line) => JSON.parse(line))
      .flatMap((entry) => (entry.req ? [entry.req.url] : []));
    expect(urls).toEqual([
      '/api/subscriptions/[redacted]',
      '/api/subscriptions/[redacted]/unsubscribe',
      '/unsubscribe/[redacted]',
      '/api/digests/share/[redacted]',
      '/api/digests/share/[redacted]/1',
      '/digests/share/[redacted]',
      '/digests/share/[redacted]/1',
      '/reset-password?recoveryToken=[redacted]',
      '/auth/google/callback?ticket=[redacted]&mode=[redacted]',
      '/api/auth/google/callback?code=[redacted]&state=[redacted]',
      '/api/auth/google/tokens/callback?code=[redacted]&state=[redacted]',
      '/api/invitations/[redacted]',
      '/api/invitations/[redacted]/accept',
      '/invitations/[redacted]',
      '/verify-email/[redacted]',
      '/api/auth/verify-email/[redacted]',
      '/api/anything/[redacted]/more',
      '/anything?token=[redacted]',
    ]);
  });

  it('keeps ids and names that are not secrets readable', async () => {
    logLines.length = 0;
    const id = '0b7d5c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e';
    await t.app.inject(`/api/digests/${id}`);
    await t.app.inject('/assets/index-1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d.js');
    const urls = logLines
      .map((line) => JSON.parse(line))
      .flatMap((entry) => (entry.req ? [entry.req.url] : []));
    expect(urls).toEqual([`/api/digests/${id}`, '/assets/index-1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d.js']);
  });
});
