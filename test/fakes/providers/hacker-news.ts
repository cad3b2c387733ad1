/**
 * Hacker News through its Algolia API: `/v1/search` (by popularity) and `/v1/search_by_date` (newest
 * first) over one pool of recorded stories, filtered by `tags` (comma = and, parentheses = or) and
 * `numericFilters` as Algolia does. The recorded times are moved so the newest story is five minutes old,
 * which keeps "the last two days" filters meaningful whenever the fake runs.
 */
import { readFileSync } from 'node:fs';
import type { FakeProvider, FakeResponse } from '../fake-provider';

interface Hit {
  objectID: string;
  _tags: string[];
  created_at: string;
  created_at_i: number;
  updated_at: string;
  points: number;
  num_comments: number;
  [field: string]: unknown;
}

const RECORDINGS = [
  'search-front_page.json',
  'search_by_date-story.json',
  'search-ask_hn.json',
  'search-show_hn.json',
];

const recorded: Hit[] = [
  ...new Map(
    RECORDINGS.flatMap(
      (name): Hit[] =>
        JSON.parse(readFileSync(new URL(`../fixtures/hacker-news/${name}`, import.meta.url), 'utf8')).hits,
    ).map((hit) => [hit.objectID, hit]),
  ).values(),
];

/** The pool with its times moved so the newest story was posted five minutes ago. */
function currentHits(): Hit[] {
  const newest = Math.max(...recorded.map((hit) => hit.created_at_i));
  const shift = Math.floor(Date.now() / 1000) - 300 - newest;
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
  return recorded.map((hit) => ({
    ...hit,
    created_at_i: hit.created_at_i + shift,
    created_at: iso(hit.created_at_i + shift),
    updated_at: iso(Date.parse(hit.updated_at) / 1000 + shift),
  }));
}

const algoliaError = (status: number, message: string): FakeResponse => ({
  status,
  body: { message, status },
});

/** `story,(ask_hn,show_hn)` → every group must have one of its tags. */
function tagFilter(tags: string): (hit: Hit) => boolean {
  const groups = tags.match(/\([^)]*\)|[^,()]+/g) ?? [];
  const alternatives = groups.map((group) => group.replace(/[()]/g, '').split(',').filter(Boolean));
  return (hit) => alternatives.every((any) => any.some((tag) => hit._tags.includes(tag)));
}

const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '=': (a, b) => a === b,
};

/** `created_at_i>1700000000,points>=10`, or undefined when a filter is malformed. */
function numericFilter(filters: string): ((hit: Hit) => boolean) | undefined {
  const tests: ((hit: Hit) => boolean)[] = [];
  for (const filter of filters.split(',').filter(Boolean)) {
    const match = /^\s*(created_at_i|points|num_comments)\s*(>=|<=|>|<|=)\s*(-?\d+)\s*$/.exec(filter);
    const compare = match && COMPARE[match[2] as string];
    if (!match || !compare) return undefined;
    const [, field, , value] = match;
    tests.push((hit) => compare(Number(hit[field as string]), Number(value)));
  }
  return (hit) => tests.every((test) => test(hit));
}

function answer(byDate: boolean, query: URLSearchParams): FakeResponse {
  const hitsPerPage = Number(query.get('hitsPerPage') ?? 20);
  if (!Number.isInteger(hitsPerPage) || hitsPerPage < 0 || hitsPerPage > 1000) {
    return algoliaError(400, 'hitsPerPage must be an integer between 0 and 1000');
  }
  const numeric = numericFilter(query.get('numericFilters') ?? '');
  if (!numeric) return algoliaError(400, `invalid numericFilters: ${query.get('numericFilters')}`);
  const matchesTags = tagFilter(query.get('tags') ?? '');
  const hits = currentHits()
    .filter((hit) => matchesTags(hit) && numeric(hit))
    .sort((a, b) =>
      byDate ? b.created_at_i - a.created_at_i : b.points - a.points || b.num_comments - a.num_comments,
    );
  return {
    body: {
      exhaustive: { nbHits: true, typo: true },
      exhaustiveNbHits: true,
      exhaustiveTypo: true,
      hits: hits.slice(0, hitsPerPage),
      hitsPerPage,
      nbHits: hits.length,
      nbPages: hitsPerPage === 0 ? 0 : Math.ceil(hits.length / hitsPerPage),
      page: 0,
      params: query.toString(),
      processingTimeMS: 1,
      query: query.get('query') ?? '',
      serverTimeMS: 2,
    },
  };
}

export const hackerNewsFake: FakeProvider = {
  prefix: '/hn',
  env: { HN_BASE_URL: '' },
  handle(request) {
    if (request.method !== 'GET') return algoliaError(405, 'Method not allowed');
    if (request.path === '/v1/search') return answer(false, request.query);
    if (request.path === '/v1/search_by_date') return answer(true, request.query);
    return algoliaError(404, 'Not Found');
  },
};
