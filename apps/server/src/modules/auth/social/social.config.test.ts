import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#server/app/config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, '/srv/digest');
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('social sign-in configuration', () => {
  it('points at the real providers and turns none on by default', () => {
    expect(loadConfig({}).oauth).toEqual({
      google: { credentials: undefined, issuer: 'https://accounts.google.com' },
      twitter: {
        credentials: undefined,
        authorizationUrl: 'https://x.com/i/oauth2/authorize',
        tokenUrl: 'https://api.x.com/2/oauth2/token',
        userinfoUrl: 'https://api.x.com/2/users/me',
      },
      facebook: {
        credentials: undefined,
        authorizationUrl: 'https://www.facebook.com/v23.0/dialog/oauth',
        tokenUrl: 'https://graph.facebook.com/v23.0/oauth/access_token',
        userinfoUrl: 'https://graph.facebook.com/v23.0/me',
      },
      stripe: { credentials: undefined, connectUrl: 'https://connect.stripe.com' },
    });
  });

  it('turns a provider on with its id and secret, and takes every endpoint from the environment', () => {
    const { oauth } = loadConfig({
      GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'GOCSPX-secret',
      GOOGLE_ISSUER: 'http://127.0.0.1:8080',
      FACEBOOK_USERINFO_URL: 'https://graph.example.com/v99.0/me',
    });
    expect(oauth.google).toEqual({
      credentials: { clientId: 'id.apps.googleusercontent.com', clientSecret: 'GOCSPX-secret' },
      issuer: 'http://127.0.0.1:8080',
    });
    expect(oauth.facebook.userinfoUrl).toBe('https://graph.example.com/v99.0/me');
    expect(oauth.twitter.credentials).toBeUndefined();
  });

  it('refuses an id without its secret, and the reverse, naming the missing variable', () => {
    expect(problemsOf({ GOOGLE_CLIENT_ID: 'id' })).toEqual([
      'GOOGLE_CLIENT_SECRET=(value hidden) must be set when GOOGLE_CLIENT_ID is set',
    ]);
    expect(problemsOf({ TWITTER_CLIENT_SECRET: 'do-not-print-me' })).toEqual([
      'TWITTER_CLIENT_ID="" must be set when TWITTER_CLIENT_SECRET is set',
    ]);
  });

  it.each([
    ['GOOGLE_ISSUER', 'accounts.google.com'],
    ['GOOGLE_ISSUER', 'http://accounts.google.com'],
    ['TWITTER_TOKEN_URL', 'ftp://api.x.com/2/oauth2/token'],
    ['FACEBOOK_AUTHORIZATION_URL', 'http://10.0.0.5/dialog/oauth'],
  ])('refuses %s=%s: https only, plain http on this machine only', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name}=`));
  });
});
