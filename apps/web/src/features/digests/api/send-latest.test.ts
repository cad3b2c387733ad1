import type { Digest } from '@digest/contracts';
import { MutationObserver, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorMessage } from '#web/lib/api-client';
import { notifyError, notifyInfo, notifySuccess } from '#web/lib/notify';
import { createQueryClient } from '#web/lib/query-client';
import { endSession, startSession } from '#web/lib/session/session';
import { issuePager } from '../lib/issue-pager';
import { TEST_DIGEST_ID, testBuild, testDigest } from '../test-digests';
import { digestKeys, digestQueryOptions, sendLatestDigestOptions } from './use-digests';

vi.mock('#web/lib/notify', () => ({ notifyError: vi.fn(), notifyInfo: vi.fn(), notifySuccess: vi.fn() }));

const DIGEST_ID = TEST_DIGEST_ID;
const build = testBuild;
const digestWithBuilds = (count: number) => testDigest(count);

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A fake API: the digest has `builds` issues, and a rebuild answers `rebuild` (adding one when it is 200). */
function stubApi(rebuild: { status: number; body: unknown }) {
  let builds = 2;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (init?.method === 'GET' && url === `/api/digests/${DIGEST_ID}`) {
      return json(200, { digest: digestWithBuilds(builds) });
    }
    if (init?.method === 'GET' && url === '/api/digests') return json(200, { digests: [] });
    if (init?.method === 'POST' && url === `/api/digests/rebuild/${DIGEST_ID}`) {
      if (rebuild.status === 200) builds += 1;
      return json(rebuild.status, rebuild.body);
    }
    return json(404, { message: `unexpected ${init?.method} ${url}`, code: 'NOT_FOUND' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The Digest detail page's state: the digest query is observed (and so refetched), then Send latest digest. */
async function openDigestDetail() {
  const queryClient = createQueryClient();
  const digest = new QueryObserver(queryClient, digestQueryOptions(DIGEST_ID));
  const unsubscribe = digest.subscribe(() => {});
  await vi.waitFor(() => expect(digest.getCurrentResult().isSuccess).toBe(true));
  const sendLatest = new MutationObserver(queryClient, sendLatestDigestOptions(queryClient, DIGEST_ID));
  return { queryClient, digest, sendLatest, close: unsubscribe };
}

const calls = (fetchMock: ReturnType<typeof stubApi>, method: string, url: string) =>
  fetchMock.mock.calls.filter(([input, init]) => init?.method === method && String(input) === url);

beforeEach(() => {
  startSession({ accessToken: 'access-1' });
});

afterEach(() => {
  endSession();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('Send latest digest (docs/product.md §4: triggers rebuild, then selects the last build)', () => {
  it('POSTs the rebuild with the bearer token, is busy meanwhile, then has the new issue loaded and selectable', async () => {
    const fetchMock = stubApi({
      status: 200,
      body: { message: 'Your Digest is on its way.', build: build(3) },
    });
    const page = await openDigestDetail();
    expect(issuePager(page.digest.getCurrentResult().data?.builds ?? [], null)?.current.buildNumber).toBe(2);

    const sending = page.sendLatest.mutate();
    expect(page.sendLatest.getCurrentResult().isPending).toBe(true);
    const response = await sending;

    const [post] = calls(fetchMock, 'POST', `/api/digests/rebuild/${DIGEST_ID}`);
    expect(post?.[1]?.headers).toMatchObject({ Authorization: 'Bearer access-1' });
    expect(page.sendLatest.getCurrentResult().isPending).toBe(false);
    expect(notifySuccess).toHaveBeenCalledWith('Your Digest is on its way.');
    // The digest was reloaded before the mutation settled, so selecting the answer's build shows it.
    expect(calls(fetchMock, 'GET', `/api/digests/${DIGEST_ID}`)).toHaveLength(2);
    const reloaded = page.queryClient.getQueryData<Digest>(digestKeys.detail(DIGEST_ID));
    const pager = issuePager(reloaded?.builds ?? [], response.build.buildNumber);
    expect(pager?.current.buildNumber).toBe(3);
    expect(pager?.previous?.buildNumber).toBe(2);
    expect(pager?.next).toBeUndefined();
    page.close();
  });

  it('keeps and shows the message of a rate-limited rebuild (429), and reloads nothing', async () => {
    const fetchMock = stubApi({
      status: 429,
      body: { message: 'You can send this Digest again in 5 minutes.', code: 'RATE_LIMITED' },
    });
    const page = await openDigestDetail();

    await expect(page.sendLatest.mutate()).rejects.toMatchObject({ status: 429 });

    const result = page.sendLatest.getCurrentResult();
    expect(result.isError).toBe(true);
    expect(errorMessage(result.error)).toBe('You can send this Digest again in 5 minutes.');
    expect(notifyError).toHaveBeenCalledWith('You can send this Digest again in 5 minutes.');
    expect(notifySuccess).not.toHaveBeenCalled();
    expect(calls(fetchMock, 'GET', `/api/digests/${DIGEST_ID}`)).toHaveLength(1);
    page.close();
  });

  it.each([
    ['NOTHING_TO_SEND', 'Nothing new since the last issue.'],
    ['CONDITIONS_NOT_MET', 'Skipped: no rain expected (30 % < 60 %).'],
  ])('tells why nothing was sent (422 %s) as information, not as an error', async (code, message) => {
    stubApi({ status: 422, body: { message, code } });
    const page = await openDigestDetail();

    await expect(page.sendLatest.mutate()).rejects.toMatchObject({ status: 422 });

    expect(errorMessage(page.sendLatest.getCurrentResult().error)).toBe(message);
    expect(notifyInfo).toHaveBeenCalledWith(message);
    expect(notifyError).not.toHaveBeenCalled();
    page.close();
  });

  it('shows any other 422 as an error', async () => {
    stubApi({ status: 422, body: { message: 'This Digest has no sources.', code: 'VALIDATION_ERROR' } });
    const page = await openDigestDetail();

    await expect(page.sendLatest.mutate()).rejects.toMatchObject({ status: 422 });

    expect(notifyError).toHaveBeenCalledWith('This Digest has no sources.');
    expect(notifyInfo).not.toHaveBeenCalled();
    page.close();
  });
});
