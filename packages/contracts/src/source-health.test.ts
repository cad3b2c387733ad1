import { describe, expect, it } from 'vitest';
import { sourceFixOf, sourceHealthKey } from './source-health';
import { sourceSchema } from './sources';

describe('the fix of a failing source comes from the kind of its failure', () => {
  it('an account the provider no longer accepts: reconnect that provider', () => {
    expect(sourceFixOf('GOOGLE_CALENDAR', { kind: 'not_connected' })).toMatchObject({
      action: 'reconnect',
      label: 'Reconnect Google',
    });
    expect(sourceFixOf('STRIPE', { kind: 'unauthorized' })).toMatchObject({ label: 'Reconnect Stripe' });
  });

  it('a subreddit Reddit refuses with 403 is private now; a 404 is gone: edit the source', () => {
    expect(sourceFixOf('REDDIT', { kind: 'not_found', providerStatus: 403 })).toEqual({
      message: 'The subreddit is private now.',
      action: 'edit',
      label: 'Edit the source',
    });
    expect(sourceFixOf('REDDIT', { kind: 'not_found', providerStatus: 404 }).message).toBe(
      'The subreddit is gone.',
    );
  });

  it('a feed gone from its address, or asking for a sign-in: edit it; a provider down or rate-limited: wait', () => {
    expect(sourceFixOf('RSS', { kind: 'not_found' })).toMatchObject({ action: 'edit' });
    expect(sourceFixOf('RSS', { kind: 'unauthorized' })).toMatchObject({ action: 'edit' });
    expect(sourceFixOf('RSS', { kind: 'upstream', providerStatus: 500 })).toEqual({
      message: 'The feed is having trouble.',
      action: 'wait',
    });
    expect(sourceFixOf('YOUTUBE', { kind: 'rate_limited' }).action).toBe('wait');
  });
});

describe("a source's identity in its digest", () => {
  it('is what it reads, not how it looks: a renamed feed keeps its record, another feed has its own', () => {
    const feed = sourceSchema.parse({ type: 'RSS', feedLink: 'https://a.example/feed' });
    const renamed = sourceSchema.parse({ type: 'RSS', feedLink: 'https://a.example/feed', sourceName: 'A' });
    const other = sourceSchema.parse({ type: 'RSS', feedLink: 'https://b.example/feed' });
    expect(sourceHealthKey(renamed)).toBe(sourceHealthKey(feed));
    expect(sourceHealthKey(other)).not.toBe(sourceHealthKey(feed));
    expect(sourceHealthKey(sourceSchema.parse({ type: 'DATE' }))).toBe('DATE');
  });
});
