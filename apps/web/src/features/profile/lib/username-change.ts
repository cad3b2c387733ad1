import { USERNAME_RESERVATION_DAYS, type User, usernameSchema } from '@digest/contracts';

/** The part of the newsletter address after `@`: the server's mail domain, which the web app is not told otherwise. */
const mailDomainOf = (newsletterEmail: string) => newsletterEmail.slice(newsletterEmail.indexOf('@') + 1);

/**
 * The hint under Edit profile's Username field (docs/product.md §2 Edit profile): what the name does while it
 * is unchanged, and what changing it does once the typed name is valid. A change of letter case only keeps
 * the newsletter address (it is lower-cased) and the public page (matched in any case).
 */
export function usernameHint(user: Pick<User, 'username' | 'newsletterEmail'>, typed: string): string {
  const parsed = usernameSchema.safeParse(typed);
  const { username, newsletterEmail } = user;
  if (!username || !newsletterEmail) return 'Letters and numbers only.';
  if (!parsed.success || parsed.data.toLowerCase() === username.toLowerCase()) {
    return `Letters and numbers only. Your newsletter address is ${newsletterEmail}.`;
  }
  const next = parsed.data;
  return (
    `Your newsletter address will change to ${next.toLowerCase()}@${mailDomainOf(newsletterEmail)}, and ` +
    `your public page moves to /user/${next}. Nobody else can take @${username} for ` +
    `${USERNAME_RESERVATION_DAYS} days.`
  );
}
