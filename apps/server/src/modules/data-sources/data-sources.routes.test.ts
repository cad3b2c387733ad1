import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '#server/modules/users/test-support';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { DATA_SOURCES_RATE_LIMIT } from './data-sources.routes';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(() => api?.close());

describe('data-source calls per user', () => {
  it(`refuses the call after ${DATA_SOURCES_RATE_LIMIT.max} in a minute with 429 and Retry-After; other users are not affected`, async () => {
    const busy = await signUp(api);
    const other = await signUp(api);
    const call = (headers: Record<string, string>) =>
      api.app.inject({ method: 'GET', url: '/api/data-sources', headers });
    for (let index = 0; index < DATA_SOURCES_RATE_LIMIT.max; index += 1) {
      expect((await call(busy.headers)).statusCode).toBe(200);
    }
    const refused = await call(busy.headers);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await call(other.headers)).statusCode).toBe(200);
  });

  it('answers 401 before counting anything without a session', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/api/data-sources/hacker-news' });
    expect(response.statusCode).toBe(401);
  });
});
