import { DIGEST_MESSAGES, MAX_SOURCES, MIN_SOURCES } from '@digest/contracts';
import { useId } from 'react';
import styles from './BuilderProgress.module.css';

/** From this many sources on, the header counts toward the limit of 20 instead of just counting. */
export const NEAR_LIMIT_SOURCES = MAX_SOURCES - 5;

export interface ProgressState {
  /** The bar fills toward the 3 sources a digest needs. */
  value: number;
  max: number;
  /** 'Add at least 3 sources to your Digest' (docs/product.md §5) until there are 3. */
  message: string;
  /** '2 of 3 sources', '5 sources', '18 of 20 sources'. */
  count: string;
  ready: boolean;
}

const sources = (count: number) => (count === 1 ? 'source' : 'sources');

/** docs/product.md §2 "In the builder the header shows a progress indicator": how far the digest is from ready. */
export function builderProgress(count: number): ProgressState {
  const ready = count >= MIN_SOURCES;
  let countText = `${count} ${sources(count)}`;
  if (!ready) countText = `${count} of ${MIN_SOURCES} ${sources(MIN_SOURCES)}`;
  else if (count >= NEAR_LIMIT_SOURCES) countText = `${count} of ${MAX_SOURCES} ${sources(MAX_SOURCES)}`;
  return {
    value: Math.min(count, MIN_SOURCES),
    max: MIN_SOURCES,
    message: ready ? 'Your Digest is ready to complete' : DIGEST_MESSAGES.minSources,
    count: countText,
    ready,
  };
}

/** A bar toward 3 sources with what it means in words; the words are the bar's accessible name. */
export function BuilderProgress({ count }: { count: number }) {
  const progress = builderProgress(count);
  const labelId = useId();
  return (
    <div className={styles.progress} data-ready={progress.ready || undefined}>
      <p id={labelId} className={styles.text} aria-live="polite">
        <span className={styles.message}>{progress.message}</span>
        <span className={styles.count}>{progress.count}</span>
      </p>
      <progress className={styles.bar} value={progress.value} max={progress.max} aria-labelledby={labelId} />
    </div>
  );
}
