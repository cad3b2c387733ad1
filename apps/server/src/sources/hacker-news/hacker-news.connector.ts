import type { HackerNewsSource } from '@digest/contracts';
import type { HackerNewsContent, HackerNewsItem } from '@digest/contracts/content';
import type { Connector, SourcesDeps } from '#server/sources/connector';
import { httpUrlOrEmpty } from '#server/sources/safe-link';
import { type HackerNewsHit, type HackerNewsSearch, hackerNewsClient } from './hacker-news.client';

export type HackerNewsRequest = Pick<HackerNewsSource, 'story' | 'askHN' | 'showHN' | 'numberOfPosts'>;

/**
 * How far back "top" Ask HN and Show HN stories reach: Algolia ranks by points over all time, so without
 * a window the top Ask HN would be a decade old. Rounded to the hour so the request stays cacheable.
 */
const TOP_WINDOW_SECONDS = 2 * 24 * 3600;

const storyUrlOf = (id: string) => `https://news.ycombinator.com/item?id=${id}`;

/** Whole seconds of Algolia's `created_at_i`. */
const unixSeconds = (instant: Date) => Math.floor(instant.getTime() / 1000);

/**
 * A catch-up issue's searches: the best (most points) stories posted in the window, whatever the block's
 * usual order, since "the best of the time you were away" is what a reader missed; Ask HN and Show HN
 * likewise. The front page is now's, so the stories are searched by their posting time instead.
 */
function windowSearches(
  request: HackerNewsRequest,
  window: { since: Date; until: Date },
): HackerNewsSearch[] {
  const hitsPerPage = request.numberOfPosts;
  const range = { since: unixSeconds(window.since), until: unixSeconds(window.until) };
  const kind = (tags: string): HackerNewsSearch => ({ byDate: false, tags, hitsPerPage, ...range });
  return [
    kind('story'),
    ...(request.askHN ? [kind('ask_hn')] : []),
    ...(request.showHN ? [kind('show_hn')] : []),
  ];
}

/** The searches behind a block: its main list first, then the story kinds it adds. */
function searchesFor(request: HackerNewsRequest, now: Date): HackerNewsSearch[] {
  const byDate = request.story === 'latest';
  const hitsPerPage = request.numberOfPosts;
  const since = Math.floor(now.getTime() / 1000 / 3600) * 3600 - TOP_WINDOW_SECONDS;
  const kind = (tags: string): HackerNewsSearch =>
    byDate ? { byDate, tags, hitsPerPage } : { byDate, tags, hitsPerPage, since };
  return [
    { byDate, tags: byDate ? 'story' : 'front_page', hitsPerPage },
    ...(request.askHN ? [kind('ask_hn')] : []),
    ...(request.showHN ? [kind('show_hn')] : []),
  ];
}

/**
 * One list from several: the lists take turns giving their next story not yet taken, so each kind the
 * user asked for gets about an equal share of the `count` places; the result is then ordered as the main
 * list orders (newest first for latest, most points first for top).
 */
function mergeStories(lists: HackerNewsHit[][], byDate: boolean, count: number): HackerNewsHit[] {
  const taken = new Map<string, HackerNewsHit>();
  const queues = lists.map((list) => [...list]);
  while (taken.size < count && queues.some((queue) => queue.length > 0)) {
    for (const queue of queues) {
      let next = queue.shift();
      while (next && taken.has(next.objectID)) next = queue.shift();
      if (next && taken.size < count) taken.set(next.objectID, next);
    }
  }
  const points = (hit: HackerNewsHit) => hit.points ?? 0;
  return [...taken.values()].sort((a, b) =>
    byDate
      ? b.created_at_i - a.created_at_i
      : points(b) - points(a) || (b.num_comments ?? 0) - (a.num_comments ?? 0),
  );
}

function itemOf(hit: HackerNewsHit): HackerNewsItem {
  const storyUrl = storyUrlOf(hit.objectID);
  return {
    title: hit.title ?? '',
    // Ask HN and other text posts link nowhere else: their page is the discussion.
    url: httpUrlOrEmpty(hit.url) || storyUrl,
    storyUrl,
    createdAt: new Date(hit.created_at_i * 1000).toISOString(),
    numberOfComments: hit.num_comments ?? 0,
    score: hit.points ?? 0,
  };
}

export async function hackerNewsContent(
  deps: Pick<SourcesDeps, 'http' | 'providers' | 'clock'>,
  request: HackerNewsRequest,
  window?: { since: Date; until: Date },
): Promise<HackerNewsContent> {
  if (request.numberOfPosts === 0) return { items: [] };
  const client = hackerNewsClient(deps);
  const searches = window ? windowSearches(request, window) : searchesFor(request, deps.clock.now());
  const lists = await Promise.all(searches.map((search) => client.search(search)));
  const byDate = !window && request.story === 'latest';
  const stories = mergeStories(lists, byDate, request.numberOfPosts);
  return { items: stories.map(itemOf) };
}

export function hackerNewsConnector(deps: SourcesDeps): Connector<'HACKER_NEWS'> {
  return {
    type: 'HACKER_NEWS',
    fetchContent: (source, context) => hackerNewsContent(deps, source, context.window),
  };
}
