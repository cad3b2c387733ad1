// Feed parsing throughput over the corpora in ../shared/corpora (gofeed's test data and rss-parser's
// real-world feeds): every file parsed RUNS times, bytes and items counted, after WARMUP untimed runs.
//
//   npx tsx bench/feed-parse.ts                 RUNS=20 WARMUP=3 by default
//   CORPORA=/path/to/corpora RUNS=50 npx tsx bench/feed-parse.ts
//
// Files that are not feeds (expected-output JSON, an invalid feed, the DOCTYPE one) are parsed too and
// answer a SourceError, as they would in production; they count in MB/s, not in items.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseFeed } from '#server/sources/rss/feed-parser';
import { findFeedCorpora } from '#test/feed-corpora';

function fail(message: string): never {
  console.error(`feed-parse: ${message}`);
  process.exit(1);
}

const corpora =
  process.env.CORPORA ?? findFeedCorpora() ?? fail('the feed corpora were not found: set CORPORA');
const runs = Number(process.env.RUNS ?? 20);
const warmup = Number(process.env.WARMUP ?? 3);

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

interface Sample {
  name: string;
  bytes: Buffer;
}

/** Parses every sample once; the number of items read. */
function parseAll(samples: Sample[]): number {
  let items = 0;
  for (const sample of samples) {
    try {
      items += parseFeed(sample.bytes, { url: 'https://example.org/feed' }).items.length;
    } catch {
      // Not a feed: refused, as in production.
    }
  }
  return items;
}

function measure(label: string, samples: Sample[]) {
  const bytes = samples.reduce((total, sample) => total + sample.bytes.length, 0);
  for (let run = 0; run < warmup; run += 1) parseAll(samples);
  let items = 0;
  const started = process.hrtime.bigint();
  for (let run = 0; run < runs; run += 1) items += parseAll(samples);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const row = {
    label,
    files: samples.length,
    'MB per run': (bytes / 1e6).toFixed(2),
    'items per run': items / runs,
    'ms per run': ((seconds * 1000) / runs).toFixed(1),
    'items/s': Math.round(items / seconds),
    'MB/s': ((bytes * runs) / 1e6 / seconds).toFixed(1),
  };
  return row;
}

const all: Sample[] = filesUnder(corpora)
  .filter((path) => !/(?:LICENSE|README\.md)$/.test(path))
  .map((path) => ({ name: path.slice(corpora.length), bytes: readFileSync(path) }));
const realWorld = all.filter((sample) => sample.name.startsWith('rss-parser/test/input/'));
const largest = [...all].sort((a, b) => b.bytes.length - a.bytes.length).slice(0, 1);

console.log(`Node ${process.version}, ${runs} runs after ${warmup} warm-up runs, corpora at ${corpora}`);
console.table([
  measure('every corpus file', all),
  measure('rss-parser real-world feeds', realWorld),
  measure(`largest file (${largest[0]?.name})`, largest),
]);
