/**
 * The built-in Terms of Service and Privacy Policy, in Markdown. They describe what this program does, so
 * they must change with it: a change to what is stored, sent to a provider, kept or deleted changes the
 * Privacy Policy in the same commit (docs/product.md §2 "Legal and help pages"). An operator replaces
 * either with TERMS_FILE / TERMS_URL or PRIVACY_FILE / PRIVACY_URL.
 */

export const BUILT_IN_TERMS = `
Digest lets you build personal newsletters ("digests") from things you follow, have them e-mailed to you
and to friends you share them with, and read them in the app. These terms are between you and the people
who run this server (its operator). By creating an account you accept them.

## Your account

- You need an e-mail address you can read. Keep your password to yourself; you are responsible for what is
  done with your account.
- Your username makes your public profile address and your newsletter address. Pick one that does not
  pretend to be someone else.
- You can delete your account at any time from Edit profile (Delete account).

## What you put in a digest

- You choose the sources of each digest. The content comes from their publishers (feeds, Reddit, Hacker
  News, YouTube, Product Hunt, X/Twitter, Google Calendar, Stripe…); it belongs to them, and their own
  terms apply to it. Digest shows it as they publish it and does not check it.
- Only share a digest with people who want it. Every e-mail to a friend carries an unsubscribe link, and a
  friend who unsubscribes stops receiving it.
- Do not use Digest to send spam, to reach private networks through the server, to break a provider's
  terms, or to overload the server. The server limits how often some things can be done.

## What Digest gives you

- Digest is offered as it is. Sources fail, providers change their services, e-mails can be late or lost;
  a digest with nothing new is not sent. Nothing here promises that an issue will be sent at a given time.
- The operator may change Digest or these terms; what changed is listed in the changelog. The operator may
  close an account that breaks these terms.

## Privacy

What Digest stores about you, what it sends to whom and how long it keeps it is in the Privacy Policy.
`;

export const BUILT_IN_PRIVACY = `
This page says what Digest stores, what it sends to which outside service, how long it keeps it and how to
delete it. It describes this program as it works today. The people who run this server (its operator) are
responsible for your data; how to reach them is at the bottom of the page.

Digest loads no advertising, analytics or other third-party script in the app, and tells nobody what you do
in it.

## What Digest stores

- **Your account**: your e-mail address, your password as an Argon2 hash (never the password itself),
  whether you signed up with Google, X/Twitter or Facebook (and that account's id at the provider), and your
  signed-in devices (sessions, with their refresh tokens stored as hashes).
- **Your profile**: full name, username, bio, photo, time zone and language. Your public profile at
  /user/{username} shows your photo, name, bio and the digests whose public link you turned on (not the
  paused ones).
- **Your digests and drafts**: their names, schedules, sources and settings (a weather place, feed addresses,
  subreddits, channels, searches…), and the e-mail addresses of the friends you share them with, with
  whether and when each subscribed or unsubscribed.
- **Issues**: every issue built is stored as the e-mail it was, so you can read it in the app, together
  with whom it was sent to and whether the sending worked, and as a public copy without the blocks that
  read your connected accounts (Google Calendar, Stripe, your X timeline, lists and the tweets of the
  accounts you follow), which show only their title and the word "Private".
- **Digests are private** unless you turn on a digest's public link in its Share dialog. Then anyone who
  has that link (/digests/share/ and a long random code) can read every issue of the digest in that public
  copy, and the digest is listed on your public profile while it runs. Turning the link off ends it
  (copies cached on the way expire within a minute); turning it on again makes a new link, and the old
  one never works again.
- **Connected accounts** (Google Calendar, X/Twitter, Stripe): the account's name or e-mail and picture,
  and the tokens the provider gave, encrypted (AES-256-GCM). They never leave the server.
- **Logs**: the server writes a line for each request (its method, path without the values of its
  parameters, status and the network address it came from) and for each job. They go to the server's output; how long they are kept is up to the operator.
- **Mail outbox**: when the server has no mail server configured, each e-mail is written to a file on the
  server instead of being sent.

## What Digest sends, and to whom

The server, not your browser, reads every source, so the sites it reads see the server's address, not
yours.

- **Weather**: the place you search for goes to Open-Meteo's geocoding service, and the place's
  coordinates to Open-Meteo's forecast service.
- **Hacker News, Reddit, Product Hunt, YouTube**: the searches and names you pick (stories, subreddits,
  channels) go to Hacker News's search (Algolia), Reddit, Product Hunt and YouTube (Google), with the
  server's own keys where it has them, never yours.
- **Feeds**: the addresses you add are fetched from the server.
- **Google Calendar, X/Twitter, Stripe**: with the tokens of an account you connected, the server reads
  your calendars' events, tweets, timelines, searches and lists, or the last day's payments, customers and
  revenue. Connecting sends you to the provider to agree; disconnecting deletes the tokens and revokes them at the
  provider (unless another user of this server connected the same account).
- **Signing in with Google, X/Twitter or Facebook**: the provider tells Digest your account's id, name and
  e-mail address.
- **E-mail**: issues, notices to the friends you add, and password reset links go through the operator's
  mail server to the recipients. Pictures in an issue are loaded by the reader's mail program or browser from
  the sites that published them.

## How long Digest keeps it

- Sign-in sessions last 30 days after their last use; password reset links 30 minutes; unfinished sign-ins
  and connections are deleted once they expire (checked every 15 minutes).
- Content read from the sources is cached for a short time, and deleted at most a day after it goes stale.
- Everything else (your account, profile, digests, drafts, friends' addresses, issues and connected
  accounts) is kept until you delete it, or delete your account. There is no other time limit.

## How to delete it

- **Your account**: Edit profile, then Delete account. It deletes your account, profile, photo, sessions,
  digests, drafts, subscribers, issues and connected accounts from the server's database at once. E-mails
  already sent stay in their recipients' mailboxes, and the server's logs are not edited.
- **A digest, a draft, a friend or a connected account**: delete it where it is shown in the app.
- **If you receive a digest**: every e-mail has an Unsubscribe link; the address is kept as unsubscribed so
  nothing more is sent to it.
`;
