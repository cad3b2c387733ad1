import type { TweetUser } from '@digest/contracts/content';
import { describe, expect, it } from 'vitest';
import { addTwitterUser, removeTwitterUser } from './twitter-users';

const user = (username: string): TweetUser => ({
  twitterUserId: `id-${username}`,
  fullName: username.toUpperCase(),
  username,
  image: '',
  followersCount: 10,
});

describe('chosen Twitter users (docs/product.md §5)', () => {
  it('are unique by username, whatever its letter case', () => {
    const once = addTwitterUser([], user('nasa'));
    expect(addTwitterUser(once, user('NASA'))).toHaveLength(1);
    expect(addTwitterUser(once, user('esa')).map((item) => item.username)).toEqual(['nasa', 'esa']);
  });

  it('can be removed', () => {
    const chosen = addTwitterUser(addTwitterUser([], user('nasa')), user('esa'));
    expect(removeTwitterUser(chosen, 'NASA').map((item) => item.username)).toEqual(['esa']);
  });
});
