import type { Source } from '@digest/contracts';

/** What a draft keeps (docs/product.md §3 Draft: name, sources); '' names it by default. */
export interface DraftContent {
  name: string;
  sources: Source[];
}

/** The builder as the autosave reads it, at the moment a save runs. */
export interface DraftSnapshot {
  /** Edit mode: the builder holds a digest, which only Update digest saves. */
  editing: boolean;
  draftId: string | null;
  content: DraftContent;
}

export type DraftAction = 'create' | 'update' | 'delete' | 'none';

export const contentKey = (content: DraftContent) => JSON.stringify([content.name, content.sources]);

/**
 * docs/product.md §4 "Drafts": the first source creates a draft, later changes update it, removing all sources deletes
 * it. Only a change since the last save counts, so the builder opened on a loaded draft, or left with the
 * blocks of a digest just completed (draft id cleared), saves nothing.
 */
export function draftAction(snapshot: DraftSnapshot, savedKey: string): DraftAction {
  if (snapshot.editing || contentKey(snapshot.content) === savedKey) return 'none';
  const hasSources = snapshot.content.sources.length > 0;
  if (snapshot.draftId === null) return hasSources ? 'create' : 'none';
  return hasSources ? 'update' : 'delete';
}

export interface DraftAutosaveDeps {
  read: () => DraftSnapshot;
  createDraft: (content: DraftContent) => Promise<{ digestId: string }>;
  updateDraft: (draftId: string, content: DraftContent) => Promise<unknown>;
  deleteDraft: (draftId: string) => Promise<unknown>;
  setDraftId: (draftId: string | null) => void;
  /** Called once per run of failures (the next success re-arms it); the blocks are never touched. */
  onError: (error: unknown) => void;
}

export interface DraftAutosaver {
  /** Saves the builder as it is when this save's turn comes; saves run one after another. */
  save: () => Promise<void>;
}

/**
 * Runs the draft calls one at a time: a change made while a draft is being created waits for its id and
 * becomes an update. Each save reads the builder when it starts, so queued changes collapse into one call.
 * What exists now counts as saved: only later changes are sent.
 */
export function createDraftAutosaver(deps: DraftAutosaveDeps): DraftAutosaver {
  let savedKey = contentKey(deps.read().content);
  let queue: Promise<void> = Promise.resolve();
  let reported = false;

  async function run(): Promise<void> {
    const snapshot = deps.read();
    const action = draftAction(snapshot, savedKey);
    if (action === 'none') return;
    const { draftId, content } = snapshot;
    try {
      if (action === 'create') {
        const draft = await deps.createDraft(content);
        deps.setDraftId(draft.digestId);
      } else if (action === 'update' && draftId) {
        await deps.updateDraft(draftId, content);
      } else if (action === 'delete' && draftId) {
        await deps.deleteDraft(draftId);
        deps.setDraftId(null);
      }
      savedKey = contentKey(content);
      reported = false;
    } catch (error) {
      // Left unsaved: the next change tries again. One toast per run of failures, not one per keystroke.
      if (!reported) deps.onError(error);
      reported = true;
    }
  }

  return {
    save: () => {
      queue = queue.then(run);
      return queue;
    },
  };
}
