import { describe, expect, it } from 'vitest';
import { keepSourcesForSocial, SOCIAL_SOURCES_KEY, takeSourcesFromSocial } from './social-sources';

/** A tab's session storage, in memory. */
function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

/** Storage that refuses everything, as in some private modes. */
const refusingStorage = {
  getItem: (): string | null => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
  removeItem: () => {
    throw new Error('SecurityError');
  },
};

describe('the sources chosen before a social sign-in survive the trip to the provider (docs/product.md §2)', () => {
  it('keeps the kinds the page names and gives them back after the trip', () => {
    const storage = memoryStorage();
    keepSourcesForSocial('?sources=todaysDate,hackerNews', storage);
    expect(takeSourcesFromSocial(storage)).toEqual(['DATE', 'HACKER_NEWS']);
  });

  it('gives them back once: a second return finds nothing', () => {
    const storage = memoryStorage();
    keepSourcesForSocial('?sources=rss', storage);
    expect(takeSourcesFromSocial(storage)).toEqual(['RSS']);
    expect(takeSourcesFromSocial(storage)).toEqual([]);
    expect(storage.items.size).toBe(0);
  });

  it('writes only known keys: unknown ones, repeats and markup are dropped', () => {
    const storage = memoryStorage();
    keepSourcesForSocial('?sources=<script>alert(1)</script>,weather,toString,weather,nope', storage);
    expect(storage.items.get(SOCIAL_SOURCES_KEY)).toBe('weather');
    expect(takeSourcesFromSocial(storage)).toEqual(['WEATHER']);
  });

  it('forgets what an earlier trip kept when this page names no known kind', () => {
    const storage = memoryStorage({ [SOCIAL_SOURCES_KEY]: 'rss' });
    keepSourcesForSocial('?sources=nothing,known', storage);
    expect(storage.items.has(SOCIAL_SOURCES_KEY)).toBe(false);
    keepSourcesForSocial('', storage);
    expect(takeSourcesFromSocial(storage)).toEqual([]);
  });

  it('reads what was stored through the parser again, so altered storage opens only known kinds', () => {
    const storage = memoryStorage({ [SOCIAL_SOURCES_KEY]: 'reddit,"><img src=x>,__proto__' });
    expect(takeSourcesFromSocial(storage)).toEqual(['REDDIT']);
  });

  it('signs in without the choice when storage is refused', () => {
    expect(() => keepSourcesForSocial('?sources=rss', refusingStorage)).not.toThrow();
    expect(takeSourcesFromSocial(refusingStorage)).toEqual([]);
  });
});
