import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { createDraft, deleteDraft, digestKeys, updateDraft } from '#web/features/digests';
import { errorMessage } from '#web/lib/api-client';
import { notifyError } from '#web/lib/notify';
import { type BuilderState, setDraftId, useBuilderStore } from '../store';
import { createDraftAutosaver, type DraftSnapshot } from './draft-autosave';

/** Changes are saved once the user pauses this long, so typing a name is one call. */
export const DRAFT_SAVE_DELAY_MS = 800;

/** The open builder's pending and running draft saves, settled; nothing when no builder is open. */
let settlePending: () => Promise<void> = async () => {};

/**
 * Completing a digest waits for this first: a save still waiting for its pause runs now and a running one
 * finishes, so the draft of these blocks (if any) is known and the completion deletes it. Without it a
 * quick Done left the draft's creation for later — a stray draft beside the digest just made.
 */
export function settleDraftSaves(): Promise<void> {
  return settlePending();
}

export function draftSnapshotOf(state: BuilderState): DraftSnapshot {
  return {
    editing: state.editDigestId !== null,
    draftId: state.draftId,
    content: { name: state.name ?? '', sources: state.blocks.map((block) => block.source) },
  };
}

/**
 * docs/product.md §4 "Drafts", for the builder page: while it is open, changes of the blocks or the name are saved to
 * a draft ~800 ms after the last one, and at once when the page is left. Not in edit mode (a digest is
 * saved by Update digest only). A failure shows one toast and keeps the blocks; the next change retries.
 */
export function useDraftAutosave(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const refreshDrafts = () => queryClient.invalidateQueries({ queryKey: digestKeys.drafts() });
    const autosaver = createDraftAutosaver({
      read: () => draftSnapshotOf(useBuilderStore.getState()),
      createDraft,
      updateDraft,
      deleteDraft,
      setDraftId: (draftId) => {
        setDraftId(draftId);
        void refreshDrafts();
      },
      onError: (error) => notifyError(`Your draft could not be saved: ${errorMessage(error)}`),
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const saveNow = () => {
      timer = undefined;
      void autosaver.save();
    };
    settlePending = () => {
      clearTimeout(timer);
      timer = undefined;
      return autosaver.save();
    };
    const unsubscribe = useBuilderStore.subscribe((state, previous) => {
      if (state.blocks === previous.blocks && state.name === previous.name) return;
      clearTimeout(timer);
      timer = setTimeout(saveNow, DRAFT_SAVE_DELAY_MS);
    });
    return () => {
      unsubscribe();
      settlePending = async () => {};
      // Leaving the page: what is waiting is saved now rather than lost.
      if (timer !== undefined) {
        clearTimeout(timer);
        saveNow();
      }
    };
  }, [queryClient]);
}
