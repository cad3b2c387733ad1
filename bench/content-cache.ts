/**
 * The provider-HTTP path with and without the shared content cache, against a local HTTP server.
 *
 *   npx tsx bench/content-cache.ts
 *
 * Figures: latency of a cache hit vs a miss (1000 sequential requests each), 50 concurrent identical
 * requests (upstream count and wall time, cached vs not), and revalidation by 304 vs a full download.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createSafeFetch } from '#server/platform/safe-fetch/safe-fetch';
import { createMemoryContentCache, createProviderHttp } from '#server/sources/create-provider-http';
import type { ProviderRequest } from '#server/sources/provider-http';

const SEQUENTIAL = 1000;
const CONCURRENT = 50;
/** Time the fake provider takes to think, like a real one far away would (a real one takes longer). */
const UPSTREAM_DELAY_MS = 20;

const feed = JSON.stringify({
  items: Array.from({ length: 400 }, (_, i) => ({ id: i, title: 'x'.repeat(480) })),
});
let upstream = 0;
const server = http.createServer((request, response) => {
  upstream++;
  setTimeout(() => {
    if (request.headers['if-none-match'] === '"v1"') response.writeHead(304, { etag: '"v1"' }).end();
    else response.writeHead(200, { 'content-type': 'application/json', etag: '"v1"' }).end(feed);
  }, UPSTREAM_DELAY_MS);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

let nowMs = Date.now();
const now = () => nowMs;
const providerHttp = createProviderHttp({
  safeFetch: createSafeFetch({ allowPrivateHosts: ['127.0.0.1'] }),
  cache: createMemoryContentCache({ now }),
  now,
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function sequential(label: string, request: ProviderRequest) {
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const started = performance.now();
    await providerHttp.text(request);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
  const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
  console.log(
    `${label.padEnd(44)} mean ${us(mean)}, p50 ${us(percentile(times, 50))}, p99 ${us(percentile(times, 99))}`,
  );
}

async function fanIn(label: string, request: ProviderRequest) {
  upstream = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENT }, () => providerHttp.text(request)));
  console.log(
    `${label.padEnd(44)} ${upstream} upstream request(s), ${(performance.now() - started).toFixed(0)} ms wall`,
  );
}

console.log(
  `feed ${(feed.length / 1024).toFixed(0)} KiB, upstream delay ${UPSTREAM_DELAY_MS} ms, Node ${process.version}`,
);
await sequential(`miss (cache: false) x${SEQUENTIAL}`, {
  provider: 'bench',
  url: `${base}/miss`,
  cache: false,
});
await providerHttp.text({ provider: 'bench', url: `${base}/hit` });
await sequential(`hit x${SEQUENTIAL}`, { provider: 'bench', url: `${base}/hit` });
await fanIn(`${CONCURRENT} concurrent, cache: false`, {
  provider: 'bench',
  url: `${base}/fan-nocache`,
  cache: false,
});
await fanIn(`${CONCURRENT} concurrent identical, cached (cold)`, { provider: 'bench', url: `${base}/fan` });

// Revalidation: expire the copy each time, so every request is a conditional GET answered 304.
const times: number[] = [];
for (let i = 0; i < 200; i++) {
  nowMs += 3_600_000;
  const started = performance.now();
  await providerHttp.text({ provider: 'bench', url: `${base}/hit` });
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
console.log(
  `${'expired copy revalidated by 304 x200'.padEnd(44)} p50 ${(percentile(times, 50) * 1000).toFixed(0)} µs`,
);

server.close();
