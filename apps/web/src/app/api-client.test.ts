import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, api, apiRequest, errorMessage, NETWORK_MESSAGE, TIMEOUT_MESSAGE } from './api-client';

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
