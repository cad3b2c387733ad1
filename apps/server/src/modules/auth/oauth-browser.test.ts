import { describe, expect, it } from 'vitest';
import { stateCookie, stateCookieOf } from './oauth-browser';

describe('state cookies of OAuth flows', () => {
  it('are __Secure- prefixed and Secure when the app is served over https', () => {
    const cookie = stateCookieOf('digest_connect_state', 'https://digest.example.com');
    expect(cookie).toEqual({ name: '__Secure-digest_connect_state', secure: true });
    expect(
      stateCookie({ ...cookie, path: '/api/auth/google/tokens', value: 'abc', maxAgeSeconds: 600 }),
    ).toBe(
      '__Secure-digest_connect_state=abc; Path=/api/auth/google/tokens; Max-Age=600; HttpOnly; SameSite=Lax; Secure',
    );
  });

  it('keep the bare name, without Secure, over plain http (localhost development, tests)', () => {
    const cookie = stateCookieOf('digest_oauth_state', 'http://localhost:3000');
    expect(cookie).toEqual({ name: 'digest_oauth_state', secure: false });
    expect(stateCookie({ ...cookie, path: '/api/auth/google/callback', value: '', maxAgeSeconds: 0 })).toBe(
      'digest_oauth_state=; Path=/api/auth/google/callback; Max-Age=0; HttpOnly; SameSite=Lax',
    );
  });

  it('never leave Secure off a __Secure- cookie (the browser would drop it)', () => {
    expect(
      stateCookie({ name: '__Secure-x', path: '/', value: 'v', maxAgeSeconds: 1, secure: false }),
    ).toContain('; Secure');
  });
});
