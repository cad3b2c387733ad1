import { SESSION_REQUEST_HEADER } from '@digest/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  ApiError,
  api,
  apiRequest,
  errorMessage,
  NETWORK_MESSAGE,
  refreshAccessToken,
  TIMEOUT_MESSAGE,
} from './api-client';
import { endSession, getToken, replaceToken, startSession, useAuthStore } from './session/session';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function stubFetch(implementation: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>) {
  const fetchMock = vi.fn(implementation);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api client sends JSON to /api', () => {
  it('posts the body as JSON and resolves with the JSON answer', async () => {
    const fetchMock = stubFetch(async () => json(200, { ok: true }));
    await expect(api.post('/auth/signin/email', { email: 'a@example.com' })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/auth/signin/email');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"email":"a@example.com"}');
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json' });
  });

  it('checks the answer against a schema when given one', async () => {
    stubFetch(async () => json(200, { token: 42 }));
    const schema = z.object({ token: z.string() });
    await expect(apiRequest('/x', { schema })).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });
});

describe('api client reads { message, code } error bodies', () => {
  it('throws an ApiError with the server message, code and status', async () => {
    stubFetch(async () =>
      json(404, { message: 'Route POST:/api/auth/signin/email not found', code: 'NOT_FOUND' }),
    );
    const error = await api.post('/auth/signin/email', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'Route POST:/api/auth/signin/email not found',
      code: 'NOT_FOUND',
      status: 404,
    });
    expect(errorMessage(error)).toBe('Route POST:/api/auth/signin/email not found');
  });

  it('falls back to a readable message when the body is not an error body', async () => {
    stubFetch(async () => new Response('<h1>Bad gateway</h1>', { status: 502 }));
    await expect(api.get('/x')).rejects.toMatchObject({
      status: 502,
      message: expect.stringContaining('502'),
    });
  });
});

describe('api client gives up after its timeout', () => {
  it('aborts the request and throws the timeout message', async () => {
    stubFetch(
      (_input, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    await expect(apiRequest('/slow', { timeoutMs: 20 })).rejects.toMatchObject({
      message: TIMEOUT_MESSAGE,
      code: 'TIMEOUT',
      status: 0,
    });
  });

  it('reports a network failure', async () => {
    stubFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(api.get('/x')).rejects.toMatchObject({ message: NETWORK_MESSAGE, status: 0 });
  });

  it('passes a caller cancellation through unchanged', async () => {
    stubFetch(
      (_input, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const controller = new AbortController();
    const pending = apiRequest('/x', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('api client sessions (docs/product.md §7: a 401 refreshes once and retries)', () => {
  const token = (n: number) => ({ accessToken: `access-${n}` });

  afterEach(() => {
    endSession();
  });

  function headersOf(init: RequestInit | undefined): Record<string, string> {
    return (init?.headers as Record<string, string> | undefined) ?? {};
  }
  const authorization = (init: RequestInit | undefined) => headersOf(init).Authorization;

  it('sends the access token held in memory as a bearer token', async () => {
    startSession(token(1));
    const fetchMock = stubFetch(async () => json(200, {}));
    await api.get('/users/me');
    expect(authorization(fetchMock.mock.calls[0]?.[1])).toBe('Bearer access-1');
  });

  it('refreshes once on a 401 with the cookie only (no token in the body), keeps the new token and retries', async () => {
    startSession(token(1));
    const fetchMock = stubFetch(async (input, init) => {
      if (String(input).endsWith('/auth/refresh')) return json(200, { token: token(2), user: {} });
      return authorization(init) === 'Bearer access-2'
        ? json(200, { ok: true })
        : json(401, { message: 'Token expired', code: 'UNAUTHORIZED' });
    });
    await expect(api.get('/users/me')).resolves.toEqual({ ok: true });
    expect(getToken()).toEqual(token(2));
    const refreshCall = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/auth/refresh'));
    expect(refreshCall?.[1]?.body).toBeNull();
    expect(refreshCall?.[1]?.credentials).toBe('same-origin');
    expect(headersOf(refreshCall?.[1])).toMatchObject({ [SESSION_REQUEST_HEADER]: '1' });
    expect(authorization(refreshCall?.[1])).toBeUndefined();
  });

  it('shares one refresh between calls that fail together (single flight)', async () => {
    startSession(token(1));
    let refreshes = 0;
    stubFetch(async (input, init) => {
      if (String(input).endsWith('/auth/refresh')) {
        refreshes += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return json(200, { token: token(2) });
      }
      return authorization(init) === 'Bearer access-2'
        ? json(200, { path: String(input) })
        : json(401, { message: 'no' });
    });
    const results = await Promise.all([api.get('/a'), api.get('/b'), api.get('/c')]);
    expect(results).toEqual([{ path: '/api/a' }, { path: '/api/b' }, { path: '/api/c' }]);
    expect(refreshes).toBe(1);
  });

  it('a call that failed with an old token after a refresh retries with the new one, without refreshing', async () => {
    startSession(token(1));
    const fetchMock = stubFetch(async (_input, init) => {
      if (authorization(init) === 'Bearer access-1') {
        // Another call refreshed the token while this one was on its way.
        replaceToken(token(2));
        return json(401, { message: 'no' });
      }
      return json(200, { ok: true });
    });
    await expect(api.get('/x')).resolves.toEqual({ ok: true });
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/auth/refresh'))).toBe(false);
  });

  it('ends the session when the refresh is refused (e.g. Token revoked!)', async () => {
    startSession(token(1));
    stubFetch(async (input) =>
      String(input).endsWith('/auth/refresh')
        ? json(401, { message: 'Token revoked!', code: 'TOKEN_REVOKED' })
        : json(401, { message: 'no' }),
    );
    await expect(api.get('/users/me')).rejects.toMatchObject({ status: 401 });
    expect(getToken()).toBeNull();
  });

  it('keeps the session when the refresh fails for lack of a network', async () => {
    startSession(token(1));
    stubFetch(async (input) => {
      if (String(input).endsWith('/auth/refresh')) throw new TypeError('Failed to fetch');
      return json(401, { message: 'no' });
    });
    await expect(api.get('/users/me')).rejects.toMatchObject({ message: NETWORK_MESSAGE });
    expect(getToken()).toEqual(token(1));
  });

  it('on load, a refresh with the cookie gives the tab its access token; none means signed out, quietly', async () => {
    stubFetch(async () => json(200, { token: token(3), user: {} }));
    await expect(refreshAccessToken()).resolves.toEqual(token(3));
    expect(getToken()).toEqual(token(3));
    endSession();
    stubFetch(async () => json(401, { message: 'Log in to continue.', code: 'NO_SESSION' }));
    await expect(refreshAccessToken()).resolves.toBeNull();
    expect(getToken()).toBeNull();
    expect(useAuthStore.getState().errorMessage).toBeNull();
  });

  it('does not send the token nor refresh for calls made with auth: false', async () => {
    startSession(token(1));
    const fetchMock = stubFetch(async () => json(401, { message: 'Wrong e-mail or password.' }));
    await expect(api.post('/auth/signin/email', {}, { auth: false })).rejects.toMatchObject({
      message: 'Wrong e-mail or password.',
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(authorization(fetchMock.mock.calls[0]?.[1])).toBeUndefined();
    expect(getToken()).toEqual(token(1));
  });

  it('sends a FormData body as multipart (the browser sets the boundary)', async () => {
    const fetchMock = stubFetch(async () => json(200, {}));
    const form = new FormData();
    form.append('image', new Blob(['x'], { type: 'image/png' }), 'avatar.png');
    await api.patch('/users/me/photo', form, { auth: false });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBe(form);
    expect(init?.headers).not.toHaveProperty('Content-Type');
  });

  it('sends a Blob (a chosen file) as its own bytes with the type asked for', async () => {
    const fetchMock = stubFetch(async () => json(200, {}));
    const file = new Blob(['<opml/>']);
    await api.post('/opml/import', file, { auth: false, headers: { 'Content-Type': 'text/x-opml' } });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBe(file);
    expect(init?.headers).toMatchObject({ 'Content-Type': 'text/x-opml' });
  });

  it('answers a file to download as a Blob, and a refusal as the server’s message', async () => {
    stubFetch(
      async () => new Response('<opml/>', { status: 200, headers: { 'content-type': 'text/x-opml' } }),
    );
    const blob = await api.get<Blob>('/digests/x/opml', { auth: false, blob: true });
    expect(await blob.text()).toBe('<opml/>');
    stubFetch(async () => json(404, { message: 'No such Digest.', code: 'DIGEST_NOT_FOUND' }));
    await expect(api.get('/digests/x/opml', { auth: false, blob: true })).rejects.toMatchObject({
      message: 'No such Digest.',
      status: 404,
    });
  });
});
