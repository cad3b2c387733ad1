import { useSyncExternalStore } from 'react';

type Sonner = typeof import('./sonner');

/** docs/product.md §8: toasts at the top right, closing after 5000 ms. */
const TOAST_DURATION_MS = 5000;

let sonner: Sonner | null = null;
let loading: Promise<Sonner> | null = null;
const listeners = new Set<() => void>();

/**
 * sonner, loaded with the first toast rather than with the app: most visits (the log-in page first)
 * show none, and its script and styles are then not part of the first load (issue 15). A toast asked for
 * before the Toaster is mounted is not lost: sonner hands the active toasts to a Toaster when it subscribes.
 */
export function loadSonner(): Promise<Sonner> {
  loading ??= import('./sonner').then((module) => {
    sonner = module;
    for (const listener of listeners) listener();
    return module;
  });
  return loading;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Where toasts appear; renders nothing until the first toast has loaded sonner. */
export function Toasts() {
  const loaded = useSyncExternalStore(subscribe, () => sonner);
  if (!loaded) return null;
  return <loaded.Toaster position="top-right" duration={TOAST_DURATION_MS} closeButton richColors />;
}
