import type { Build } from '../api/schemas';

export interface IssuePager {
  /** The issue shown. */
  current: Build;
  /** Its place from the oldest, 0-based, and how many issues there are. */
  index: number;
  count: number;
  /** Undefined at the ends, where the pager's buttons are disabled (docs/product.md §4). */
  previous: Build | undefined;
  next: Build | undefined;
}

/**
 * The build pager of Digest detail (docs/product.md §4): issues from the oldest to the newest, the selected one —
 * or the newest when none is selected or the selected one is not loaded yet. Null before the first issue.
 */
export function issuePager(builds: readonly Build[], selected: number | null): IssuePager | null {
  const ordered = [...builds].sort((a, b) => a.buildNumber - b.buildNumber);
  const current = ordered.find((build) => build.buildNumber === selected) ?? ordered.at(-1);
  if (!current) return null;
  const index = ordered.indexOf(current);
  return {
    current,
    index,
    count: ordered.length,
    previous: ordered[index - 1],
    next: ordered[index + 1],
  };
}
