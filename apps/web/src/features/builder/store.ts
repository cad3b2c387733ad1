import { create } from 'zustand';

/** SPEC §4 builder steps. */
export type BuilderStep = 'entry' | 'selected' | 'searching' | 'connect' | 'edit';

/**
 * The builder's state that other screens set before opening /digestCreator (SPEC §2 "Create digest",
 * §4 "Editing an existing digest", "Drafts"). The builder itself (a later issue) adds the rest.
 */
export interface BuilderState {
  step: BuilderStep;
  /** Position at which the next source is inserted. */
  sourcePosition: number;
  /** The draft being edited (draft edit mode), or null. */
  draftId: string | null;
  /** The digest being edited (edit mode: Complete sends an update), or null. */
  editDigestId: string | null;
}

const initialState: BuilderState = { step: 'entry', sourcePosition: 0, draftId: null, editDigestId: null };

export const useBuilderStore = create<BuilderState>()(() => initialState);

/** 'Create digest': a fresh builder at the entry step, no draft, not editing (SPEC §2). */
export function resetBuilder(): void {
  useBuilderStore.setState(initialState);
}

/** Edit on a draft card (SPEC §4 "Drafts"). */
export function editDraft(draftId: string): void {
  useBuilderStore.setState({ ...initialState, draftId });
}

/** Edit on a digest (SPEC §4 "Editing an existing digest"). */
export function editDigest(digestId: string): void {
  useBuilderStore.setState({ ...initialState, editDigestId: digestId });
}
