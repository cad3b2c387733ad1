/**
 * YouTube: the Data API v3 (`YOUTUBE_BASE_URL`: `/search` for channels, `/channels` by id, both with a
 * key) and the channel feeds (`YOUTUBE_FEEDS_BASE_URL`: `/videos.xml?channel_id=`, no key), from
 * recordings in the shapes YouTube answers. Search matches the recorded channels whose title or
 * description contains one of the query's words; `/channels` answers the recorded channels among `id`
 * and leaves unknown ids out, as YouTube does. A channel without a recorded feed answers 404 like
 * YouTube's feed server. A missing or wrong key is refused in the Data API's error shape.
 * Its pages (`YOUTUBE_WEB_BASE_URL`): a recorded channel's `/@handle` names the channel as youtube.com does
 * (canonical link, embedded `externalId`), a recorded video's `/watch?v=` names its channel (`channelId`
 * meta); any other page is YouTube's 404. The Data API recordings are held to `@googleapis/youtube`'s
 * types in `sdk-shapes.test.ts`.
 *
 * Outages: YouTube's feed server has answered 404 (and 500) for every channel at once, for hours. The
 * fake's `feedOutage(status)` makes every feed answer that status, the Data API and the pages still
 * answering, as in those outages; `feedOutage(undefined)` ends it.
 */
import { readFileSync } from 'node:fs';
import type { FakeProvider, FakeRequest, FakeResponse } from '../fake-provider';

export const FAKE_YOUTUBE_KEY = 'fake-youtube-key';

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/youtube/${name}`, import.meta.url), 'utf8');

interface RecordedChannel {
  id: string;
  snippet: { title: string; description: string };
  [field: string]: unknown;
}
interface RecordedSearchResult {
  id: { kind: string; channelId: string };
  snippet: { title: string; description: string };
  [field: string]: unknown;
}

const channelList: { items: RecordedChannel[] } & Record<string, unknown> = JSON.parse(
  fixture('channels.json'),
);
const searchList: { items: RecordedSearchResult[] } & Record<string, unknown> = JSON.parse(
  fixture('search-channels.json'),
);
const FEED_CHANNELS = [
  'UCHnyfMqiRRG1u-2MsSQLbXA',
  'UCsBjURrPoezykLs9EqgamOA',
  'UCS0N5baNlQWJCUrhCEo8WlA',
  // YouTube's own channel.
  'UCBR8-60-B28hp2BmDPdntcQ',
];

/** The Data API's error body (`reason` in `errors[]`, gRPC status name beside the code). */
function dataApiError(status: number, reason: string, message: string, statusName: string): FakeResponse {
  return {
    status,
    body: {
      error: { code: status, message, errors: [{ message, domain: 'global', reason }], status: statusName },
    },
  };
}

function refuseKey(request: FakeRequest): FakeResponse | undefined {
  const key = request.query.get('key');
  if (!key) {
    return dataApiError(
      403,
      'forbidden',
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
      'PERMISSION_DENIED',
    );
  }
  if (key !== FAKE_YOUTUBE_KEY) {
    return dataApiError(
      400,
      'badRequest',
      'API key not valid. Please pass a valid API key.',
      'INVALID_ARGUMENT',
    );
  }
  return undefined;
}

const requiredParameter = (name: string) =>
  dataApiError(400, 'required', `Required parameter: ${name}`, 'INVALID_ARGUMENT');

/** `maxResults` as the Data API reads it (0..50, default 5), or an error answer. */
function maxResultsOf(request: FakeRequest): number | FakeResponse {
  const value = request.query.get('maxResults') ?? '5';
  const count = Number(value);
  if (!/^\d+$/.test(value) || count > 50) {
    return dataApiError(
      400,
      'invalidParameter',
      `Invalid value '${value}'. Values must be within the range: [0, 50]`,
      'INVALID_ARGUMENT',
    );
  }
  return count;
}

function search(request: FakeRequest): FakeResponse {
  if (request.query.get('part') !== 'snippet') return requiredParameter('part');
  const maxResults = maxResultsOf(request);
  if (typeof maxResults !== 'number') return maxResults;
  const words = (request.query.get('q') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const type = request.query.get('type');
  const items = searchList.items.filter((item) => {
    if (type && item.id.kind !== `youtube#${type}`) return false;
    const text = `${item.snippet.title} ${item.snippet.description}`.toLowerCase();
    return words.length === 0 || words.some((word) => text.includes(word));
  });
  return {
    body: {
      ...searchList,
      pageInfo: { totalResults: items.length, resultsPerPage: maxResults },
      items: items.slice(0, maxResults),
    },
  };
}

function channels(request: FakeRequest): FakeResponse {
  const parts = (request.query.get('part') ?? '').split(',');
  if (!parts.includes('snippet') && !parts.includes('statistics')) return requiredParameter('part');
  const ids = request.query.get('id');
  if (!ids) {
    return dataApiError(
      400,
      'missingRequiredParameter',
      'No filter selected. Expected one of: forUsername, managedByMe, categoryId, mine, mySubscribers, id, idParam',
      'INVALID_ARGUMENT',
    );
  }
  const wanted = ids.split(',');
  if (wanted.length > 50) {
    return dataApiError(400, 'invalidParameter', 'Too many ids: at most 50 are allowed', 'INVALID_ARGUMENT');
  }
  const items = channelList.items
    .filter((item) => wanted.includes(item.id))
    .map((item) =>
      Object.fromEntries(
        Object.entries(item).filter(
          ([key]) => !['snippet', 'statistics'].includes(key) || parts.includes(key),
        ),
      ),
    );
  return { body: { ...channelList, pageInfo: { totalResults: items.length, resultsPerPage: 5 }, items } };
}

function feed(request: FakeRequest, outage: number | undefined): FakeResponse | undefined {
  if (outage !== undefined) {
    return {
      status: outage,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!DOCTYPE html><title>${outage === 404 ? '404 Not Found' : 'Error'}</title>`,
    };
  }
  const channelId = request.query.get('channel_id');
  if (!channelId)
    return { status: 400, headers: { 'content-type': 'text/html; charset=utf-8' }, body: 'Bad Request' };
  if (!FEED_CHANNELS.includes(channelId)) {
    return {
      status: 404,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<!DOCTYPE html><title>404 Not Found</title>',
    };
  }
  return {
    headers: { 'content-type': 'text/xml; charset=UTF-8', 'cache-control': 'public, max-age=900' },
    body: fixture(`feeds/${channelId}.xml`),
  };
}

const html = (status: number, body: string): FakeResponse => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!DOCTYPE html><html lang="en"><head>${body}</head><body></body></html>`,
});

/** `@handle` (lower case) → channel id, from the recorded channels' custom URLs. */
const HANDLES = new Map(
  channelList.items.flatMap((item) => {
    const customUrl = (item.snippet as { customUrl?: string }).customUrl;
    return customUrl ? [[customUrl.toLowerCase(), item.id] as const] : [];
  }),
);

/** Video id → channel id, from the recorded feeds. */
const VIDEOS = new Map(
  FEED_CHANNELS.flatMap((channelId) =>
    [...fixture(`feeds/${channelId}.xml`).matchAll(/<yt:videoId>([^<]+)<\/yt:videoId>/g)].map(
      (match) => [match[1] as string, channelId] as const,
    ),
  ),
);

function page(request: FakeRequest): FakeResponse {
  const path = request.path.slice('/web'.length);
  const notFound = html(404, '<title>404 Not Found</title>');
  if (path === '/watch') {
    const channelId = VIDEOS.get(request.query.get('v') ?? '');
    if (!channelId) return notFound;
    return html(200, `<title>A video - YouTube</title><meta itemprop="channelId" content="${channelId}">`);
  }
  const channelId = HANDLES.get(decodeURIComponent(path.slice(1)).toLowerCase());
  if (!channelId) return notFound;
  return html(
    200,
    `<title>YouTube</title><link rel="canonical" href="https://www.youtube.com/channel/${channelId}">` +
      `<script>var ytInitialData = {"metadata":{"channelMetadataRenderer":{"externalId":"${channelId}"}}};</script>`,
  );
}

export interface YoutubeFake extends FakeProvider {
  /** Every channel feed answers `status` (an outage of YouTube's feed server); undefined ends it. */
  feedOutage(status: number | undefined): void;
}

export function youtubeFake(): YoutubeFake {
  let outage: number | undefined;
  return {
    feedOutage: (status) => {
      outage = status;
    },
    prefix: '/youtube',
    env: { YOUTUBE_BASE_URL: '/v3', YOUTUBE_FEEDS_BASE_URL: '/feeds', YOUTUBE_WEB_BASE_URL: '/web' },
    credentials: { YOUTUBE_API_KEY: FAKE_YOUTUBE_KEY },
    handle(request) {
      if (request.method !== 'GET') return undefined;
      if (request.path === '/feeds/videos.xml') return feed(request, outage);
      if (request.path.startsWith('/web/')) return page(request);
      if (request.path === '/v3/search') return refuseKey(request) ?? search(request);
      if (request.path === '/v3/channels') return refuseKey(request) ?? channels(request);
      return dataApiError(404, 'notFound', 'Not Found', 'NOT_FOUND');
    },
  };
}
