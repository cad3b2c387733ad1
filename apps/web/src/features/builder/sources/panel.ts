import type { SourceOf, SourceType } from '@digest/contracts';
import type { BuilderStep } from '../lib/steps';

/**
 * What the sidebar gives the panel of one source kind. The sidebar draws the heading, back arrow and hint
 * of the step (lib/steps.ts); the panel draws the step's body: its search and results (selected,
 * searching), its accounts (connect) or its settings form and Save button (edit).
 */
export interface SourcePanelProps<T extends SourceType = SourceType> {
  type: T;
  /** 'selected' | 'searching' | 'connect' | 'edit' (never 'entry'). */
  step: BuilderStep;
  /** Moves this kind to another of its steps. */
  goTo(step: BuilderStep): void;
  /** The saved settings of the block being edited, or null for a new source. */
  initial: SourceOf<T> | null;
  /** The settings as the form has them now, or null while they are not valid: the stack previews them. */
  onChange(source: SourceOf<T> | null): void;
  /** Save: valid settings go into the digest. */
  onSave(source: SourceOf<T>): void;
}
