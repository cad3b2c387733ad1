import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testClock } from '#server-test/test-clock';
import { ACCESS_TOKEN_TTL_SECONDS, createAccessTokens } from './access-tokens';

const claims = { userId: 'user-1', sessionId: 'session-1' };

describe('access tokens', () => {
  it('a token verified before is refused from its expiry on, as a new one is', async () => {
    const clock = testClock();
    const tokens = createAccessTokens(new Uint8Array(randomBytes(32)), clock);
    const token = await tokens.issue(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    clock.advance(ACCESS_TOKEN_TTL_SECONDS * 1000 - 1000);
    expect(await tokens.verify(token)).toEqual(claims);
    clock.advance(1000);
    await expect(tokens.verify(token)).rejects.toMatchObject({ statusCode: 401 });
  });

  it('refuses a tampered token and one signed with another key, even after the real one was verified', async () => {
    const clock = testClock();
    const tokens = createAccessTokens(new Uint8Array(randomBytes(32)), clock);
    const token = await tokens.issue(claims);
    await tokens.verify(token);
    const [header, payload, signature] = token.split('.');
    const forged = `${header}.${payload}.${signature?.slice(0, -2)}AA`;
    await expect(tokens.verify(forged)).rejects.toMatchObject({ statusCode: 401 });
    const foreign = await createAccessTokens(new Uint8Array(randomBytes(32)), clock).issue(claims);
    await expect(tokens.verify(foreign)).rejects.toMatchObject({ statusCode: 401 });
  });
});
