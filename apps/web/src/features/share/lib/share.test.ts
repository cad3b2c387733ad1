import { describe, expect, it } from 'vitest';
import { addPendingEmail, EMPTY_PENDING_MESSAGE } from './pending-emails';
import { apiPathOf, publicDigestPath, sharedHtmlApiPath } from './share-link';

describe('the share dialog pending list (docs/product.md §4, §5)', () => {
  it("refuses a bad address with '{email} should be a valid email!' and the text as entered", () => {
    expect(addPendingEmail('not-an-email', [], [])).toEqual({
      ok: false,
      error: 'not-an-email should be a valid email!',
    });
    expect(addPendingEmail(' a b@c.com ', [], [])).toEqual({
      ok: false,
      error: 'a b@c.com should be a valid email!',
    });
  });

  it('puts a valid address at the FRONT of the pending list, normalised', () => {
    const first = addPendingEmail('ann@example.com', [], []);
    expect(first).toEqual({ ok: true, pending: ['ann@example.com'] });
    const second = addPendingEmail(' Bob@Example.com ', ['ann@example.com'], []);
    expect(second).toEqual({ ok: true, pending: ['bob@example.com', 'ann@example.com'] });
  });

  it('does not add an address twice, nor an active subscriber', () => {
    expect(addPendingEmail('ann@example.com', ['ann@example.com'], [])).toMatchObject({ ok: false });
    expect(addPendingEmail('ANN@example.com', [], ['ann@example.com'])).toMatchObject({ ok: false });
  });

  it('has the specified text for sharing with nothing pending', () => {
    expect(EMPTY_PENDING_MESSAGE).toBe('Click the + sign to add the email to the list first.');
  });
});

describe('public links (docs/product.md §2): by the share token, never the digest id', () => {
  const token = 'k3Jx9_Qm-2VbY7wTzR4nLp0aHs8dEfGiUoCqWjXy1Mc';

  it('opens /digests/share/{shareToken}[/{buildNumber}], the latest issue without a number', () => {
    expect(publicDigestPath(token, 7)).toBe(`/digests/share/${token}/7`);
    expect(publicDigestPath(token, null)).toBe(`/digests/share/${token}`);
  });

  it('reads the HTML from the public API path', () => {
    expect(sharedHtmlApiPath(token, 3)).toBe(`/api/digests/share/${token}/3`);
    expect(sharedHtmlApiPath(token, null)).toBe(`/api/digests/share/${token}`);
  });

  it("reads an owner's signed issue link through the API client, its query kept", () => {
    const link = '/api/digests/d1/issues/2/html?expires=1795651200&signature=abc';
    expect(apiPathOf(link)).toBe('/digests/d1/issues/2/html?expires=1795651200&signature=abc');
    expect(apiPathOf(sharedHtmlApiPath(token))).toBe(`/digests/share/${token}`);
  });
});
