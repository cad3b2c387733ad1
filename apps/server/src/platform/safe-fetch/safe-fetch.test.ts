import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createSafeFetch } from './safe-fetch';
import { FetchError, type FetchErrorCode } from './types';

interface TestServer {
  port: number;
  /** Requests received, with the address they came from and their headers. */
  requests: { url: string; method: string; remote: string; headers: http.IncomingHttpHeaders }[];
  /** Highest number of requests that were open at the same time. */
  maxConcurrent: number;
  /** Connections closed by the client before the response ended. */
  abortedResponses: number;
}

const servers: http.Server[] = [];

/** A real HTTP server on every local address (IPv4 and IPv6), so each notation can reach it. */
async function startServer(
  handle: (request: IncomingMessage, response: ServerResponse, server: TestServer) => void,
): Promise<TestServer> {
  const state: TestServer = { port: 0, requests: [], maxConcurrent: 0, abortedResponses: 0 };
  let open = 0;
  const server = http.createServer((request, response) => {
    state.requests.push({
      url: request.url ?? '',
      method: request.method ?? '',
      remote: request.socket.remoteAddress ?? '',
      headers: request.headers,
    });
    open++;
    state.maxConcurrent = Math.max(state.maxConcurrent, open);
    response.on('close', () => {
      open--;
      if (!response.writableFinished) state.abortedResponses++;
    });
    handle(request, response, state);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  state.port = (server.address() as AddressInfo).port;
  return state;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const ok = (_request: IncomingMessage, response: ServerResponse) => response.end('ok');

async function failureOf(promise: Promise<unknown>): Promise<{ code: FetchErrorCode; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FetchError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('the request succeeded');
}

/** Every way of writing a loopback or unspecified address that reaches the local test server. */
const LOOPBACK_NOTATIONS = [
  '127.0.0.1',
  'localhost',
  '127.0.0.2',
  '2130706433',
  '0x7f.1',
  '0x7f000001',
  '0177.0.0.1',
  '127.1',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[0:0:0:0:0:ffff:7f00:1]',
  '0.0.0.0',
  '[::]',
];

describe('safe fetch: only ports 80 and 443, unless the host is allow-listed', () => {
  /** A name server that answers a public address (nothing is ever connected to it). */
  const publicName = async () => [{ address: '93.184.216.34', family: 4 }];

  it('refuses any other port on a public host before connecting', async () => {
    const safeFetch = createSafeFetch({ allowPrivateHosts: [], resolve: publicName });
    for (const url of [
      'http://feeds.example:22/',
      'http://feeds.example:8080/feed',
      'https://feeds.example:8443/feed',
      'http://93.184.216.34:25/',
      'https://93.184.216.34:6379/',
      'http://[2606:2800:220:1:248:1893:25c8:1946]:5432/',
    ]) {
      expect(await failureOf(safeFetch({ url })), url).toMatchObject({ code: 'blocked_port' });
    }
  });

  it('refuses a redirect to another port', async () => {
    const server = await startServer((_request, response) =>
      response.writeHead(302, { location: 'http://93.184.216.34:25/' }).end(),
    );
    const safeFetch = createSafeFetch({ allowPrivateHosts: ['127.0.0.1'] });
    const failure = await failureOf(safeFetch({ url: `http://127.0.0.1:${server.port}/` }));
    expect(failure.code).toBe('blocked_port');
    expect(server.requests).toHaveLength(1);
  });

  it('reaches an allow-listed host (by address or by name) on any port', async () => {
    const server = await startServer(ok);
    const byAddress = createSafeFetch({ allowPrivateHosts: ['127.0.0.1'] });
    expect((await byAddress({ url: `http://127.0.0.1:${server.port}/` })).status).toBe(200);
    const byName = createSafeFetch({ allowPrivateHosts: ['localhost'] });
    expect((await byName({ url: `http://localhost:${server.port}/` })).status).toBe(200);
  });
});

describe('safe fetch: private addresses', () => {
  for (const host of LOOPBACK_NOTATIONS) {
    it(`refuses http://${host}/ when it is not allow-listed`, async () => {
      const server = await startServer(ok);
      const safeFetch = createSafeFetch({ allowPrivateHosts: [] });
      const failure = await failureOf(safeFetch({ url: `http://${host}:${server.port}/` }));
      expect(failure.code).toBe('blocked_address');
      expect(server.requests).toHaveLength(0);
    });

    it(`reaches http://${host}/ when its address is allow-listed`, async () => {
      const server = await startServer(ok);
      const safeFetch = createSafeFetch({ allowPrivateHosts: ['127.0.0.0/8', '::1', '0.0.0.0', '::'] });
      const response = await safeFetch({ url: `http://${host}:${server.port}/` });
      expect(response.body.toString()).toBe('ok');
    });
  }

  it('allows a host listed by name', async () => {
    const server = await startServer(ok);
    const safeFetch = createSafeFetch({ allowPrivateHosts: ['LOCALHOST'] });
    expect((await safeFetch({ url: `http://localhost:${server.port}/` })).status).toBe(200);
    expect((await failureOf(safeFetch({ url: `http://127.0.0.1:${server.port}/` }))).code).toBe(
      'blocked_address',
    );
  });

  it('says which address was refused', async () => {
    const safeFetch = createSafeFetch({ allowPrivateHosts: [] });
    const failure = await failureOf(safeFetch({ url: 'http://169.254.169.254/latest/meta-data/' }));
    expect(failure).toEqual({
      code: 'blocked_address',
      message: '169.254.169.254 is on a private or reserved network',
    });
  });

  it('answers a name on a private network exactly like a name that does not resolve (no mapping the intranet)', async () => {
    const safeFetch = createSafeFetch({ allowPrivateHosts: [] });
    const privateName = await failureOf(safeFetch({ url: 'http://localhost:9/' }));
    const unknownName = await failureOf(safeFetch({ url: 'http://no-such-host.invalid/' }));
    expect(privateName.message).toBe('localhost cannot be reached from this server');
    expect(unknownName.message).toBe('no-such-host.invalid cannot be reached from this server');
  });

  it('runs at most 2 name lookups at once, and keeps a slot until its lookup ends even after a timeout', async () => {
    const pending: (() => void)[] = [];
    const asked: string[] = [];
    const safeFetch = createSafeFetch({
      allowPrivateHosts: [],
      // A name server that answers only when told to.
      resolve: (name) =>
        new Promise((_resolve, reject) => {
          asked.push(name);
          pending.push(() => reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' })));
        }),
    });
    const requests = ['a', 'b', 'c', 'd'].map((name) =>
      failureOf(safeFetch({ url: `http://${name}.slow.example/`, timeoutMs: 100 })),
    );
    expect((await Promise.all(requests)).map(({ code }) => code)).toEqual([
      'timeout',
      'timeout',
      'timeout',
      'timeout',
    ]);
    expect(asked).toEqual(['a.slow.example', 'b.slow.example']);
    const later = failureOf(safeFetch({ url: 'http://e.slow.example/', timeoutMs: 2_000 }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toHaveLength(2); // a and b still hold their slots: their threads are still busy
    for (const answer of pending.splice(0)) answer();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toEqual(['a.slow.example', 'b.slow.example', 'e.slow.example']);
    for (const answer of pending.splice(0)) answer();
    expect((await later).code).toBe('dns');
  });

  it('refuses a redirect to a private address that is not allow-listed, even from an allowed host', async () => {
    const target = await startServer(ok);
    for (const next of [`http://127.0.0.2:${target.port}/`, `http://[::1]:${target.port}/`]) {
      const first = await startServer((_request, response) => {
        response.writeHead(302, { location: next }).end();
      });
      const safeFetch = createSafeFetch({ allowPrivateHosts: ['127.0.0.1'] });
      const failure = await failureOf(safeFetch({ url: `http://127.0.0.1:${first.port}/` }));
      expect(failure.code).toBe('blocked_address');
      expect(first.requests).toHaveLength(1);
    }
    expect(target.requests).toHaveLength(0);
  });

  it('refuses http and https only: other schemes at the start and in redirects', async () => {
    const safeFetch = createSafeFetch({ allowPrivateHosts: ['127.0.0.1'] });
    expect((await failureOf(safeFetch({ url: 'file:///etc/passwd' }))).code).toBe('bad_url');
    expect((await failureOf(safeFetch({ url: 'not a url' }))).code).toBe('bad_url');
    for (const location of ['file:///etc/passwd', 'gopher://127.0.0.1:6379/_INFO', 'data:text/plain,x']) {
      const server = await startServer((_request, response) => {
        response.writeHead(301, { location }).end();
      });
      const failure = await failureOf(safeFetch({ url: `http://127.0.0.1:${server.port}/` }));
      expect(failure.code).toBe('bad_url');
    }
  });

  it('reports a host that does not resolve', async () => {
    const safeFetch = createSafeFetch({ allowPrivateHosts: [] });
    expect((await failureOf(safeFetch({ url: 'http://no-such-host.invalid/' }))).code).toBe('dns');
  });
});

describe('safe fetch: redirects', () => {
  it('follows redirects, turning a 303 into a GET and keeping credentials on the same origin only', async () => {
    const other = await startServer(ok);
    const server = await startServer((request, response) => {
      if (request.url === '/start') response.writeHead(303, { location: '/same-origin' }).end();
      else if (request.url === '/same-origin')
        response.writeHead(307, { location: `http://127.0.0.2:${other.port}/elsewhere` }).end();
      else response.writeHead(404).end();
    });
    const safeFetch = createSafeFetch({ allowPrivateHosts: ['127.0.0.1', '127.0.0.2'] });
    const response = await safeFetch({
      url: `http://127.0.0.1:${server.port}/start`,
      method: 'POST',
      headers: { Authorization: 'Bearer secret', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response).toMatchObject({ status: 200, url: `http://127.0.0.2:${other.port}/elsewhere` });
    expect(server.requests.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'POST /start',
      'GET /same-origin',
    ]);
    expect(server.requests[1]?.headers.authorization).toBe('Bearer secret');
    expect(other.requests[0]?.method).toBe('GET');
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('stops after the maximum number of redirects', async () => {
    const server = await startServer((request, response) => {
      const step = Number(request.url?.slice(1));
      response.writeHead(302, { location: `/${step + 1}` }).end();
    });
    const safeFetch = createSafeFetch({ allowPrivateHosts: ['127.0.0.1'] });
    const failure = await failureOf(safeFetch({ url: `http://127.0.0.1:${server.port}/0` }));
    expect(failure.code).toBe('too_many_redirects');
    expect(server.requests).toHaveLength(6);
    expect(
      (await failureOf(safeFetch({ url: `http://127.0.0.1:${server.port}/0`, maxRedirects: 2 }))).code,
    ).toBe('too_many_redirects');
  });

  it('answers the redirect itself when asked to follow none', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(302, { location: '/next' }).end('moved');
    });
    const safeFetch = createSafeFetch({ allowPrivateHosts: ['127.0.0.1'] });
    const response = await safeFetch({ url: `http://127.0.0.1:${server.port}/`, maxRedirects: 0 });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/next');
  });
});

describe('safe fetch: limits', () => {
  const safeFetch = createSafeFetch({ allowPrivateHosts: ['127.0.0.1'] });

  it('refuses a body declared larger than the cap before reading it', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
      response.write(Buffer.alloc(1024));
    });
    const failure = await failureOf(
      safeFetch({ url: `http://127.0.0.1:${server.port}/`, maxBytes: 1024 * 1024 }),
    );
    expect(failure.code).toBe('too_large');
  });

  it('stops a chunked body without a length once it passes the cap', async () => {
    const server = await startServer((_request, response) => {
      // Endless: only the client giving up ends it.
      const timer = setInterval(() => response.write(Buffer.alloc(64 * 1024, 'x')), 1);
      response.on('close', () => clearInterval(timer));
    });
    const failure = await failureOf(
      safeFetch({ url: `http://127.0.0.1:${server.port}/`, maxBytes: 1024 * 1024 }),
    );
    expect(failure.code).toBe('too_large');
    await expect.poll(() => server.abortedResponses).toBe(1);
  });

  it('caps the decoded size of a compressed body (gzip bomb)', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100 * 1024);
    const server = await startServer((_request, response) => {
      response
        .writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(bomb.length) })
        .end(bomb);
    });
    const failure = await failureOf(
      safeFetch({ url: `http://127.0.0.1:${server.port}/`, maxBytes: 1024 * 1024 }),
    );
    expect(failure.code).toBe('too_large');
  });

  it('decodes gzip, deflate and brotli bodies', async () => {
    const zlib = await import('node:zlib');
    const encoders: Record<string, (input: Buffer) => Buffer> = {
      gzip: zlib.gzipSync,
      deflate: zlib.deflateSync,
      br: zlib.brotliCompressSync,
    };
    const server = await startServer((request, response) => {
      const encoding = request.url?.slice(1) ?? '';
      response
        .writeHead(200, { 'content-encoding': encoding })
        .end(encoders[encoding]?.(Buffer.from('hello')));
    });
    for (const encoding of Object.keys(encoders)) {
      const response = await safeFetch({ url: `http://127.0.0.1:${server.port}/${encoding}` });
      expect(response.body.toString()).toBe('hello');
    }
    expect(server.requests[0]?.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('gives up on a server that sends headers and then stalls', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('partial');
    });
    const started = Date.now();
    const failure = await failureOf(safeFetch({ url: `http://127.0.0.1:${server.port}/`, timeoutMs: 300 }));
    expect(failure).toEqual({ code: 'timeout', message: 'no complete answer within 300 ms' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('keeps at most the per-host limit of requests in flight to one host and queues the rest', async () => {
    const server = await startServer((_request, response) => {
      setTimeout(() => response.end('ok'), 50);
    });
    const limited = createSafeFetch({ allowPrivateHosts: ['127.0.0.1'], perHostConcurrency: 3 });
    const responses = await Promise.all(
      Array.from({ length: 15 }, (_, index) => limited({ url: `http://127.0.0.1:${server.port}/${index}` })),
    );
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(server.requests).toHaveLength(15);
    expect(server.maxConcurrent).toBe(3);
  });

  it('lets a queued request time out without taking a slot', async () => {
    const server = await startServer((request, response) => {
      setTimeout(() => response.end('ok'), request.url === '/slow' ? 400 : 0);
    });
    const limited = createSafeFetch({ allowPrivateHosts: ['127.0.0.1'], perHostConcurrency: 1 });
    const slow = limited({ url: `http://127.0.0.1:${server.port}/slow` });
    const queued = await failureOf(
      limited({ url: `http://127.0.0.1:${server.port}/queued`, timeoutMs: 100 }),
    );
    expect(queued.code).toBe('timeout');
    expect((await slow).status).toBe(200);
    expect((await limited({ url: `http://127.0.0.1:${server.port}/after` })).status).toBe(200);
    expect(server.requests.map(({ url }) => url)).toEqual(['/slow', '/after']);
  });

  it('sends its own User-Agent unless the caller sets one', async () => {
    const server = await startServer(ok);
    await safeFetch({ url: `http://127.0.0.1:${server.port}/` });
    await safeFetch({ url: `http://127.0.0.1:${server.port}/`, headers: { 'User-Agent': 'custom/1.0' } });
    expect(server.requests.map(({ headers }) => headers['user-agent'])).toEqual([
      'Digest/1.0 (+https://github.com/digest)',
      'custom/1.0',
    ]);
  });
});
