import type { Source, User } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '#web/lib/api-client';
import { initialBuilderState } from '../store';
import {
  CONDITIONS_NOT_MET,
  type Completion,
  type CompletionApi,
  completeDigest,
  conditionsNotMetNotice,
  NOTHING_TO_SEND,
  NOTHING_TO_SEND_NOTICE,
} from './complete-digest';
import { completionOf } from './use-complete-digest';

const DIGEST_ID = '7f0f7c43-2f3b-4a0e-9b43-6a3f1d8a2b10';
const DRAFT_ID = '2c1d9a4e-8f4b-4c55-a2a9-0b6a6c7e3d21';
const hn = { type: 'HACKER_NEWS', name: 'Hacker News' } as Source;

const completion = (overrides: Partial<Completion> = {}): Completion => ({
  digest: {
    name: "Ada's Digest",
    sources: [hn, hn, hn],
    scheduleType: 'daily',
    time: '07:00',
    subscribers: [],
  },
  editDigestId: null,
  draftId: null,
  timeZone: null,
  ...overrides,
});

/** A fake API that records its calls; `fail` makes one call reject with the given error. */
function fakeApi(fail: Partial<Record<keyof CompletionApi, Error>> = {}) {
  const calls: string[] = [];
  const call =
    (name: keyof CompletionApi) =>
    async (...args: unknown[]) => {
      calls.push(`${name} ${args.map((arg) => (typeof arg === 'string' ? arg : 'body')).join(' ')}`.trim());
      if (fail[name]) throw fail[name];
      return { digestId: DIGEST_ID };
    };
  const api: CompletionApi = {
    saveTimeZone: call('saveTimeZone'),
    createDigest: call('createDigest'),
    updateDigest: call('updateDigest'),
    rebuildDigest: call('rebuildDigest'),
    deleteDraft: call('deleteDraft'),
  };
  return { api, calls };
}

describe('completing a digest (docs/product.md §4)', () => {
  it('creates the digest, then builds and sends an issue', async () => {
    const { api, calls } = fakeApi();
    const outcome = await completeDigest(completion(), api);
    expect(calls).toEqual(['createDigest body', `rebuildDigest ${DIGEST_ID}`]);
    expect(outcome).toEqual({ digestId: DIGEST_ID, notices: [] });
  });

  it('saves a changed time zone to the profile first, since the schedule runs in it', async () => {
    const { api, calls } = fakeApi();
    const timeZone = { timezone: 'Asia/Tokyo', locale: 'en-US', offset: 540 };
    await completeDigest(completion({ timeZone }), api);
    expect(calls[0]).toBe('saveTimeZone body');
    expect(calls[1]).toBe('createDigest body');
  });

  it('in edit mode updates the digest instead of creating one, and sends no extra issue', async () => {
    const { api, calls } = fakeApi();
    await completeDigest(completion({ editDigestId: DIGEST_ID }), api);
    expect(calls).toEqual([`updateDigest ${DIGEST_ID} body`]);
  });

  it('deletes the draft it was built from, once the digest is saved', async () => {
    const { api, calls } = fakeApi();
    await completeDigest(completion({ draftId: DRAFT_ID }), api);
    expect(calls).toEqual(['createDigest body', `rebuildDigest ${DIGEST_ID}`, `deleteDraft ${DRAFT_ID}`]);
  });

  it('is still done when no source had news (NOTHING_TO_SEND): the first issue comes at the scheduled time', async () => {
    const nothing = new ApiError('Nothing to send.', 422, NOTHING_TO_SEND);
    const { api, calls } = fakeApi({ rebuildDigest: nothing });
    const outcome = await completeDigest(completion({ draftId: DRAFT_ID }), api);
    expect(outcome.notices).toEqual([NOTHING_TO_SEND_NOTICE]);
    expect(calls.at(-1)).toBe(`deleteDraft ${DRAFT_ID}`);
  });

  it('is still done when its conditions held the first issue back, and says why in words', async () => {
    const reason = 'Skipped: no rain expected (30 % < 60 %).';
    const { api } = fakeApi({ rebuildDigest: new ApiError(reason, 422, CONDITIONS_NOT_MET) });
    const outcome = await completeDigest(completion(), api);
    expect(outcome.notices).toEqual([conditionsNotMetNotice(reason)]);
    expect(outcome.notices[0]).toBe(
      'Your first issue was not sent now. Skipped: no rain expected (30 % < 60 %). Each scheduled issue goes out when its conditions are met.',
    );
  });

  it('once saved, a failed build or draft deletion is a notice, never an error (so no second digest)', async () => {
    const { api } = fakeApi({
      rebuildDigest: new ApiError('Too many requests', 429, 'RATE_LIMITED'),
      deleteDraft: new ApiError('Not found', 404, 'NOT_FOUND'),
    });
    const outcome = await completeDigest(completion({ draftId: DRAFT_ID }), api);
    expect(outcome.digestId).toBe(DIGEST_ID);
    expect(outcome.notices).toHaveLength(2);
    expect(outcome.notices[0]).toContain('Too many requests');
    expect(outcome.notices[1]).toContain('Not found');
  });

  it('fails with the server error when the digest cannot be saved, and goes no further', async () => {
    const invalid = new ApiError('Add at least 3 sources to your Digest', 400, 'VALIDATION');
    const { api, calls } = fakeApi({ createDigest: invalid });
    await expect(completeDigest(completion({ draftId: DRAFT_ID }), api)).rejects.toBe(invalid);
    expect(calls).toEqual(['createDigest body']);
  });

  it('fails before saving anything when the time zone cannot be saved', async () => {
    const { api, calls } = fakeApi({ saveTimeZone: new ApiError('Choose a time zone from the list', 400) });
    const timeZone = { timezone: 'Asia/Tokyo', locale: 'en-US', offset: 540 };
    await expect(completeDigest(completion({ timeZone }), api)).rejects.toThrow('Choose a time zone');
    expect(calls).toEqual(['saveTimeZone body']);
  });
});

describe('what Done sends, from the builder', () => {
  const user = {
    fullName: 'Ada Lovelace',
    timezone: { timezone: 'Europe/London', locale: 'en-GB', offset: 0 },
  } as User;
  const builder = {
    ...initialBuilderState,
    blocks: [hn, hn, hn].map((source, index) => ({ id: `b${index}`, source })),
    schedule: { scheduleType: 'weekly' as const, time: '19:05', weekDay: 5, monthDay: 1 },
    issueRetentionMonths: 6 as const,
    subscribers: ['friend@example.com'],
    draftId: DRAFT_ID,
  };

  it('names the digest "{full name}\'s Digest" unless a name was typed (docs/product.md §5)', () => {
    expect(completionOf(builder, user, 'Europe/London').digest.name).toBe("Ada Lovelace's Digest");
    expect(completionOf({ ...builder, name: '  ' }, user, 'Europe/London').digest.name).toBe(
      "Ada Lovelace's Digest",
    );
    expect(completionOf({ ...builder, name: 'Morning' }, user, 'Europe/London').digest.name).toBe('Morning');
  });

  it('sends the blocks in order with the schedule, the issue retention and friends, and the draft to delete', () => {
    const sent = completionOf(builder, user, 'Europe/London');
    expect(sent.digest).toMatchObject({
      sources: [hn, hn, hn],
      scheduleType: 'weekly',
      time: '19:05',
      weekDay: 5,
      issueRetentionMonths: 6,
      subscribers: ['friend@example.com'],
    });
    expect(sent.draftId).toBe(DRAFT_ID);
    expect(sent.editDigestId).toBeNull();
  });

  it('carries a time zone only when the user changed it', () => {
    expect(completionOf(builder, user, 'Europe/London').timeZone).toBeNull();
    expect(completionOf(builder, user, 'Asia/Tokyo').timeZone).toMatchObject({
      timezone: 'Asia/Tokyo',
      offset: expect.any(Number),
    });
  });
});
