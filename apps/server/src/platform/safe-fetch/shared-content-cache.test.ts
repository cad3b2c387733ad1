import net, { type AddressInfo, type Socket } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, postgresDatabase } from '#server/db/client';
import { sourceCache } from '#server/db/schema';
import { createProviderHttp } from '#server/sources/create-provider-http';
import type { ProviderRequest } from '#server/sources/provider-http';
import { sourceFailure } from '#server/sources/sources.test-support';
import { createTestDatabase } from '#server-test/test-database';
import { type Upstream, upstreamServers } from '#server-test/upstream-server';
import { createSafeFetch } from './safe-fetch';
import { createSharedContentCache, type SharedContentCacheOptions } from './shared-content-cache';

const logger = pino({ level: 'silent' });
let database: DatabaseHandle;
let nowMs = Date.parse('2026-11-22T12:00:00Z');
const now = () => nowMs;
const advanceSeconds = (seconds: number) => {
  nowMs += seconds * 1000;
};

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});
beforeEach(async () => {
  await database.db.delete(sourceCache);
});

type Provider = Upstream;

const startProvider = upstreamServers();

/** One server process: its own memory tier, the shared database, the shared test clock. */
function serverProcess(options: Partial<SharedContentCacheOptions> = {}) {
  const cache = createSharedContentCache({ db: database.db, logger, now, ...options });
  return createProviderHttp({
    safeFetch: createSafeFetch({ allowPrivateHosts: ['127.0.0.1'] }),
    cache,
    now,
  });
}

const feed = (provider: Provider, path = '/feed.xml'): ProviderRequest => ({
  provider: 'The feed',
  url: `${provider.base}${path}`,
});

const rows = () => database.db.select().from(sourceCache);

describe('the shared content cache', () => {
  it("gives a second process the first one's answer without going upstream", async () => {
    const provider = await startProvider((_, response) =>
      response
        .writeHead(200, { 'content-type': 'application/rss+xml', 'cache-control': 'max-age=600' })
        .end('<rss><channel><title>News</title></channel></rss>'),
    );
    const first = await serverProcess().text(feed(provider));
    const second = await serverProcess().text(feed(provider));
    expect(provider.requests).toHaveLength(1);
    expect(second).toEqual(first);
    expect(second.contentType).toBe('application/rss+xml');
  });

  it("keeps a row's remaining freshness in the other process's memory, not a whole new lifetime", async () => {
    let version = 1;
    const provider = await startProvider((_, response) =>
      response.writeHead(200, { 'cache-control': 'max-age=600' }).end(`v${version}`),
    );
    await serverProcess().text(feed(provider));
    advanceSeconds(500);
    const second = serverProcess();
    expect((await second.text(feed(provider))).body).toBe('v1');
    version = 2;
    advanceSeconds(101);
    expect((await second.text(feed(provider))).body).toBe('v2');
    expect(provider.requests).toHaveLength(2);
  });

  it('revalidates an expired row with its ETag, and a 304 renews the row for every process', async () => {
    const provider = await startProvider((request, response) => {
      if (request.headers['if-none-match'] === '"v1"')
        response.writeHead(304, { 'cache-control': 'max-age=600' }).end();
      else response.writeHead(200, { etag: '"v1"', 'cache-control': 'max-age=60' }).end('the feed');
    });
    const first = serverProcess();
    await first.text(feed(provider));
    advanceSeconds(61);
    expect((await serverProcess().text(feed(provider))).body).toBe('the feed');
    expect(provider.requests).toHaveLength(2);
    expect(provider.requests[1]?.headers['if-none-match']).toBe('"v1"');
    const [row] = await rows();
    expect(row?.expiresAt.getTime()).toBe(nowMs + 600_000);
    expect(row?.headers['cache-control']).toBe('max-age=600');

    // The first process's memory copy is stale too; the renewed row answers it.
    expect((await first.text(feed(provider))).body).toBe('the feed');
    expect(provider.requests).toHaveLength(2);
  });

  it('makes another process fail fast while a Retry-After lasts', async () => {
    const provider = await startProvider((_, response) =>
      response.writeHead(429, { 'retry-after': '30' }).end('{"error":"slow down"}'),
    );
    const request = { ...feed(provider, '/r/news.json'), provider: 'Reddit' };
    expect(await sourceFailure(serverProcess().text(request))).toMatchObject({
      kind: 'rate_limited',
      retryAfterSeconds: 30,
    });
    advanceSeconds(10);
    const other = serverProcess();
    const fastFail = await sourceFailure(other.text(request));
    expect(fastFail).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 20 });
    expect(provider.requests).toHaveLength(1);

    advanceSeconds(21);
    await sourceFailure(serverProcess().text(request));
    expect(provider.requests).toHaveLength(2);
  });

  it('keeps only the window of a rate limit, never its body or headers', async () => {
    const provider = await startProvider((_, response) =>
      response
        .writeHead(429, { 'retry-after': '30', 'x-padding': 'x'.repeat(4096) })
        .end(Buffer.alloc(100_000)),
    );
    await sourceFailure(serverProcess().text(feed(provider)));
    const [row] = await rows();
    expect(row?.body.length).toBe(0);
    expect(row?.headers).toEqual({});
    expect(row?.retryAfterUntil).not.toBeNull();
  });

  it('still fetches when the database fails', async () => {
    const broken = await createTestDatabase();
    await broken.close();
    const provider = await startProvider((_, response) =>
      response.writeHead(200, { 'cache-control': 'max-age=600' }).end('the feed'),
    );
    const lost = serverProcess({ db: broken.db });
    expect((await lost.text(feed(provider))).body).toBe('the feed');
    expect((await lost.text(feed(provider))).body).toBe('the feed');
    // The memory tier still works without the database.
    expect(provider.requests).toHaveLength(1);
  });

  it('fetches without the database when it does not answer in time', async () => {
    // A "database" that accepts connections and never says a word.
    const sockets: Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const hanging = postgresDatabase(`postgres://digest@127.0.0.1:${port}/digest`, 1);
    const provider = await startProvider((_, response) =>
      response.writeHead(200, { 'cache-control': 'max-age=600' }).end('the feed'),
    );
    try {
      const started = performance.now();
      const answer = await serverProcess({ db: hanging.db, databaseTimeoutMs: 100 }).text(feed(provider));
      expect(answer.body).toBe('the feed');
      expect(performance.now() - started).toBeLessThan(1_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
      await hanging.close();
    }
  });

  it('stores no body above the size cap', async () => {
    const provider = await startProvider((_, response) =>
      response.writeHead(200, { 'cache-control': 'max-age=600' }).end(Buffer.alloc(2048, 'x')),
    );
    await serverProcess({ maxBodyBytes: 1024 }).text(feed(provider));
    await serverProcess({ maxBodyBytes: 1024 }).text(feed(provider));
    expect(provider.requests).toHaveLength(2);
    expect(await rows()).toEqual([]);
  });

  it("keeps one user's private answers (read with their account's token) out of the table", async () => {
    const provider = await startProvider((_, response) =>
      response.writeHead(200, { 'cache-control': 'max-age=600' }).end('{"events":[]}'),
    );
    const calendar = { ...feed(provider, '/calendar/v3/events'), private: true };
    const process = serverProcess();
    await process.text(calendar);
    await process.text(calendar);
    expect(provider.requests).toHaveLength(1);
    expect(await rows()).toEqual([]);
  });

  it('trims the table every so many writes, not only on its schedule', async () => {
    const provider = await startProvider((_, response) =>
      response.writeHead(200, { 'cache-control': 'max-age=600' }).end('<rss/>'),
    );
    let trims = 0;
    const process = serverProcess({
      trimEveryWrites: 3,
      trim: async () => {
        trims += 1;
      },
    });
    for (const path of ['/a', '/b', '/c', '/d', '/e', '/f', '/g']) await process.text(feed(provider, path));
    expect(trims).toBe(2);
  });

  it('lets one process fetch a key that no row holds yet while the others wait for its row', async () => {
    const provider = await startProvider((_, response) => {
      setTimeout(() => response.writeHead(200, { 'cache-control': 'max-age=600' }).end('the feed'), 200);
    });
    const answers = await Promise.all(
      [serverProcess(), serverProcess(), serverProcess()].map((process) => process.text(feed(provider))),
    );
    expect(answers.map((answer) => answer.body)).toEqual(['the feed', 'the feed', 'the feed']);
    expect(provider.requests).toHaveLength(1);
    expect(await rows()).toMatchObject([{ status: 200 }]);
  });

  it('gives up the claim when its fetch stores nothing, so a waiting process fetches at once', async () => {
    let answered = 0;
    const provider = await startProvider((_, response) => {
      answered += 1;
      if (answered === 1) setTimeout(() => response.writeHead(500).end('oops'), 200);
      else response.writeHead(200, { 'cache-control': 'max-age=600' }).end('the feed');
    });
    const started = performance.now();
    const [failed, waited] = await Promise.allSettled([
      serverProcess().text(feed(provider)),
      // Starts once the first has claimed the key.
      new Promise((resolve) => setTimeout(resolve, 50)).then(() => serverProcess().text(feed(provider))),
    ]);
    expect(failed.status).toBe('rejected');
    expect(waited).toMatchObject({ status: 'fulfilled', value: { body: 'the feed' } });
    expect(provider.requests).toHaveLength(2);
    // Not the claim's 30 s.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('stores neither failed nor uncacheable answers', async () => {
    const provider = await startProvider((request, response) => {
      if (request.url === '/broken') response.writeHead(500).end('oops');
      else response.writeHead(200, { 'cache-control': 'max-age=600' }).end('private');
    });
    await sourceFailure(serverProcess().text(feed(provider, '/broken')));
    await serverProcess().text({ ...feed(provider, '/private'), cache: false });
    expect(await rows()).toEqual([]);
  });

  it('keeps neither the API key of the query nor the credentials sent in the row', async () => {
    const provider = await startProvider((_, response) =>
      response
        .writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'session=abc', server: 'x' })
        .end('{"items":[]}'),
    );
    const request = {
      provider: 'YouTube',
      url: `${provider.base}/youtube/v3/search?q=cats&key=secret-api-key`,
      headers: { authorization: 'Bearer secret-token' },
    };
    await serverProcess().text(request);
    const [row] = await rows();
    expect(row).toMatchObject({ url: null, headers: { 'content-type': 'application/json' } });
    expect(row?.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toMatch(/secret|session=abc/);

    // Another process still sees the URL it asked for.
    const again = await serverProcess().text(request);
    expect(provider.requests).toHaveLength(1);
    expect(new URL(again.url).searchParams.get('q')).toBe('cats');
  });

  it('gives another process the final URL of a redirect', async () => {
    const provider = await startProvider((request, response) => {
      if (request.url === '/old') response.writeHead(301, { location: '/new/feed.xml' }).end();
      else response.writeHead(200, { 'cache-control': 'max-age=600' }).end('<rss/>');
    });
    await serverProcess().text(feed(provider, '/old'));
    const again = await serverProcess().text(feed(provider, '/old'));
    expect(again.url).toBe(`${provider.base}/new/feed.xml`);
    expect(provider.requests).toHaveLength(2);
  });
});
