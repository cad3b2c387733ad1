// Our feed parser beside the maintained feed-parser libraries (issue 16, decision 0003): correctness on
// the corpora in ../shared/corpora and on the failure classes of feed-interop.fixtures.ts, safety on the
// attacks a DOCTYPE carries, and speed.
//
//   npx tsx bench/feed-parsers-compare.ts          RUNS=5 WARMUP=1 by default; CORPORA=… to point elsewhere
//
// Every parser gets what it would get in an application: ours the bytes and the Content-Type (it decodes
// them itself), the libraries the bytes decoded as UTF-8 (what fetch's `response.text()` gives; none of
// them takes bytes). Their relative links are resolved against the feed's URL before comparing, as
// ours are. Each attack runs in a child process of its own (a parser that expands entities could take
// the whole memory), with a 20 s limit, while a local HTTP server counts what anything fetches.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractFromJson, extractFromXml } from '@extractus/feed-extractor';
import { parseFeed as rowanmanningParse } from '@rowanmanning/feed-parser';
import { parseFeed as feedsmithParse } from 'feedsmith';
import { attackFixtures, INTEROP_FIXTURES } from '#server/sources/rss/feed-interop.fixtures';
import { decodeFeedBody, parseFeed as oursParse } from '#server/sources/rss/feed-parser';
import { findFeedCorpora } from '#test/feed-corpora';

/** What the comparison reads of a feed. */
interface Shape {
  title: string;
  link: string;
  items: { title: string; link: string }[];
}

interface Input {
  bytes: Uint8Array;
  contentType?: string;
  url: string;
}

type Obj = Record<string, unknown>;
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const arr = (value: unknown): Obj[] => (Array.isArray(value) ? (value as Obj[]) : []);
const utf8 = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes);
/** feedsmith gives Atom text constructs as { value, type }. */
const textOf = (value: unknown): string =>
  typeof value === 'string' ? value : str((value as Obj | undefined)?.value);

function atomLink(links: unknown): string {
  const all = arr(links);
  const alternate = all.find((link) => (str(link.rel) || 'alternate') === 'alternate') ?? all[0];
  return str(alternate?.href);
}

const PARSERS: Record<string, (input: Input) => Shape> = {
  ours(input) {
    const feed = oursParse(input.bytes, { url: input.url, contentType: input.contentType });
    return { title: feed.title, link: feed.link, items: feed.items };
  },
  feedsmith(input) {
    const { format, feed } = feedsmithParse(utf8(input.bytes)) as { format: string; feed: Obj };
    if (format === 'atom') {
      return {
        title: textOf(feed.title),
        link: atomLink(feed.links),
        items: arr(feed.entries).map((entry) => ({
          title: textOf(entry.title),
          link: atomLink(entry.links),
        })),
      };
    }
    if (format === 'json') {
      return {
        title: str(feed.title),
        link: str(feed.home_page_url),
        items: arr(feed.items).map((item) => ({ title: str(item.title), link: str(item.url) })),
      };
    }
    return {
      title: str(feed.title),
      link: str(feed.link),
      items: arr(feed.items).map((item) => ({ title: str(item.title), link: str(item.link) })),
    };
  },
  '@rowanmanning/feed-parser'(input) {
    const feed = rowanmanningParse(utf8(input.bytes));
    return {
      title: feed.title ?? '',
      link: feed.url ?? '',
      items: feed.items.map((item) => ({ title: item.title ?? '', link: item.url ?? '' })),
    };
  },
  '@extractus/feed-extractor'(input) {
    const text = utf8(input.bytes).replace(/^\uFEFF/, '');
    const feed = (
      text.trimStart().startsWith('{')
        ? extractFromJson(JSON.parse(text), { baseUrl: input.url })
        : extractFromXml(text, { baseUrl: input.url })
    ) as Obj;
    return {
      title: str(feed.title),
      link: str(feed.link),
      items: arr(feed.entries).map((entry) => ({ title: str(entry.title), link: str(entry.link) })),
    };
  },
};

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
function sameUrl(ours: string, expected: string, base: string): boolean {
  const resolve = (value: string) => (URL.canParse(value, base) ? new URL(value, base).href : value);
  return expected === '' ? ours === '' : resolve(ours) === resolve(expected);
}

// ---------------------------------------------------------------------------------------------------
// One attack in a child process: `… attack PARSER INDEX ORIGIN` prints one JSON line
// ---------------------------------------------------------------------------------------------------

if (process.argv[2] === 'attack') {
  const [, , , name = '', index = '0', origin = ''] = process.argv;
  const attack = attackFixtures(origin)[Number(index)];
  const parse = PARSERS[name];
  if (!attack || !parse) throw new Error('no such attack or parser');
  const started = performance.now();
  let output = '';
  let outcome = 'read';
  try {
    output = JSON.stringify(
      parse({ bytes: new TextEncoder().encode(attack.text), url: 'https://evil.example/' }),
    );
  } catch (error) {
    outcome = `refused (${String(error instanceof Error ? error.message : error).slice(0, 60)})`;
  }
  const ms = performance.now() - started;
  const expanded = output.length > attack.text.length * 3 || /lollollol|root:|LEAKED/.test(output);
  // Anything fetched is fetched asynchronously: give it time to arrive before exiting.
  setTimeout(() => {
    console.log(JSON.stringify({ outcome, ms, expanded, outputLength: output.length }));
    process.exit(0);
  }, 200);
} else {
  await main();
}

// ---------------------------------------------------------------------------------------------------
// The comparison
// ---------------------------------------------------------------------------------------------------

async function main() {
  const corpora = process.env.CORPORA ?? findFeedCorpora();
  if (!corpora) {
    console.error('feed-parsers-compare: the feed corpora were not found: set CORPORA');
    process.exit(1);
  }
  const runs = Number(process.env.RUNS ?? 5);
  const warmup = Number(process.env.WARMUP ?? 1);
  const FEED_URL = 'https://example.org/feed';

  const filesUnder = (folder: string): string[] =>
    readdirSync(folder).flatMap((name) => {
      const path = join(folder, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });

  // Feed files: every input of gofeed's test data (not its expected-output JSON) and rss-parser's.
  const gofeed = join(corpora, 'gofeed/testdata');
  const feedFiles = [
    ...filesUnder(gofeed).filter(
      (path) =>
        /\.(?:xml|json)$/.test(path) &&
        !path.endsWith('_expected.json') &&
        !(path.includes('/translator/') && path.endsWith('.json') && !path.includes('/translator/json/')) &&
        !(path.includes('/parser/') && path.endsWith('.json') && !path.includes('/parser/json/')),
    ),
    ...filesUnder(join(corpora, 'rss-parser/test/input')),
  ];
  const inputs = feedFiles.map((path) => ({
    path,
    bytes: new Uint8Array(readFileSync(path)),
    url: FEED_URL,
  }));

  // Title and link expectations: gofeed's normalised feeds and rss-parser's outputs.
  interface Expectation {
    file: string;
    input: Input;
    title: string;
    link?: string;
    items: { title: string; link: string }[];
  }
  const expectations: Expectation[] = [];
  for (const kind of ['rss', 'atom', 'json']) {
    const folder = join(gofeed, 'translator', kind);
    for (const name of readdirSync(folder)) {
      const isExpected = kind === 'json' ? name.endsWith('_expected.json') : name.endsWith('.json');
      if (!isExpected) continue;
      const source = kind === 'json' ? name.replace('_expected', '') : name.replace(/\.json$/, '.xml');
      const expected = JSON.parse(readFileSync(join(folder, name), 'utf8'));
      expectations.push({
        file: `gofeed ${kind}/${source}`,
        input: { bytes: new Uint8Array(readFileSync(join(folder, source))), url: FEED_URL },
        title: str(expected.title),
        link: str(expected.link),
        items: arr(expected.items).map((item) => ({ title: str(item.title), link: str(item.link) })),
      });
    }
  }
  const rssParser = join(corpora, 'rss-parser/test');
  for (const name of readdirSync(join(rssParser, 'output'))) {
    const base = name.replace(/\.json$/, '');
    const source = ['rss', 'atom']
      .map((ext) => join(rssParser, 'input', `${base}.${ext}`))
      .find((path) => {
        try {
          return statSync(path).isFile();
        } catch {
          return false;
        }
      });
    if (!source) continue;
    const expected = JSON.parse(readFileSync(join(rssParser, 'output', name), 'utf8')).feed;
    expectations.push({
      file: `rss-parser ${base}`,
      input: { bytes: new Uint8Array(readFileSync(source)), url: FEED_URL },
      title: str(expected.title),
      items: arr(expected.items).map((item) => ({ title: str(item.title), link: str(item.link) })),
    });
  }

  const misses: string[] = [];
  function correctness(name: string, parse: (input: Input) => Shape) {
    let accepted = 0;
    for (const input of inputs) {
      try {
        parse(input);
        accepted += 1;
      } catch {
        if (process.env.MISSES === name) misses.push(`refused ${input.path}`);
      }
    }
    let met = 0;
    let total = 0;
    for (const expectation of expectations) {
      let feed: Shape | undefined;
      try {
        feed = parse(expectation.input);
      } catch {
        feed = undefined;
      }
      // An expected text with U+FFFD is the other parser's misreading (rss-parser read a latin-1 feed as
      // UTF-8): it is no expectation, and is skipped.
      const sameText = (got: string | undefined, expected: string) =>
        expected.includes('\uFFFD') ? undefined : collapse(got ?? '') === collapse(expected);
      const checks = [sameText(feed?.title, expectation.title)];
      if (expectation.link !== undefined) checks.push(sameUrl(feed?.link ?? '', expectation.link, FEED_URL));
      expectation.items.forEach((item, index) => {
        const ours = feed?.items[index];
        checks.push(sameText(ours?.title, item.title));
        checks.push(sameUrl(ours?.link ?? '', item.link, FEED_URL));
      });
      if (process.env.MISSES === name) {
        for (const [index, ok] of checks.entries())
          if (ok === false) misses.push(`${expectation.file} check ${index}`);
      }
      total += checks.filter((check) => check !== undefined).length;
      met += checks.filter(Boolean).length;
    }
    const onFixtures = (read: (input: Input) => Shape) => {
      let fixturesRead = 0;
      let fixtureChecks = 0;
      let fixturesMet = 0;
      for (const fixture of INTEROP_FIXTURES) {
        let feed: Shape | undefined;
        try {
          feed = read(fixture);
          fixturesRead += 1;
        } catch {
          feed = undefined;
        }
        const { title, link, itemTitle, itemLink } = fixture.expected;
        const item = feed?.items[0];
        const checks: boolean[] = [];
        if (title !== undefined) checks.push(collapse(feed?.title ?? '') === title);
        if (link !== undefined) checks.push(sameUrl(feed?.link ?? '', link, fixture.url));
        if (itemTitle !== undefined) checks.push(collapse(item?.title ?? '') === itemTitle);
        if (itemLink !== undefined) checks.push(sameUrl(item?.link ?? '', itemLink, fixture.url));
        fixtureChecks += checks.length;
        fixturesMet += checks.filter(Boolean).length;
      }
      return { fixturesRead, fixtureChecks, fixturesMet };
    };
    const fixtures = onFixtures(parse);
    // The same, each feed handed over already decoded by our decodeFeedBody (as UTF-8): the format layer alone.
    const decoded = onFixtures((input) =>
      parse({
        ...input,
        bytes: new TextEncoder().encode(decodeFeedBody(input.bytes, input.contentType)),
        // The text is UTF-8 now, whatever its XML declaration still says.
        contentType: 'application/xml; charset=utf-8',
      }),
    );
    return {
      'corpus files read': `${accepted} / ${inputs.length}`,
      'corpus title/link expectations met': `${met} / ${total}`,
      'failure-class feeds read': `${fixtures.fixturesRead} / ${INTEROP_FIXTURES.length}`,
      'failure-class expectations met': `${fixtures.fixturesMet} / ${fixtures.fixtureChecks}`,
      'same, text decoded by ours': `${decoded.fixturesMet} / ${decoded.fixtureChecks}`,
    };
  }

  const realWorld = inputs.filter((input) => input.path.includes('rss-parser/test/input/'));
  function speed(parse: (input: Input) => Shape, samples: typeof inputs) {
    const bytes = samples.reduce((sum, sample) => sum + sample.bytes.length, 0);
    const once = () => {
      let items = 0;
      for (const sample of samples) {
        try {
          items += parse(sample).items.length;
        } catch {
          // refused
        }
      }
      return items;
    };
    for (let run = 0; run < warmup; run += 1) once();
    let items = 0;
    const started = process.hrtime.bigint();
    for (let run = 0; run < runs; run += 1) items += once();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return {
      itemsPerSecond: Math.round(items / seconds),
      mbPerSecond: ((bytes * runs) / 1e6 / seconds).toFixed(1),
    };
  }

  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    response.end('<!ENTITY exfil "LEAKED">');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const attacks = attackFixtures(origin);
  const self = fileURLToPath(import.meta.url);

  function safety(name: string) {
    const results: string[] = [];
    let safe = 0;
    let slowest = 0;
    let refused = 0;
    for (const [index, attack] of attacks.entries()) {
      const child = childResults.get(`${name}#${index}`);
      const fetched = fetchedBy.get(`${name}#${index}`) ?? 0;
      if (!child) {
        results.push(`${attack.name}: no answer in 20 s or crashed`);
        continue;
      }
      slowest = Math.max(slowest, child.ms);
      if (child.outcome.startsWith('refused')) refused += 1;
      const ok = !child.expanded && fetched === 0 && child.ms < 2_000;
      if (ok) safe += 1;
      else
        results.push(
          `${attack.name}: ${child.expanded ? 'expanded' : ''}${fetched ? ` ${fetched} fetch(es)` : ''} ${Math.round(child.ms)} ms`,
        );
    }
    const summary = `${safe} / ${attacks.length} (${refused} refused), slowest ${Math.round(slowest)} ms`;
    return { summary, failures: results };
  }

  // Attacks first, asynchronously (the HTTP server must be able to answer while a child runs).
  const childResults = new Map<string, { ms: number; expanded: boolean; outcome: string } | undefined>();
  const fetchedBy = new Map<string, number>();
  for (const name of Object.keys(PARSERS)) {
    for (const index of attacks.keys()) {
      const before = requests.length;
      const result = await new Promise<string>((resolve) => {
        const child = spawn(
          process.execPath,
          [...process.execArgv, self, 'attack', name, String(index), origin],
          {
            stdio: ['ignore', 'pipe', 'ignore'],
            timeout: 20_000,
          },
        );
        let out = '';
        child.stdout.on('data', (chunk) => {
          out += chunk;
        });
        child.on('close', () => resolve(out));
      });
      fetchedBy.set(`${name}#${index}`, requests.length - before);
      const line = result.trim().split('\n').pop() ?? '';
      try {
        childResults.set(`${name}#${index}`, JSON.parse(line));
      } catch {
        childResults.set(`${name}#${index}`, undefined);
      }
    }
  }

  console.log(`Node ${process.version}, speed: ${runs} runs after ${warmup} warm-up, corpora at ${corpora}`);
  const rows: Record<string, Record<string, string | number>> = {};
  const notes: string[] = [];
  for (const [name, parse] of Object.entries(PARSERS)) {
    const all = speed(parse, inputs);
    const real = speed(parse, realWorld);
    const attacksResult = safety(name);
    rows[name] = {
      ...correctness(name, parse),
      'attacks safe (no expansion, no fetch, < 2 s)': attacksResult.summary,
      'items/s, real-world feeds': real.itemsPerSecond,
      'MB/s, real-world feeds': real.mbPerSecond,
      'items/s, every feed file': all.itemsPerSecond,
      'MB/s, every feed file': all.mbPerSecond,
    };
    for (const failure of attacksResult.failures) notes.push(`${name}: ${failure}`);
  }
  console.table(rows);
  if (misses.length) console.log(misses.join('\n'));
  for (const note of notes) console.log(note);
  console.log(
    `requests received by the attack server: ${requests.length} (${[...new Set(requests)].join(', ')})`,
  );
  server.close();
}
