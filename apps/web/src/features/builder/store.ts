import {
  DIGEST_DEFAULTS,
  type IssueRetentionMonths,
  MAX_SOURCES,
  type Schedule,
  type Source,
  type SourceType,
} from '@digest/contracts';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { type BuilderStep, firstStepOf } from './lib/steps';

/** One block of the digest being built: a saved source and a key that survives reordering. */
export interface BuilderBlock {
  id: string;
  source: Source;
}

/** The block the sidebar is working on: a new source at `position`, or the block `blockId` being edited. */
export interface PendingSource {
  /** Settings as the form has them now (null until they are valid): the stack previews them live. */
  source: Source | null;
  /** The block being edited, or null for a new source. */
  blockId: string | null;
}

export interface BuilderState {
  /** The user this state belongs to: another user signing in on this browser starts afresh. */
  ownerId: string | null;
  step: BuilderStep;
  sidebarOpen: boolean;
  /** The kind chosen in the sidebar (entry: none). */
  selectedType: SourceType | null;
  /** Position at which the next new source is inserted. */
  sourcePosition: number;
  pending: PendingSource | null;
  /** Digest name as typed; null means the default ('{full name}'s Digest'). */
  name: string | null;
  blocks: BuilderBlock[];
  /** Kinds of the guided sequence still to open (docs/product.md §2), in order. */
  guided: SourceType[];
  /** Whether a guided sequence is running (its end closes the sidebar). */
  guiding: boolean;
  /** How many kinds the running guided sequence started with (the sidebar shows "Source 2 of 5"). */
  guidedCount: number;
  /** The draft being edited or autosaved, or null. */
  draftId: string | null;
  /** The digest being edited (edit mode: Complete sends an update), or null. */
  editDigestId: string | null;
  /** Set once a draft or digest has been loaded into the blocks, so a reload does not load it again. */
  loadedFrom: string | null;
  schedule: Schedule;
  /** How long the digest's issues are kept (docs/product.md §3 "Issue retention"). */
  issueRetentionMonths: IssueRetentionMonths;
  /** docs/product.md §3 "Every item once": an issue with nothing new is not sent. */
  sendOnlyWhenNew: boolean;
  /** docs/product.md §3 "Conditions": fewer sources with something to say and the issue is skipped (0: off). */
  minSourcesToSend: number;
  subscribers: string[];
}

/**
 * docs/product.md §4 "Persisted client state": version 15. State stored under another version may not fit this
 * one: it is replaced by a fresh builder as soon as it is read.
 */
export const BUILDER_STATE_VERSION = 15;
export const BUILDER_STORAGE_KEY = 'digest-builder';

const initialSchedule: Schedule = {
  scheduleType: DIGEST_DEFAULTS.scheduleType,
  time: DIGEST_DEFAULTS.time,
  weekDay: DIGEST_DEFAULTS.weekDay,
  monthDay: DIGEST_DEFAULTS.monthDay,
};

/** docs/product.md §4 "Initial builder store": step entry, sidebar active, edit mode off. */
export const initialBuilderState: BuilderState = {
  ownerId: null,
  step: 'entry',
  sidebarOpen: true,
  selectedType: null,
  sourcePosition: 0,
  pending: null,
  name: null,
  blocks: [],
  guided: [],
  guiding: false,
  guidedCount: 0,
  draftId: null,
  editDigestId: null,
  loadedFrom: null,
  schedule: initialSchedule,
  issueRetentionMonths: DIGEST_DEFAULTS.issueRetentionMonths,
  sendOnlyWhenNew: DIGEST_DEFAULTS.sendOnlyWhenNew,
  minSourcesToSend: DIGEST_DEFAULTS.minSourcesToSend,
  subscribers: [],
};

let nextBlockNumber = 0;
/** Block keys only need to be unique within this page's life (they are not stored by the server). */
export function newBlockId(): string {
  nextBlockNumber += 1;
  return `block-${Date.now().toString(36)}-${nextBlockNumber}`;
}

export const useBuilderStore = create<BuilderState>()(
  persist(() => initialBuilderState, {
    name: BUILDER_STORAGE_KEY,
    version: BUILDER_STATE_VERSION,
    storage: createJSONStorage(() => localStorage),
    migrate: () => initialBuilderState,
  }),
);

const set = (patch: Partial<BuilderState> | ((state: BuilderState) => Partial<BuilderState>)) =>
  useBuilderStore.setState(patch);
const get = () => useBuilderStore.getState();

// ---------------------------------------------------------------------------------------------------
// Opening the builder (docs/product.md §2 "Create digest", §4 "Drafts", "Editing an existing digest")
// ---------------------------------------------------------------------------------------------------

/** 'Create digest': a fresh builder at the entry step, no draft, not editing. */
// The three ways in are clicked by the signed-in user: the state they set has no owner until the builder
// claims it for that user.
export function resetBuilder(): void {
  startAfresh(null);
}

function startAfresh(ownerId: string | null): void {
  useBuilderStore.setState({ ...initialBuilderState, ownerId }, true);
}

/** Edit on a draft card: the draft's sources are loaded by the builder page. */
export function editDraft(draftId: string): void {
  useBuilderStore.setState({ ...initialBuilderState, draftId, sidebarOpen: false }, true);
}

/** Edit on a digest: its settings are loaded by the builder page; Complete sends an update. */
export function editDigest(digestId: string): void {
  useBuilderStore.setState({ ...initialBuilderState, editDigestId: digestId, sidebarOpen: false }, true);
}

/**
 * Makes the state the signed-in user's. State another user left in this browser is never shown: the
 * builder starts afresh instead.
 */
export function claimBuilder(userId: string): void {
  const { ownerId } = get();
  if (ownerId === null) set({ ownerId: userId });
  else if (ownerId !== userId) startAfresh(userId);
}

/** The loaded draft or digest: its name, sources and (for a digest) schedule, retention and friends. */
export function loadIntoBuilder(
  from: string,
  loaded: {
    name: string;
    sources: Source[];
    schedule?: Schedule;
    issueRetentionMonths?: IssueRetentionMonths;
    sendOnlyWhenNew?: boolean;
    minSourcesToSend?: number;
    subscribers?: string[];
  },
): void {
  set((state) => ({
    loadedFrom: from,
    name: loaded.name || null,
    blocks: loaded.sources.slice(0, MAX_SOURCES).map((source) => ({ id: newBlockId(), source })),
    sourcePosition: loaded.sources.length,
    schedule: loaded.schedule ?? state.schedule,
    issueRetentionMonths: loaded.issueRetentionMonths ?? state.issueRetentionMonths,
    sendOnlyWhenNew: loaded.sendOnlyWhenNew ?? state.sendOnlyWhenNew,
    minSourcesToSend: loaded.minSourcesToSend ?? state.minSourcesToSend,
    subscribers: loaded.subscribers ?? state.subscribers,
  }));
}

export function setDigestName(name: string): void {
  set({ name });
}

/** The autosaved draft's id: the blocks on screen are that draft (it is not loaded again). */
export function setDraftId(draftId: string | null): void {
  set({ draftId, loadedFrom: draftId });
}

// ---------------------------------------------------------------------------------------------------
// Sidebar (docs/product.md §4 "Builder step")
// ---------------------------------------------------------------------------------------------------

/** An add button: the sidebar opens at the entry step and the next source goes to `position`. */
export function openSidebar(position = get().blocks.length): void {
  set({ sidebarOpen: true, step: 'entry', selectedType: null, pending: null, sourcePosition: position });
}

export function closeSidebar(): void {
  set({ sidebarOpen: false, step: 'entry', selectedType: null, pending: null, guided: [], guiding: false });
}

/** A kind chosen in the sidebar opens at its first step (selected, connect or edit). */
export function selectSource(type: SourceType): void {
  set({ sidebarOpen: true, selectedType: type, step: firstStepOf(type), pending: null });
}

export function setStep(step: BuilderStep): void {
  if (step === 'entry') backToEntry();
  else set({ step });
}

/** Back to the list of kinds; an unsaved new source or edit is dropped. */
export function backToEntry(): void {
  set({ step: 'entry', selectedType: null, pending: null });
}

/** The form's current settings, previewed in place in the stack (not saved yet). */
export function setPendingSource(source: Source | null): void {
  set((state) => ({ pending: { blockId: state.pending?.blockId ?? null, source } }));
}

/** Edit on a block: the sidebar opens its settings at the edit step. */
export function editBlock(blockId: string): void {
  const block = get().blocks.find((item) => item.id === blockId);
  if (!block) return;
  set({
    sidebarOpen: true,
    selectedType: block.source.type,
    step: 'edit',
    pending: { blockId, source: block.source },
    guided: [],
    guiding: false,
  });
}

/**
 * Save: the source goes into the digest at the chosen position (or replaces the block being edited), the
 * sidebar returns to entry, then opens the next guided kind or, at the end of a guided sequence, closes.
 */
export function saveSource(source: Source): void {
  const state = get();
  const editing = state.pending?.blockId ? state.blocks.find((b) => b.id === state.pending?.blockId) : null;
  let blocks: BuilderBlock[];
  let sourcePosition = state.sourcePosition;
  if (editing) {
    blocks = state.blocks.map((block) => (block.id === editing.id ? { ...block, source } : block));
  } else {
    if (state.blocks.length >= MAX_SOURCES) return;
    const at = Math.min(Math.max(state.sourcePosition, 0), state.blocks.length);
    blocks = [...state.blocks.slice(0, at), { id: newBlockId(), source }, ...state.blocks.slice(at)];
    sourcePosition = at + 1;
  }
  set({ blocks, sourcePosition, step: 'entry', selectedType: null, pending: null });
  continueGuided();
}

/**
 * A template's sources go into the digest at the chosen position, in order, each a new block; only as many
 * as fit under MAX_SOURCES (the name is left as typed, or unset). Returns how many were added.
 */
export function addSources(sources: readonly Source[]): number {
  const { blocks, sourcePosition } = get();
  const added = sources
    .slice(0, Math.max(MAX_SOURCES - blocks.length, 0))
    .map((source) => ({ id: newBlockId(), source }));
  const at = Math.min(Math.max(sourcePosition, 0), blocks.length);
  set({
    blocks: [...blocks.slice(0, at), ...added, ...blocks.slice(at)],
    sourcePosition: at + added.length,
  });
  return added.length;
}

/** The guided sequence of `?sources=` (docs/product.md §2): each kind in turn; today's date is added at once. */
export function startGuided(types: SourceType[]): void {
  set({
    guided: types,
    guiding: types.length > 0,
    guidedCount: types.length,
    sidebarOpen: true,
    step: 'entry',
    selectedType: null,
  });
  continueGuided();
}

function continueGuided(): void {
  const { guided, guiding, blocks } = get();
  if (!guiding) return;
  const [next, ...rest] = guided;
  if (!next || blocks.length >= MAX_SOURCES) {
    closeSidebar();
    return;
  }
  set({ guided: rest });
  if (next === 'DATE') {
    saveSource({ type: 'DATE', name: "Today's Date", showHeading: true });
    return;
  }
  selectSource(next);
}

/** Skip in a guided sequence: this kind is not added; the next one opens. */
export function skipGuided(): void {
  set({ step: 'entry', selectedType: null, pending: null });
  continueGuided();
}

// ---------------------------------------------------------------------------------------------------
// The stack of blocks
// ---------------------------------------------------------------------------------------------------

export function moveBlock(blockId: string, delta: -1 | 1): void {
  const blocks = [...get().blocks];
  const from = blocks.findIndex((block) => block.id === blockId);
  const to = from + delta;
  if (from < 0 || to < 0 || to >= blocks.length) return;
  const [block] = blocks.splice(from, 1);
  if (block) blocks.splice(to, 0, block);
  set({ blocks });
}

/** Drag and drop: the dragged block takes the place of the one it was dropped on. */
export function reorderBlocks(activeId: string, overId: string): void {
  const blocks = [...get().blocks];
  const from = blocks.findIndex((block) => block.id === activeId);
  const to = blocks.findIndex((block) => block.id === overId);
  if (from < 0 || to < 0 || from === to) return;
  const [block] = blocks.splice(from, 1);
  if (block) blocks.splice(to, 0, block);
  set({ blocks });
}

/** A copy goes right below the original (not past the 20-source limit). */
export function duplicateBlock(blockId: string): void {
  const blocks = get().blocks;
  if (blocks.length >= MAX_SOURCES) return;
  const at = blocks.findIndex((block) => block.id === blockId);
  const original = blocks[at];
  if (!original) return;
  set({
    blocks: [
      ...blocks.slice(0, at + 1),
      { id: newBlockId(), source: original.source },
      ...blocks.slice(at + 1),
    ],
  });
}

export function deleteBlock(blockId: string): void {
  set((state) => {
    const blocks = state.blocks.filter((block) => block.id !== blockId);
    const editingThis = state.pending?.blockId === blockId;
    return {
      blocks,
      sourcePosition: Math.min(state.sourcePosition, blocks.length),
      ...(editingThis ? { step: 'entry' as const, selectedType: null, pending: null } : {}),
    };
  });
}

// ---------------------------------------------------------------------------------------------------
// Schedule popup
// ---------------------------------------------------------------------------------------------------

export function setSchedule(schedule: Schedule): void {
  set({ schedule });
}

export function setIssueRetention(issueRetentionMonths: IssueRetentionMonths): void {
  set({ issueRetentionMonths });
}

export function setSendOnlyWhenNew(sendOnlyWhenNew: boolean): void {
  set({ sendOnlyWhenNew });
}

export function setMinSourcesToSend(minSourcesToSend: number): void {
  set({ minSourcesToSend });
}

export function setSubscribers(subscribers: string[]): void {
  set({ subscribers });
}
