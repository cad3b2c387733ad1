import type { SourceType } from '@digest/contracts';
import { type ComponentType, useId } from 'react';
import { Button } from '#web/components/ui/Button';
import { ChevronLeftIcon, CloseIcon } from '#web/components/ui/icons';
import { type BuilderStep, backStepOf, headingOf, hintOf } from '../lib/steps';
import type { SourcePanelProps } from '../sources/panel';
import { SOURCE_PANELS } from '../sources/panels';
import { closeSidebar, saveSource, setPendingSource, setStep, skipGuided, useBuilderStore } from '../store';
import { EntryStep } from './EntryStep';
import styles from './Sidebar.module.css';

/**
 * docs/product.md §2/§4 builder sidebar: the step's heading, back arrow and hint around its body — the list of kinds
 * at entry, otherwise the chosen kind's panel. It fills its container (the page places it) and scrolls
 * inside.
 */
export function Sidebar() {
  const step = useBuilderStore((state) => state.step);
  const selectedType = useBuilderStore((state) => state.selectedType);
  const headingId = useId();
  const { title, subtitle } = headingOf(step);
  // A kind is needed past entry; without one (a damaged stored state) the list of kinds shows.
  const atEntry = step === 'entry' || selectedType === null;
  return (
    <aside className={styles.sidebar} aria-labelledby={headingId}>
      <header className={styles.header}>
        {atEntry ? null : (
          <button
            type="button"
            className={styles.iconButton}
            aria-label="Back"
            onClick={() => setStep(backStepOf(selectedType, step))}
          >
            <ChevronLeftIcon />
          </button>
        )}
        <div className={styles.titles}>
          <h2 id={headingId} className={styles.title}>
            {title}
          </h2>
          <p className={styles.subtitle}>{subtitle}</p>
        </div>
        <button type="button" className={styles.iconButton} aria-label="Close sources" onClick={closeSidebar}>
          <CloseIcon />
        </button>
      </header>
      <div className={styles.body}>
        <GuidedProgress />
        <p className={styles.hint}>{hintOf(atEntry ? 'entry' : step)}</p>
        {atEntry ? <EntryStep /> : <KindPanel type={selectedType} step={step} />}
      </div>
    </aside>
  );
}

/** In a guided sequence (docs/product.md §2): which source of how many, and Skip to the next one. */
function GuidedProgress() {
  const guiding = useBuilderStore((state) => state.guiding);
  const left = useBuilderStore((state) => state.guided.length);
  const count = useBuilderStore((state) => state.guidedCount);
  if (!guiding) return null;
  return (
    <div className={styles.guided}>
      <p className={styles.guidedStatus}>
        Source {count - left} of {count}
      </p>
      <Button variant="secondary" small onClick={skipGuided}>
        Skip
      </Button>
    </div>
  );
}

/**
 * The chosen kind's panel. It is keyed by kind and block, so its form starts afresh for each source;
 * when a block is edited, its saved settings are the panel's starting point.
 */
function KindPanel({ type, step }: { type: SourceType; step: BuilderStep }) {
  const blockId = useBuilderStore((state) => state.pending?.blockId ?? null);
  const initial = useBuilderStore((state) =>
    blockId === null ? null : (state.blocks.find((block) => block.id === blockId)?.source ?? null),
  );
  // The registry types each panel by its own kind; here the kind is only known at run time.
  const Panel = SOURCE_PANELS[type] as ComponentType<SourcePanelProps>;
  return (
    <Panel
      key={`${type}:${blockId ?? 'new'}`}
      type={type}
      step={step}
      goTo={setStep}
      initial={initial}
      onChange={setPendingSource}
      onSave={saveSource}
    />
  );
}
