import { describe, expect, it } from 'vitest';
import { keepingSources, signedInRedirect } from './redirects';

const at = (url: string) => {
  const { pathname, search } = new URL(url, 'http://app.test');
  return { pathname, search };
};

describe('signed-in visitors on signed-out pages (docs/product.md §2)', () => {
  it('sends /signup to the onboarding', () => {
    expect(signedInRedirect(at('/signup?name=a@b.co'), false)).toBe('/createDigest');
  });

  it('sends /signup to the onboarding with the passed sources, and only them', () => {
    expect(signedInRedirect(at('/signup?name=a@b.co&sources=todaysDate,hackerNews'), false)).toBe(
      '/createDigest?sources=todaysDate%2ChackerNews',
    );
  });

  it('sends /login to the builder with the passed sources, whatever the mode', () => {
    expect(signedInRedirect(at('/login?sources=rss,reddit'), true)).toBe(
      '/digestCreator?sources=rss%2Creddit',
    );
  });

  it('sends /login to the onboarding in sign-up mode, else to the digests', () => {
    expect(signedInRedirect(at('/logIn'), true)).toBe('/createDigest');
    expect(signedInRedirect(at('/LOGIN/'), false)).toBe('/digests');
  });

  it('sends the other signed-out pages to the digests', () => {
    expect(signedInRedirect(at('/forgetPassword'), true)).toBe('/digests');
    expect(signedInRedirect(at('/recover-message'), false)).toBe('/digests');
  });
});

describe('the sources parameter is kept from page to page (docs/product.md §2)', () => {
  it('carries only the sources parameter, encoded', () => {
    expect(keepingSources('/createDigest', '?name=a@b.co&sources=rss,<b>x</b>&x=1')).toBe(
      '/createDigest?sources=rss%2C%3Cb%3Ex%3C%2Fb%3E',
    );
  });

  it('leaves the path alone without sources, or with an empty list', () => {
    expect(keepingSources('/createDigest', '')).toBe('/createDigest');
    expect(keepingSources('/createDigest', '?sources=')).toBe('/createDigest');
    expect(keepingSources('/logIn', '?name=a@b.co')).toBe('/logIn');
  });
});
