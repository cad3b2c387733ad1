import { MAX_SOURCES, type Source } from '@digest/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  addSources,
  BUILDER_STATE_VERSION,
  BUILDER_STORAGE_KEY,
  backToEntry,
  claimBuilder,
  deleteBlock,
  duplicateBlock,
  editBlock,
  editDraft,
  initialBuilderState,
  loadIntoBuilder,
  moveBlock,
  openSidebar,
  reorderBlocks,
  resetBuilder,
  saveSource,
  selectSource,
  setPendingSource,
  skipGuided,
  startGuided,
  useBuilderStore,
} from './store';

// The store persists to localStorage, which Node lacks: a Map stands in, installed before the store loads.
const stored = vi.hoisted(() => {
  const items = new Map<string, string>();
  Object.assign(globalThis, {
    localStorage: {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => items.set(key, value),
      removeItem: (key: string) => items.delete(key),
    },
  });
  return items;
});

const hn = (name = ''): Source => ({
  type: 'HACKER_NEWS',
  name,
  showHeading: true,
  numberOfPosts: 6,
  story: 'top',
  askHN: false,
  showHN: false,
  layout: 2,
  onlyNew: true,
});
const state = () => useBuilderStore.getState();
const names = () => state().blocks.map((block) => block.source.name);

beforeEach(() => {
  resetBuilder();
  claimBuilder('ada');
});

describe('builder store', () => {
  it('opens at entry with the sidebar active and nothing to edit', () => {
    expect(state()).toMatchObject({ step: 'entry', sidebarOpen: true, editDigestId: null, draftId: null });
  });

  it('sends each kind to its first step: searched kinds to selected, account kinds to connect, others to edit', () => {
    selectSource('RSS');
    expect(state().step).toBe('selected');
    selectSource('GOOGLE_CALENDAR');
    expect(state().step).toBe('connect');
    selectSource('HACKER_NEWS');
    expect(state().step).toBe('edit');
  });

  it('saves a new source at the chosen position and returns to entry', () => {
    saveSource(hn('a'));
    saveSource(hn('c'));
    openSidebar(1);
    selectSource('HACKER_NEWS');
    saveSource(hn('b'));
    expect(names()).toEqual(['a', 'b', 'c']);
    expect(state()).toMatchObject({ step: 'entry', selectedType: null, pending: null, sourcePosition: 2 });
  });

  it('edits a block in place: the saved block changes only on Save, Back keeps it as it was', () => {
    saveSource(hn('a'));
    const id = state().blocks[0]?.id ?? '';
    editBlock(id);
    expect(state()).toMatchObject({ step: 'edit', selectedType: 'HACKER_NEWS' });
    setPendingSource(hn('typed'));
    backToEntry();
    expect(names()).toEqual(['a']);
    editBlock(id);
    saveSource(hn('renamed'));
    expect(names()).toEqual(['renamed']);
    expect(state().blocks[0]?.id).toBe(id);
  });

  it('moves, reorders, duplicates below the original and deletes blocks', () => {
    for (const name of ['a', 'b', 'c']) saveSource(hn(name));
    const [a, b, c] = state().blocks.map((block) => block.id);
    moveBlock(a ?? '', 1);
    expect(names()).toEqual(['b', 'a', 'c']);
    moveBlock(b ?? '', -1);
    expect(names()).toEqual(['b', 'a', 'c']);
    reorderBlocks(c ?? '', b ?? '');
    expect(names()).toEqual(['c', 'b', 'a']);
    duplicateBlock(c ?? '');
    expect(names()).toEqual(['c', 'c', 'b', 'a']);
    expect(new Set(state().blocks.map((block) => block.id)).size).toBe(4);
    deleteBlock(a ?? '');
    expect(names()).toEqual(['c', 'c', 'b']);
  });

  it('never holds more than 20 sources: saving or duplicating past the limit does nothing', () => {
    for (let index = 0; index < MAX_SOURCES + 2; index += 1) saveSource(hn(String(index)));
    expect(state().blocks).toHaveLength(MAX_SOURCES);
    duplicateBlock(state().blocks[0]?.id ?? '');
    expect(state().blocks).toHaveLength(MAX_SOURCES);
  });

  it('adds a template’s sources in order at the chosen position, each a new block, the name left unset', () => {
    saveSource(hn('a'));
    saveSource(hn('d'));
    openSidebar(1);
    expect(addSources([hn('b'), hn('c')])).toBe(2);
    expect(names()).toEqual(['a', 'b', 'c', 'd']);
    expect(state()).toMatchObject({ sourcePosition: 3, name: null, step: 'entry' });
    expect(new Set(state().blocks.map((block) => block.id)).size).toBe(4);
    // The same template again: new blocks, not the same ones twice.
    addSources([hn('b')]);
    expect(new Set(state().blocks.map((block) => block.id)).size).toBe(5);
  });

  it('adds only the sources that fit under 20, and says how many', () => {
    for (let index = 0; index < MAX_SOURCES - 2; index += 1) saveSource(hn(String(index)));
    expect(addSources([hn('x'), hn('y'), hn('z')])).toBe(2);
    expect(names().slice(-3)).toEqual([String(MAX_SOURCES - 3), 'x', 'y']);
    expect(addSources([hn('more')])).toBe(0);
    expect(state().blocks).toHaveLength(MAX_SOURCES);
  });

  it('runs a guided sequence: each kind in turn, today’s date added at once, the sidebar closed at the end', () => {
    startGuided(['DATE', 'HACKER_NEWS', 'RSS']);
    expect(state().blocks.map((block) => block.source.type)).toEqual(['DATE']);
    expect(state()).toMatchObject({ selectedType: 'HACKER_NEWS', step: 'edit', sidebarOpen: true });
    saveSource(hn('hn'));
    expect(state()).toMatchObject({ selectedType: 'RSS', step: 'selected' });
    skipGuided();
    expect(state()).toMatchObject({ sidebarOpen: false, guiding: false, selectedType: null });
    expect(state().blocks.map((block) => block.source.type)).toEqual(['DATE', 'HACKER_NEWS']);
  });

  it('keeps a builder for the user who opened it, and starts afresh for another user', () => {
    saveSource(hn('ada’s'));
    claimBuilder('ada');
    expect(names()).toEqual(['ada’s']);
    claimBuilder('mallory');
    expect(state().blocks).toEqual([]);
    expect(state().ownerId).toBe('mallory');
  });

  it('loads a draft once: its name and sources become the blocks', () => {
    editDraft('draft-1');
    claimBuilder('ada');
    expect(state()).toMatchObject({ draftId: 'draft-1', loadedFrom: null, sidebarOpen: false });
    loadIntoBuilder('draft-1', { name: 'Morning', sources: [hn('x'), hn('y')] });
    expect(state()).toMatchObject({ name: 'Morning', loadedFrom: 'draft-1', sourcePosition: 2 });
    expect(names()).toEqual(['x', 'y']);
  });

  it('persists as version 15 and replaces state stored by another version with a fresh builder', async () => {
    saveSource(hn('kept'));
    expect(JSON.parse(stored.get(BUILDER_STORAGE_KEY) ?? '{}')).toMatchObject({ version: 15 });
    await useBuilderStore.persist.rehydrate();
    expect(names()).toEqual(['kept']);

    const stale = { ...initialBuilderState, blocks: [{ id: 'old', source: { type: 'OLD_KIND' } }] };
    stored.set(BUILDER_STORAGE_KEY, JSON.stringify({ state: stale, version: 13 }));
    await useBuilderStore.persist.rehydrate();
    expect(state().blocks).toEqual([]);
    expect(JSON.parse(stored.get(BUILDER_STORAGE_KEY) ?? '{}')).toMatchObject({
      version: BUILDER_STATE_VERSION,
    });
  });
});
