import type { TwitterTweetsSource } from '@digest/contracts';
import type { TweetUser } from '@digest/contracts/content';

export type ChosenTwitterUser = NonNullable<TwitterTweetsSource['twitterUsers']>[number];

/** The same user in any letter case (X usernames are case-insensitive, and so is the shared schema). */
const sameUser = (a: { username: string }, b: { username: string }) =>
  a.username.toLowerCase() === b.username.toLowerCase();

/** docs/product.md §5: chosen Twitter users are unique by username; a user already there is not added again. */
export function addTwitterUser(chosen: readonly ChosenTwitterUser[], user: TweetUser): ChosenTwitterUser[] {
  if (chosen.some((item) => sameUser(item, user))) return [...chosen];
  const { twitterUserId, fullName, username, image, followersCount } = user;
  return [...chosen, { twitterUserId, fullName, username, image, followersCount }];
}

export function removeTwitterUser(
  chosen: readonly ChosenTwitterUser[],
  username: string,
): ChosenTwitterUser[] {
  return chosen.filter((item) => !sameUser(item, { username }));
}
