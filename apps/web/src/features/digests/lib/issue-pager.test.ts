import { describe, expect, it } from 'vitest';
import type { Build } from '../api/schemas';
import { issuePager } from './issue-pager';

const build = (buildNumber: number): Build => ({
  buildNumber,
  createdAt: `2026-11-0${buildNumber}T07:00:00.000Z`,
  htmlLink: `/api/digests/d/issues/${buildNumber}/html?expires=1795651200&signature=s${buildNumber}`,
});

describe('build pager (docs/product.md §4)', () => {
  it('has nothing to page before the first issue', () => {
    expect(issuePager([], null)).toBeNull();
  });

  it('selects the newest issue by default, with next disabled at that end', () => {
    const pager = issuePager([build(2), build(3), build(1)], null);
    expect(pager?.current.buildNumber).toBe(3);
    expect(pager?.index).toBe(2);
    expect(pager?.count).toBe(3);
    expect(pager?.previous?.buildNumber).toBe(2);
    expect(pager?.next).toBeUndefined();
  });

  it('disables previous at the oldest issue', () => {
    const pager = issuePager([build(1), build(2), build(3)], 1);
    expect(pager?.current.buildNumber).toBe(1);
    expect(pager?.previous).toBeUndefined();
    expect(pager?.next?.buildNumber).toBe(2);
  });

  it('disables both ends when there is a single issue', () => {
    const pager = issuePager([build(1)], 1);
    expect(pager?.previous).toBeUndefined();
    expect(pager?.next).toBeUndefined();
  });

  it('shows the newest loaded issue while a selected one is not loaded yet', () => {
    expect(issuePager([build(1), build(2)], 3)?.current.buildNumber).toBe(2);
  });
});
