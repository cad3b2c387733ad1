import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '#server/platform/http/errors';
import type { TrustProxy } from './config';
import { buildHttpServer, type HttpServer, type HttpServerDeps } from './http-server';

let webDistDir: string;
let app: HttpServer;
let databaseUp = true;
const logLines: string[] = [];

beforeAll(async () => {
  webDistDir = await mkdtemp(path.join(os.tmpdir(), 'digest-web-'));
  await mkdir(path.join(webDistDir, 'assets'));
  await writeFile(
    path.join(webDistDir, 'index.html'),
    '<!doctype html><title>Digest</title><div id="root"></div>',
  );
  await writeFile(path.join(webDistDir, 'assets', 'app-1a2b3c.js'), 'console.log(1)');
  await writeFile(path.join(webDistDir, 'assets', 'app-1a2b3c.js.br'), brotliCompressSync('console.log(1)'));
  await writeFile(path.join(webDistDir, 'assets', 'app-1a2b3c.js.gz'), gzipSync('console.log(1)'));
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  app = await buildHttpServer({
    logger: pino({ level: 'info' }, sink),
    appUrl: 'http://localhost:3000',
    // The rate-limit tests name their clients with X-Forwarded-For, as a proxy in front would.
    trustProxy: true,
    apiDocs: true,
    webDistDir,
    health: {
      databaseKind: 'embedded',
      roles: ['api', 'worker', 'scheduler'],
      pingDatabase: async () => {
        if (!databaseUp) throw new Error('connect ECONNREFUSED 10.1.2.3:5432');
      },
      pingQueue: async () => {},
    },
    apiPlugins: [
      async (api) => {
        api.get('/test/crash', async () => {
          throw new Error('syntax error at or near "SELECT password_hash FROM users"');
        });
        api.get('/test/app-error', async () => {
          throw new AppError(409, 'USERNAME_TAKEN', 'This username is already taken.');
        });
        api.post(
          '/test/validated',
          { schema: { body: z.object({ email: z.email(), count: z.number().int().max(10) }) } },
          async (request) => ({ received: request.body }),
        );
        api.get('/test/limited', { config: { rateLimit: { max: 2, timeWindow: '1 minute' } } }, async () => ({
          ok: true,
        }));
      },
    ],
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await rm(webDistDir, { recursive: true, force: true });
});

describe('GET /api/health', () => {
  it('answers ok with the database kind and the roles when both answer', async () => {
    const response = await app.inject('/api/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ok',
      database: { status: 'ok', kind: 'embedded' },
      queue: { status: 'ok' },
      roles: ['api', 'worker', 'scheduler'],
    });
  });

  it('answers 503 when the database does not answer, without naming internal hosts', async () => {
    databaseUp = false;
    try {
      const response = await app.inject('/api/health');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ status: 'error', database: { status: 'error' } });
      expect(response.body).not.toContain('10.1.2.3');
    } finally {
      databaseUp = true;
    }
  });
});

describe('errors', () => {
  it('answers an unknown /api path with 404 JSON', async () => {
    const response = await app.inject('/api/nothing/here');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'No route GET /api/nothing/here', code: 'NOT_FOUND' });
  });

  it('hides the cause of an internal error from the client and logs it with the request id', async () => {
    const response = await app.inject('/api/test/crash');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      message: 'Something went wrong on our side. Please try again.',
      code: 'INTERNAL_ERROR',
    });
    expect(response.body).not.toMatch(/SELECT|password_hash|at .*\.ts/);
    const requestId = response.headers['x-request-id'];
    const logged = logLines.find((line) => line.includes('password_hash'));
    expect(logged).toBeDefined();
    expect(JSON.parse(logged ?? '{}').reqId).toBe(requestId);
  });

  it('answers an application error with its status, message and code', async () => {
    const response = await app.inject('/api/test/app-error');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: 'This username is already taken.', code: 'USERNAME_TAKEN' });
  });

  it('answers a body that breaks the schema with 400 naming the field', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/test/validated',
      payload: { email: 'not-an-email', count: 3 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(response.json().message).toMatch(/^body\.email: /);
  });

  it('answers malformed JSON with 400 and a message', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/test/validated',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
    expect(typeof response.json().message).toBe('string');
  });

  it('accepts a valid body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/test/validated',
      payload: { email: 'ada@example.com', count: 3 },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After once a limited route is over its limit', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    expect((await app.inject({ url: '/api/test/limited', headers })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/test/limited', headers })).statusCode).toBe(200);
    const limited = await app.inject({ url: '/api/test/limited', headers });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    const otherClient = await app.inject({
      url: '/api/test/limited',
      headers: { 'x-forwarded-for': '203.0.113.10' },
    });
    expect(otherClient.statusCode).toBe(200);
  });
});

describe('the client address', () => {
  async function serverWith(trustProxy?: TrustProxy) {
    const server = await buildHttpServer({
      logger: pino({ level: 'silent' }),
      appUrl: 'http://localhost:3000',
      ...(trustProxy === undefined ? {} : { trustProxy }),
      webDistDir,
      health: {
        databaseKind: 'embedded',
        roles: ['api'],
        pingDatabase: async () => {},
        pingQueue: async () => {},
      },
      apiPlugins: [
        async (api) => {
          api.get('/test/ip', async (request) => ({ ip: request.ip }));
          api.get(
            '/test/limited',
            { config: { rateLimit: { max: 1, timeWindow: '1 minute' } } },
            async () => ({
              ok: true,
            }),
          );
        },
      ],
    });
    await server.ready();
    return server;
  }
  const ipOf = async (server: HttpServer, headers: Record<string, string>, remoteAddress = '192.0.2.1') =>
    (await server.inject({ url: '/api/test/ip', headers, remoteAddress })).json().ip;

  it('is the socket address by default: a spoofed X-Forwarded-For changes nothing', async () => {
    const server = await serverWith();
    try {
      expect(await ipOf(server, { 'x-forwarded-for': '203.0.113.66' })).toBe('192.0.2.1');
      // Nor does a new address per request escape a per-IP limit.
      const limited = async (client: string) =>
        (
          await server.inject({
            url: '/api/test/limited',
            headers: { 'x-forwarded-for': client },
            remoteAddress: '192.0.2.1',
          })
        ).statusCode;
      expect(await limited('203.0.113.1')).toBe(200);
      expect(await limited('203.0.113.2')).toBe(429);
    } finally {
      await server.close();
    }
  });

  it('comes from X-Forwarded-For only when the proxy is trusted', async () => {
    const listed = await serverWith(['10.0.0.0/8']);
    const all = await serverWith(true);
    const oneHop = await serverWith(1);
    try {
      const headers = { 'x-forwarded-for': '203.0.113.66' };
      expect(await ipOf(listed, headers, '10.1.2.3')).toBe('203.0.113.66');
      expect(await ipOf(listed, headers, '192.0.2.1')).toBe('192.0.2.1');
      expect(await ipOf(all, headers)).toBe('203.0.113.66');
      // One hop: the address the proxy saw, not what the client claimed before it.
      expect(await ipOf(oneHop, { 'x-forwarded-for': '198.51.100.7, 203.0.113.66' })).toBe('203.0.113.66');
    } finally {
      await listed.close();
      await all.close();
      await oneHop.close();
    }
  });
});

/** A server with a healthy database and queue, logging nothing, beside the file's shared one. */
function quietServer(deps: Partial<HttpServerDeps> = {}) {
  return buildHttpServer({
    logger: pino({ level: 'silent' }),
    appUrl: 'http://localhost:3000',
    webDistDir,
    health: {
      databaseKind: 'embedded',
      roles: ['api'],
      pingDatabase: async () => {},
      pingQueue: async () => {},
    },
    ...deps,
  });
}

describe('stopping', () => {
  it('finishes a request under way and refuses new connections', async () => {
    const server = await quietServer({
      apiPlugins: [
        async (api) => {
          api.get('/test/slow', async () => {
            await new Promise((resolve) => setTimeout(resolve, 800));
            return { finished: true };
          });
        },
      ],
    });
    const url = await server.listen({ port: 0, host: '127.0.0.1' });
    const underWay = fetch(`${url}/api/test/slow`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closing = server.close();
    const response = await underWay;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ finished: true });
    await closing;
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
  });
});

describe('the single-page app', () => {
  it('serves index.html for every non-API path (history fallback), never cached', async () => {
    for (const url of ['/', '/digests/42', '/logIn?x=1']) {
      const response = await app.inject(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('serves hashed assets as immutable', async () => {
    const response = await app.inject('/assets/app-1a2b3c.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the precompressed copy of an asset the browser accepts, Brotli first, and the plain file otherwise', async () => {
    const asset = (encoding?: string) =>
      app.inject({ url: '/assets/app-1a2b3c.js', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const brotli = await asset('gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe('console.log(1)');
    const gzip = await asset('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe('console.log(1)');
    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it('answers a POST to a non-API path with 404 JSON instead of the page', async () => {
    const response = await app.inject({ method: 'POST', url: '/digests' });
    expect(response.statusCode).toBe(404);
  });
});

describe('security headers', () => {
  it('sends a strict Content-Security-Policy with no inline scripts or styles', async () => {
    const response = await app.inject('/');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });
});

describe('request ids', () => {
  it('gives every response a request id and keeps a well-formed one from a proxy', async () => {
    const fresh = await app.inject('/api/health');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await app.inject({ url: '/api/health', headers: { 'x-request-id': 'edge-123' } });
    expect(kept.headers['x-request-id']).toBe('edge-123');
    const replaced = await app.inject({ url: '/api/health', headers: { 'x-request-id': 'bad id\n' } });
    expect(replaced.headers['x-request-id']).not.toBe('bad id\n');
  });
});

describe('API documentation (only with API_DOCS=true)', () => {
  it('serves neither the OpenAPI document nor the explorer unless API_DOCS turns them on', async () => {
    const server = await quietServer();
    try {
      for (const url of ['/api/openapi.json', '/api/docs', '/api/docs/', '/api/docs/static/index.html']) {
        const response = await server.inject(url);
        expect(response.statusCode, url).toBe(404);
        expect(response.body, url).not.toMatch(/swagger/i);
      }
    } finally {
      await server.close();
    }
  });

  it('with API_DOCS=true publishes the OpenAPI document at /api/openapi.json', async () => {
    const response = await app.inject('/api/openapi.json');
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.paths['/api/health'].get).toBeDefined();
    expect(Object.keys(document.paths).some((route) => route.includes('/test/'))).toBe(true);
  });

  it('with API_DOCS=true serves a browsable explorer at /api/docs', async () => {
    const response = await app.inject('/api/docs/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('swagger');
  });
});
