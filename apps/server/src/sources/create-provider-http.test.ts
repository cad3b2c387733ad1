import type { IncomingMessage, ServerResponse } from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSafeFetch, type Resolve } from '#server/platform/safe-fetch/safe-fetch';
import { upstreamServers } from '#server-test/upstream-server';
import { createMemoryContentCache, createProviderHttp } from './create-provider-http';
import type { ProviderRequest } from './provider-http';
import { sourceFailure } from './sources.test-support';

const startProvider = upstreamServers();

/** Provider HTTP as production wires it, with a clock the test moves. */
function providerHttp() {
  let nowMs = Date.parse('2026-11-21T12:00:00Z');
  const now = () => nowMs;
  const http = createProviderHttp({
    safeFetch: createSafeFetch({ allowPrivateHosts: ['127.0.0.1'] }),
    cache: createMemoryContentCache({ now }),
    now,
  });
  return { http, advanceSeconds: (seconds: number) => (nowMs += seconds * 1000) };
}

const Feed = z.object({ items: z.array(z.string()) });
const json =
  (body: unknown, headers: Record<string, string> = {}) =>
  (_: IncomingMessage, response: ServerResponse) =>
    response.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

describe('provider HTTP: the shared cache', () => {
  it('sends 50 concurrent identical requests upstream once', async () => {
    const provider = await startProvider((request, response) => {
      setTimeout(() => json({ items: ['a', 'b'] })(request, response), 50);
    });
    const { http } = providerHttp();
    const request = { provider: 'The feed', url: `${provider.base}/feed.json` };
    const answers = await Promise.all(Array.from({ length: 50 }, () => http.json(request, Feed)));
    expect(provider.requests).toHaveLength(1);
    expect(answers.every((answer) => answer.items.join() === 'a,b')).toBe(true);
  });

  it('answers a second request within the lifetime from the cache', async () => {
    const provider = await startProvider(json({ items: ['a'] }, { 'cache-control': 'max-age=600' }));
    const { http, advanceSeconds } = providerHttp();
    const request = { provider: 'The feed', url: `${provider.base}/feed.json` };
    await http.json(request, Feed);
    advanceSeconds(599);
    expect(await http.json(request, Feed)).toEqual({ items: ['a'] });
    expect(provider.requests).toHaveLength(1);
  });

  it('treats the same URL with its query in another order as the same request', async () => {
    const provider = await startProvider(json({ items: [] }));
    const { http } = providerHttp();
    await http.json({ provider: 'P', url: `${provider.base}/q?a=1&b=2` }, Feed);
    await http.json({ provider: 'P', url: `${provider.base}/q?b=2&a=1#top` }, Feed);
    expect(provider.requests).toHaveLength(1);
  });

  it('revalidates an expired copy with If-None-Match and reuses its body on 304', async () => {
    const provider = await startProvider((request, response) => {
      if (request.headers['if-none-match'] === '"v1"')
        response.writeHead(304, { etag: '"v1"', 'cache-control': 'max-age=120' }).end();
      else json({ items: ['first'] }, { etag: '"v1"', 'cache-control': 'max-age=60' })(request, response);
    });
    const { http, advanceSeconds } = providerHttp();
    const request = { provider: 'The feed', url: `${provider.base}/feed.json` };
    await http.json(request, Feed);
    advanceSeconds(61);
    expect(await http.json(request, Feed)).toEqual({ items: ['first'] });
    expect(provider.requests.map(({ headers }) => headers['if-none-match'])).toEqual([undefined, '"v1"']);
    // The 304's max-age renews the copy: no request for the next two minutes.
    advanceSeconds(119);
    await http.json(request, Feed);
    expect(provider.requests).toHaveLength(2);
  });

  it('revalidates with If-Modified-Since when the provider gave Last-Modified only', async () => {
    const lastModified = 'Fri, 20 Nov 2026 08:00:00 GMT';
    const provider = await startProvider((request, response) => {
      if (request.headers['if-modified-since'] === lastModified) response.writeHead(304).end();
      else {
        response
          .writeHead(200, { 'content-type': 'application/rss+xml', 'last-modified': lastModified })
          .end('<rss/>');
      }
    });
    const { http, advanceSeconds } = providerHttp();
    const request = { provider: 'The feed', url: `${provider.base}/rss` };
    await http.text(request);
    advanceSeconds(301);
    expect((await http.text(request)).body).toBe('<rss/>');
    expect(provider.requests[1]?.headers['if-modified-since']).toBe(lastModified);
  });

  it('downloads again when the provider answers 200 to a conditional request', async () => {
    let version = 1;
    const provider = await startProvider((request, response) =>
      json({ items: [`v${version}`] }, { etag: `"v${version}"` })(request, response),
    );
    const { http, advanceSeconds } = providerHttp();
    const request = { provider: 'The feed', url: `${provider.base}/feed.json` };
    await http.json(request, Feed);
    version = 2;
    advanceSeconds(301);
    expect(await http.json(request, Feed)).toEqual({ items: ['v2'] });
  });

  it('keeps answers sent with different credentials apart', async () => {
    const provider = await startProvider((request, response) =>
      json({ items: [request.headers.authorization ?? ''] })(request, response),
    );
    const { http } = providerHttp();
    const url = `${provider.base}/me`;
    const alice = await http.json({ provider: 'P', url, headers: { Authorization: 'Bearer alice' } }, Feed);
    const bob = await http.json({ provider: 'P', url, headers: { Authorization: 'Bearer bob' } }, Feed);
    expect([alice.items, bob.items]).toEqual([['Bearer alice'], ['Bearer bob']]);
    expect(provider.requests).toHaveLength(2);
  });

  it('never caches a request marked cache: false', async () => {
    const provider = await startProvider(json({ items: [] }));
    const { http } = providerHttp();
    const request: ProviderRequest = { provider: 'P', url: `${provider.base}/x`, cache: false };
    await http.json(request, Feed);
    await http.json(request, Feed);
    expect(provider.requests).toHaveLength(2);
  });

  it('does not cache a failed load', async () => {
    let fail = true;
    const provider = await startProvider((request, response) => {
      if (fail) response.writeHead(500).end('oops');
      else json({ items: ['ok'] })(request, response);
    });
    const { http } = providerHttp();
    const request = { provider: 'The feed', url: `${provider.base}/feed.json` };
    expect((await sourceFailure(http.json(request, Feed))).kind).toBe('upstream');
    fail = false;
    expect(await http.json(request, Feed)).toEqual({ items: ['ok'] });
  });

  it('fails fast while a Retry-After lasts, then asks the provider again', async () => {
    let limited = true;
    const provider = await startProvider((request, response) => {
      if (limited) response.writeHead(429, { 'retry-after': '30' }).end('{"error":"slow down"}');
      else json({ items: ['back'] })(request, response);
    });
    const { http, advanceSeconds } = providerHttp();
    const request = { provider: 'Reddit', url: `${provider.base}/r/news.json` };
    expect((await sourceFailure(http.json(request, Feed))).message).toBe(
      'Reddit answered 429: rate-limited, retry in 30 s',
    );
    advanceSeconds(10);
    const fastFail = await sourceFailure(http.json(request, Feed));
    expect(fastFail).toMatchObject({ kind: 'rate_limited', statusCode: 429, retryAfterSeconds: 20 });
    expect(fastFail.message).toBe('Reddit answered 429: rate-limited, retry in 20 s');
    expect(provider.requests).toHaveLength(1);
    limited = false;
    advanceSeconds(21);
    expect(await http.json(request, Feed)).toEqual({ items: ['back'] });
    expect(provider.requests).toHaveLength(2);
  });
});

describe('provider HTTP: failures become source errors', () => {
  const cases: {
    name: string;
    handle: (request: IncomingMessage, response: ServerResponse) => void;
    kind: string;
    status: number;
    message: string;
  }[] = [
    {
      name: '404',
      handle: (_, response) => response.writeHead(404).end(),
      kind: 'not_found',
      status: 404,
      message: 'Open-Meteo answered 404: not found',
    },
    {
      name: '429 with Retry-After',
      handle: (_, response) => response.writeHead(429, { 'retry-after': '120' }).end(),
      kind: 'rate_limited',
      status: 429,
      message: 'Open-Meteo answered 429: rate-limited, retry in 120 s',
    },
    {
      name: '429 without Retry-After',
      handle: (_, response) => response.writeHead(429).end(),
      kind: 'rate_limited',
      status: 429,
      message: 'Open-Meteo answered 429: rate-limited, retry later',
    },
    {
      name: '401',
      handle: (_, response) => response.writeHead(401).end(),
      kind: 'unauthorized',
      status: 502,
      message: 'Open-Meteo answered 401: access refused',
    },
    {
      name: '500',
      handle: (_, response) => response.writeHead(500).end(),
      kind: 'upstream',
      status: 502,
      message: 'Open-Meteo answered 500',
    },
    {
      name: '503 with Retry-After',
      handle: (_, response) => response.writeHead(503, { 'retry-after': '5' }).end(),
      kind: 'upstream',
      status: 502,
      message: 'Open-Meteo answered 503: unavailable, retry in 5 s',
    },
    {
      name: 'a body that is not JSON',
      handle: (_, response) => response.writeHead(200).end('<html>maintenance</html>'),
      kind: 'invalid_response',
      status: 502,
      message: 'Open-Meteo answered with something that is not JSON',
    },
    {
      name: 'JSON in another shape',
      handle: json({ items: [1, 2] }),
      kind: 'invalid_response',
      status: 502,
      message: 'Open-Meteo answered in an unexpected shape',
    },
    {
      name: 'no answer in time',
      handle: () => {},
      kind: 'unreachable',
      status: 502,
      message: 'Open-Meteo could not be reached',
    },
    {
      name: 'an answer over the size cap',
      handle: (_, response) => response.writeHead(200).end('x'.repeat(2048)),
      kind: 'too_large',
      status: 422,
      message: 'Open-Meteo answered with too much data',
    },
  ];

  for (const { name, handle, kind, status, message } of cases) {
    it(`turns ${name} into ${kind}`, async () => {
      const provider = await startProvider(handle);
      const { http } = providerHttp();
      const request = {
        provider: 'Open-Meteo',
        url: `${provider.base}/v1/forecast`,
        timeoutMs: 300,
        maxBytes: 1024,
      };
      const error = await sourceFailure(http.json(request, Feed));
      expect({ kind: error.kind, status: error.statusCode, message: error.message }).toEqual({
        kind,
        status,
        message,
      });
    });
  }
});

describe('provider HTTP: one answer for every refused or failed connection (no mapping a network)', () => {
  /** The port of a server that was just closed: connecting to it is refused. */
  async function closedPort() {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  const publicName = async () => [{ address: '93.184.216.34', family: 4 }];

  it('says "could not be reached", with one kind and status, whatever stopped the connection', async () => {
    const hanging = await startProvider(() => {});
    const cases: { name: string; allow: string[]; url: string; resolve?: Resolve }[] = [
      { name: 'a private address', allow: [], url: 'http://127.0.0.1/feed' },
      { name: 'a cloud metadata address', allow: [], url: 'http://169.254.169.254/latest/meta-data/' },
      {
        name: 'a port other than 80 and 443',
        allow: [],
        url: 'http://feeds.example:22/',
        resolve: publicName,
      },
      { name: 'a port other than 80 and 443 (IP)', allow: [], url: 'https://93.184.216.34:8443/feed' },
      {
        name: 'a name that does not resolve',
        allow: [],
        url: 'http://no-such-host.example/feed',
        resolve: () =>
          Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })),
      },
      {
        name: 'a refused connection',
        allow: ['127.0.0.1'],
        url: `http://127.0.0.1:${await closedPort()}/feed`,
      },
      // TEST-NET-1 is routed nowhere: the connection times out (or the network says unreachable at once).
      { name: 'a connection that times out', allow: ['192.0.2.0/24'], url: 'http://192.0.2.1/feed' },
      {
        name: 'an accepted connection that never answers',
        allow: ['127.0.0.1'],
        url: `${hanging.base}/feed`,
      },
    ];
    for (const { name, allow, url, resolve } of cases) {
      const http = createProviderHttp({
        safeFetch: createSafeFetch({
          allowPrivateHosts: allow,
          connectTimeoutMs: 200,
          ...(resolve ? { resolve } : {}),
        }),
        cache: createMemoryContentCache(),
      });
      const error = await sourceFailure(http.text({ provider: 'The feed', url, timeoutMs: 500 }));
      expect({ kind: error.kind, status: error.statusCode, message: error.message }, name).toEqual({
        kind: 'unreachable',
        status: 502,
        message: 'The feed could not be reached',
      });
    }
  });
});
