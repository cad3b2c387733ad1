import type { Source } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import {
  contentKey,
  createDraftAutosaver,
  type DraftContent,
  type DraftSnapshot,
  draftAction,
} from './draft-autosave';

const hn = { type: 'HACKER_NEWS', name: 'Hacker News' } as Source;
const rss = { type: 'RSS', name: 'Feed' } as Source;
const DRAFT_ID = '2c1d9a4e-8f4b-4c55-a2a9-0b6a6c7e3d21';

const snapshot = (
  overrides: Partial<DraftSnapshot> = {},
  content: Partial<DraftContent> = {},
): DraftSnapshot => ({
  editing: false,
  draftId: null,
  content: { name: '', sources: [], ...content },
  ...overrides,
});
const EMPTY = contentKey({ name: '', sources: [] });

describe('draft autosave decisions (docs/product.md §4 "Drafts")', () => {
  it('the first source creates a draft', () => {
    expect(draftAction(snapshot({}, { sources: [hn] }), EMPTY)).toBe('create');
  });

  it('a builder with no sources and no draft saves nothing, even when named', () => {
    expect(draftAction(snapshot({}, { name: 'Morning' }), EMPTY)).toBe('none');
  });

  it('later changes of the blocks or the name update the draft', () => {
    const saved = contentKey({ name: '', sources: [hn] });
    expect(draftAction(snapshot({ draftId: DRAFT_ID }, { sources: [hn, rss] }), saved)).toBe('update');
    expect(draftAction(snapshot({ draftId: DRAFT_ID }, { name: 'Morning', sources: [hn] }), saved)).toBe(
      'update',
    );
  });

  it('removing all sources deletes the draft', () => {
    const saved = contentKey({ name: '', sources: [hn] });
    expect(draftAction(snapshot({ draftId: DRAFT_ID }), saved)).toBe('delete');
  });

  it('nothing is saved in edit mode, or when nothing changed since the last save', () => {
    expect(draftAction(snapshot({ editing: true }, { sources: [hn] }), EMPTY)).toBe('none');
    const saved = contentKey({ name: '', sources: [hn] });
    expect(draftAction(snapshot({ draftId: DRAFT_ID }, { sources: [hn] }), saved)).toBe('none');
    // A digest just completed: its draft id is cleared, its blocks are still there: no new draft.
    expect(draftAction(snapshot({ draftId: null }, { sources: [hn] }), saved)).toBe('none');
  });
});

/** A builder and a draft API in memory; `gate` holds the create call until released. */
function harness(start: DraftSnapshot = snapshot()) {
  let state = start;
  const calls: string[] = [];
  const errors: unknown[] = [];
  let releaseCreate: () => void = () => {};
  let failNext: Error | null = null;
  const gateCreate = () =>
    new Promise<void>((resolve) => {
      releaseCreate = resolve;
    });
  let gated = false;
  const fail = async () => {
    if (!failNext) return;
    const error = failNext;
    failNext = null;
    throw error;
  };
  const autosaver = createDraftAutosaver({
    read: () => state,
    createDraft: async (content) => {
      calls.push(`create ${content.sources.length}`);
      if (gated) await gateCreate();
      await fail();
      return { digestId: DRAFT_ID };
    },
    updateDraft: async (draftId, content) => {
      calls.push(`update ${draftId === DRAFT_ID ? 'draft' : draftId} ${content.sources.length}`);
      await fail();
    },
    deleteDraft: async () => {
      calls.push('delete');
      await fail();
    },
    setDraftId: (draftId) => {
      state = { ...state, draftId };
    },
    onError: (error) => errors.push(error),
  });
  return {
    autosaver,
    calls,
    errors,
    state: () => state,
    change: (content: Partial<DraftContent>) => {
      state = { ...state, content: { ...state.content, ...content } };
    },
    holdCreate: () => {
      gated = true;
    },
    release: () => releaseCreate(),
    failNext: (error: Error) => {
      failNext = error;
    },
  };
}

describe('draft autosaver', () => {
  it('creates, keeps the id, updates, then deletes when the last source goes', async () => {
    const h = harness();
    h.change({ sources: [hn] });
    await h.autosaver.save();
    expect(h.state().draftId).toBe(DRAFT_ID);
    h.change({ sources: [hn, rss] });
    await h.autosaver.save();
    h.change({ sources: [] });
    await h.autosaver.save();
    expect(h.calls).toEqual(['create 1', 'update draft 2', 'delete']);
    expect(h.state().draftId).toBeNull();
  });

  it('a change made while the draft is being created waits for its id and becomes an update', async () => {
    const h = harness();
    h.holdCreate();
    h.change({ sources: [hn] });
    const creating = h.autosaver.save();
    await Promise.resolve();
    h.change({ sources: [hn, rss] });
    const updating = h.autosaver.save();
    expect(h.calls).toEqual(['create 1']);
    h.release();
    await Promise.all([creating, updating]);
    expect(h.calls).toEqual(['create 1', 'update draft 2']);
  });

  it('what the builder opened with counts as saved: a loaded draft is not sent back', async () => {
    const h = harness(snapshot({ draftId: DRAFT_ID }, { sources: [hn] }));
    await h.autosaver.save();
    expect(h.calls).toEqual([]);
  });

  it('a failure toasts once, keeps the blocks, and the next change tries again', async () => {
    const h = harness();
    h.failNext(new Error('offline'));
    h.change({ sources: [hn] });
    await h.autosaver.save();
    h.failNext(new Error('offline'));
    h.change({ sources: [hn, rss] });
    await h.autosaver.save();
    expect(h.errors).toHaveLength(1);
    expect(h.state().content.sources).toEqual([hn, rss]);
    expect(h.state().draftId).toBeNull();
    h.change({ sources: [hn, rss, hn] });
    await h.autosaver.save();
    expect(h.calls).toEqual(['create 1', 'create 2', 'create 3']);
    expect(h.state().draftId).toBe(DRAFT_ID);
  });

  it('toasts again after a success and a new failure', async () => {
    const h = harness();
    h.failNext(new Error('offline'));
    h.change({ sources: [hn] });
    await h.autosaver.save();
    h.change({ sources: [hn, rss] });
    await h.autosaver.save();
    h.failNext(new Error('offline again'));
    h.change({ sources: [hn] });
    await h.autosaver.save();
    expect(h.errors.map((error) => (error as Error).message)).toEqual(['offline', 'offline again']);
  });
});
