import { describe, expect, it } from 'vitest';
import { createIssueLinks, ISSUE_LINK_LIFETIME_MS } from './issue-links';

const DIGEST = '00000000-0000-4000-8000-000000000001';
const key = new Uint8Array(32).fill(7);

function linksAt(time: string) {
  const clock = { current: new Date(time), now: () => clock.current };
  return { clock, links: createIssueLinks(key, clock) };
}

const queryOf = (path: string) => {
  const url = new URL(path, 'http://app.test');
  return {
    expires: url.searchParams.get('expires') ?? '',
    signature: url.searchParams.get('signature') ?? '',
  };
};

describe("an owner's issue link works for one issue and expires within a day", () => {
  it('stays the same for an hour, so the frame showing it does not reload on every refetch', () => {
    const { clock, links } = linksAt('2026-11-25T10:05:00Z');
    const first = links.ownerHtmlPath(DIGEST, 3);
    clock.current = new Date('2026-11-25T10:55:00Z');
    expect(links.ownerHtmlPath(DIGEST, 3)).toBe(first);
    expect(first).toMatch(
      new RegExp(`^/api/digests/${DIGEST}/issues/3/html\\?expires=\\d+&signature=[\\w-]+$`),
    );
  });

  it('is valid until it expires, then never again', () => {
    const { clock, links } = linksAt('2026-11-25T10:05:00Z');
    const query = queryOf(links.ownerHtmlPath(DIGEST, 3));
    expect(links.isValid(DIGEST, 3, query)).toBe(true);
    clock.current = new Date(Date.parse('2026-11-25T10:00:00Z') + ISSUE_LINK_LIFETIME_MS - 1000);
    expect(links.isValid(DIGEST, 3, query)).toBe(true);
    clock.current = new Date(Date.parse('2026-11-25T10:00:00Z') + ISSUE_LINK_LIFETIME_MS);
    expect(links.isValid(DIGEST, 3, query)).toBe(false);
  });

  it('does not open another issue, another digest, or with another key', () => {
    const { links } = linksAt('2026-11-25T10:05:00Z');
    const query = queryOf(links.ownerHtmlPath(DIGEST, 3));
    expect(links.isValid(DIGEST, 4, query)).toBe(false);
    expect(links.isValid('00000000-0000-4000-8000-000000000002', 3, query)).toBe(false);
    expect(links.isValid(DIGEST, 3, { ...query, expires: 'soon' })).toBe(false);
    expect(links.isValid(DIGEST, 3, { ...query, signature: '' })).toBe(false);
    const otherKey = createIssueLinks(new Uint8Array(32).fill(8), {
      now: () => new Date('2026-11-25T10:05:00Z'),
    });
    expect(otherKey.isValid(DIGEST, 3, query)).toBe(false);
  });
});
