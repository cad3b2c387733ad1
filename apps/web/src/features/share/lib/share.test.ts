import { describe, expect, it } from 'vitest';
import { addPendingEmail, EMPTY_PENDING_MESSAGE } from './pending-emails';
import { publicDigestUrl, sharedHtmlApiPath } from './share-link';

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

describe('public links (docs/product.md §2)', () => {
  it('copies {origin}/digests/share/{digestId}/{buildNumber}, without a number before the first issue', () => {
    expect(publicDigestUrl('https://app.test', 'abc', 7)).toBe('https://app.test/digests/share/abc/7');
    expect(publicDigestUrl('https://app.test', 'abc', null)).toBe('https://app.test/digests/share/abc');
  });

  it('reads the HTML from the public API path', () => {
    expect(sharedHtmlApiPath('abc', 3)).toBe('/api/digests/share/abc/3');
    expect(sharedHtmlApiPath('abc', null)).toBe('/api/digests/share/abc');
  });
});
