import { describe, expect, it } from 'vitest';
import { signedInRedirect } from './redirects';

const at = (url: string) => {
  const { pathname, search } = new URL(url, 'http://app.test');
  return { pathname, search };
};

describe('signed-in visitors on signed-out pages (docs/product.md §2)', () => {
  it('sends /signup to the onboarding', () => {
    expect(signedInRedirect(at('/signup?name=a@b.co'), false)).toBe('/createDigest');
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
