/**
 * CPU time of rendering one issue (HTML and text) with a warm rendered-block cache: what a burst's build
 * pays per digest once its feeds' blocks are cached. 5 RSS blocks of 10 items each.
 *
 *   NODE_ENV=production npx tsx --tsconfig packages/email/tsconfig.json bench/render-issue.ts   # RUNS=400
 */
import type { BlockHtmlCache, RenderedEmail } from '@digest/email';
import { blockHtmlKeyParts, renderDigestEmail } from '@digest/email';
import { blockOf, rssContent } from '../packages/email/src/digest/test-blocks';

const RUNS = Number(process.env.RUNS ?? 400);
const WARM_UP = 50;

const remembered = new Map<string, RenderedEmail>();
const blockCache: BlockHtmlCache = {
  rendered(block, context, render) {
    const key = blockHtmlKeyParts(block, context);
    const found = remembered.get(key) ?? render();
    remembered.set(key, found);
    return found;
  },
};

const blocks = [1, 2, 3, 4, 5].map((n) =>
  blockOf('RSS', rssContent(10), { feedLink: `https://feed-${n}.example.org/feed.xml` }),
);
const input = (issueNumber: number) => ({
  digestName: 'Morning reading',
  issueNumber,
  date: new Date('2026-11-26T07:00:00Z'),
  timeZone: 'Europe/Warsaw',
  locale: 'en-US',
  blocks,
});

for (let i = 0; i < WARM_UP; i++) await renderDigestEmail(input(i), { blockCache });
const cpu = process.cpuUsage();
const wall = performance.now();
for (let i = 0; i < RUNS; i++) await renderDigestEmail(input(i), { blockCache });
const used = process.cpuUsage(cpu);
const perIssue = (micros: number) => (micros / 1000 / RUNS).toFixed(2);
console.log(
  `${RUNS} issues: CPU ${perIssue(used.user + used.system)} ms per issue, wall ${((performance.now() - wall) / RUNS).toFixed(2)} ms`,
);
