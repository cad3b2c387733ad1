import { formatCount } from '@digest/contracts';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { Button } from '#web/components/ui/Button';
import type { BuilderStep } from '#web/features/builder/lib/steps';
import { MIN_SEARCH_LENGTH, POPULAR_PLACEHOLDERS, SEARCH_DEBOUNCE_MS } from '#web/features/builder/lib/steps';
import styles from './Search.module.css';

/** What to search for: the text once it has been still for 500 ms and is longer than 2 characters, else ''. */
export function useDebouncedSearch(text: string): string {
  const [query, setQuery] = useState('');
  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed.length < MIN_SEARCH_LENGTH) {
      setQuery('');
      return;
    }
    const timer = setTimeout(() => setQuery(trimmed), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return query;
}

/**
 * docs/product.md §4: the step a searched kind (weather, RSS, Reddit, YouTube) moves to when its search text
 * becomes `text` — more than 2 characters move `selected` to `searching`, fewer return `searching` to
 * `selected` — or null when it stays where it is.
 */
export function stepAfterTyping(step: BuilderStep, text: string): BuilderStep | null {
  const searching = text.trim().length >= MIN_SEARCH_LENGTH;
  if (searching && step === 'selected') return 'searching';
  if (!searching && step === 'searching') return 'selected';
  return null;
}

/**
 * The search of a searched kind and its steps (stepAfterTyping); `onCleared` runs when a search is
 * cleared (the popular lists reload). `query` is what to search for (debounced), '' for none.
 */
export function useSearchStep({
  step,
  goTo,
  onCleared,
}: {
  step: BuilderStep;
  goTo: (step: BuilderStep) => void;
  onCleared?: () => void;
}): { text: string; query: string; setText: (text: string) => void } {
  const [text, setText] = useState('');
  const query = useDebouncedSearch(text);
  return {
    text,
    query,
    setText: (next) => {
      setText(next);
      const nextStep = stepAfterTyping(step, next);
      if (!nextStep) return;
      goTo(nextStep);
      if (nextStep === 'selected') onCleared?.();
    },
  };
}

/** A search box; docs/product.md §4: more than 2 characters moves the kind to `searching`, clearing it back. */
export function SearchBox({
  label,
  placeholder,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className={styles.search}>
      <label htmlFor={id} className={styles.visuallyHidden}>
        {label}
      </label>
      <input
        id={id}
        type="search"
        className={styles.input}
        placeholder={placeholder}
        value={value}
        autoComplete="off"
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/**
 * A list of choices under a title ('Popular', 'Results'): 12 placeholders while loading (or `placeholders`),
 * 'No results...' when empty, 'Search results will display here' before any search.
 */
export function ResultPanel<T>({
  title,
  loading,
  items,
  error,
  idle,
  placeholders = POPULAR_PLACEHOLDERS,
  renderItem,
  keyOf,
}: {
  title: string;
  loading: boolean;
  items: readonly T[] | undefined;
  error?: string | null;
  /** Nothing searched yet (and no popular list to show). */
  idle?: boolean;
  /** How many placeholders stand for the list while it loads. */
  placeholders?: number;
  renderItem: (item: T) => ReactNode;
  keyOf: (item: T) => string;
}) {
  const titleId = useId();
  if (idle) return <p className={styles.empty}>Search results will display here</p>;
  return (
    <section aria-labelledby={titleId} aria-busy={loading || undefined} className={styles.panel}>
      <h3 id={titleId} className={styles.title}>
        {title}
      </h3>
      {loading ? (
        <ul className={styles.list} aria-label="Loading">
          {Array.from({ length: placeholders }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders
            <li key={index} className={styles.placeholder} />
          ))}
        </ul>
      ) : error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : !items || items.length === 0 ? (
        <p className={styles.empty}>No results...</p>
      ) : (
        <ul className={styles.list}>
          {items.map((item) => (
            <li key={keyOf(item)}>{renderItem(item)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A subreddit's or channel's audience: '1.5M subscribers' (docs/product.md §9: K above 1,000, M above 1,000,000). */
export function subscribersLine(subscribers: number): string {
  return `${formatCount(subscribers)} ${subscribers === 1 ? 'subscriber' : 'subscribers'}`;
}

/** One result: picture, title and a line about it, as a button that picks it. */
export function ResultButton({
  title,
  description,
  picture,
  onPick,
}: {
  title: string;
  description?: string | undefined;
  picture?: string | null | undefined;
  onPick: () => void;
}) {
  // A favicon or avatar that does not load leaves the plain square, not a broken-image icon.
  const [pictureFailed, setPictureFailed] = useState(false);
  return (
    <button type="button" className={styles.result} onClick={onPick}>
      {picture && !pictureFailed ? (
        <img
          src={picture}
          alt=""
          className={styles.picture}
          width={32}
          height={32}
          onError={() => setPictureFailed(true)}
        />
      ) : (
        <span className={styles.picture} aria-hidden="true" />
      )}
      <span className={styles.text}>
        <span className={styles.resultTitle}>{title}</span>
        {description ? <span className={styles.description}>{description}</span> : null}
      </span>
    </button>
  );
}

/**
 * What the block shows (the place, feed, subreddit or channel picked), with a way to pick another, and
 * the schema's message when the pick itself is not valid (it has no field of its own).
 */
export function PickedChoice({
  label,
  title,
  description,
  picture,
  error,
  onChange,
}: {
  /** What was picked: 'Location', 'Feed', 'Subreddit', 'Channel' (also names the Change button). */
  label: string;
  title: string;
  description?: string | undefined;
  picture?: string | null | undefined;
  error?: string | undefined;
  onChange: () => void;
}) {
  return (
    <div className={styles.pickedField}>
      <div className={styles.picked}>
        {picture ? (
          <img src={picture} alt="" className={styles.picture} width={32} height={32} />
        ) : (
          <span className={styles.picture} aria-hidden="true" />
        )}
        <p className={styles.text}>
          <span className={styles.pickedLabel}>{label}</span>
          <span className={styles.resultTitle}>{title || 'None chosen'}</span>
          {description ? <span className={styles.description}>{description}</span> : null}
        </p>
        <Button variant="secondary" small onClick={onChange} aria-label={`Change ${label.toLowerCase()}`}>
          Change
        </Button>
      </div>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
