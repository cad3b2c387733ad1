import { timingSafeEqual } from 'node:crypto';
import { fullNameSchema, type SocialProvider } from '@digest/contracts';
import * as oauth from 'oauth4webapi';
import { isUniqueViolation } from '#server/db/unique-violation';
import { findUserByEmail, findUserById, insertUser } from '#server/modules/users/users.repository';
import { normaliseEmail } from '#server/modules/users/users.rules';
import { hashToken, randomToken } from '#server/platform/crypto';
import { revokeUserSessions } from '../auth.repository';
import { type AuthDeps, startSession } from '../auth.usecases';
import { socialErrors } from './social.errors';
import type { ProviderProfile, SocialProviders } from './social.providers';
import * as repository from './social.repository';

export const SIGN_IN_MODES = ['signin', 'signup'] as const;
export type SignInMode = (typeof SIGN_IN_MODES)[number];

/** How long a person may take at the provider. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
/** How long the web app has to redeem the ticket it was redirected with. */
export const SOCIAL_TICKET_TTL_MS = 2 * 60 * 1000;

export interface SocialDeps extends AuthDeps {
  appUrl: string;
  providers: SocialProviders;
}

const later = (now: Date, ms: number) => new Date(now.getTime() + ms);

/** The path of our callback; the provider must have it registered as a redirect URI. */
export const callbackPath = (mode: SignInMode, provider: SocialProvider) =>
  `/api/auth/${mode}/${provider}/callback`;

export const redirectUriOf = (appUrl: string, mode: SignInMode, provider: SocialProvider) =>
  `${appUrl}${callbackPath(mode, provider)}`;

/**
 * Starts a sign-in: a random state (stored hashed, single use, 10 minutes) with its PKCE verifier and, for
 * OpenID Connect, a nonce. Answers where to send the browser, the state to bind to the browser, and a new
 * random binding for its cookie: only the browser holding it may redeem the flow's ticket. A new one each
 * time, so a value planted in the browser beforehand is of no use.
 */
export async function beginSocialSignIn(deps: SocialDeps, provider: SocialProvider, mode: SignInMode) {
  const client = deps.providers[provider];
  if (!client.configured) throw socialErrors.notConfigured(provider);
  const state = randomToken();
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const nonce = client.usesNonce ? randomToken() : undefined;
  let url: URL;
  try {
    url = await client.authorizationUrl({
      redirectUri: redirectUriOf(deps.appUrl, mode, provider),
      state,
      codeChallenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      nonce,
    });
  } catch (error) {
    throw socialErrors.unavailable(provider).because(error);
  }
  const browserBinding = randomToken();
  await repository.insertOAuthState(deps.db, {
    stateHash: hashToken(state),
    provider,
    purpose: mode,
    codeVerifier,
    nonce: nonce ?? null,
    browserBindingHash: hashToken(browserBinding),
    expiresAt: later(deps.clock.now(), OAUTH_STATE_TTL_MS),
  });
  return { url: url.href, state, browserBinding };
}

function sameSecret(a: string, b: string) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface SocialCallback {
  provider: SocialProvider;
  mode: SignInMode;
  /** The callback's query as the provider sent it. */
  parameters: URLSearchParams;
  /** The state the browser was given when it started (its cookie); binds the flow to that browser. */
  browserState: string | undefined;
}

/**
 * Finishes a sign-in: checks and uses up the state, exchanges the code (with the PKCE verifier), reads who
 * signed in, finds or creates their account by verified e-mail, and answers a single-use ticket for it.
 */
export async function completeSocialSignIn(deps: SocialDeps, callback: SocialCallback) {
  const { provider, mode, parameters } = callback;
  const client = deps.providers[provider];
  if (!client.configured) throw socialErrors.notConfigured(provider);

  const state = parameters.get('state');
  const stored = state ? await repository.consumeOAuthState(deps.db, hashToken(state)) : undefined;
  const error = parameters.get('error');
  if (error)
    throw error === 'access_denied' ? socialErrors.cancelled(provider) : socialErrors.failed(provider);
  if (!state || !stored) throw socialErrors.invalidState(provider, state ? 'unknown_state' : 'missing_state');
  if (stored.provider !== provider || stored.purpose !== mode) {
    throw socialErrors.invalidState(provider, 'state_of_another_flow');
  }
  if (stored.expiresAt <= deps.clock.now()) throw socialErrors.invalidState(provider, 'expired_state');
  // A state stored before flows were bound to a browser has nothing to carry over to its ticket.
  if (!stored.browserBindingHash) throw socialErrors.invalidState(provider, 'unbound_state');
  const { browserBindingHash } = stored;
  if (!callback.browserState || !sameSecret(callback.browserState, state)) {
    throw socialErrors.invalidState(provider, 'state_not_from_this_browser');
  }

  let profile: ProviderProfile;
  try {
    profile = await client.exchange({
      callbackParameters: parameters,
      state,
      redirectUri: redirectUriOf(deps.appUrl, mode, provider),
      codeVerifier: stored.codeVerifier,
      nonce: stored.nonce ?? undefined,
    });
  } catch (cause) {
    throw socialErrors.failed(provider).because(cause);
  }
  if (!profile.email || !profile.emailVerified) throw socialErrors.noVerifiedEmail(provider);

  const { userId, isNewUser } = await findOrCreateAccount(deps, provider, {
    ...profile,
    email: normaliseEmail(profile.email),
  });
  const now = deps.clock.now();
  const ticket = randomToken();
  await repository.insertTicket(deps.db, {
    ticketHash: hashToken(ticket),
    userId,
    provider,
    isNewUser,
    browserBindingHash,
    expiresAt: later(now, SOCIAL_TICKET_TTL_MS),
  });
  return { ticket, isNewUser };
}

/** A full name from the provider is kept only when it passes the profile's own rule (letters and spaces). */
function fullNameFrom(name: string | undefined) {
  const parsed = fullNameSchema.safeParse(name);
  return parsed.success ? parsed.data : null;
}

/**
 * The account of a verified provider identity: the one it signed in to before; else the account with its
 * e-mail, which it is linked to; else a new, confirmed account.
 */
async function findOrCreateAccount(
  deps: SocialDeps,
  provider: SocialProvider,
  profile: ProviderProfile & { email: string },
): Promise<{ userId: string; isNewUser: boolean }> {
  const attempt = () =>
    deps.db.transaction(async (tx) => {
      const identity = await repository.findIdentity(tx, provider, profile.subject);
      if (identity) return { userId: identity.userId, isNewUser: false };
      const identityOf = (userId: string) => ({
        provider,
        subject: profile.subject,
        userId,
        email: profile.email,
      });
      const existing = await findUserByEmail(tx, profile.email);
      if (existing) {
        await repository.insertIdentity(tx, identityOf(existing.userId));
        if (!existing.confirmed) {
          const now = deps.clock.now();
          await repository.claimUnconfirmedAccount(tx, existing.userId, now);
          await revokeUserSessions(tx, existing.userId, now);
        }
        return { userId: existing.userId, isNewUser: false };
      }
      const user = await insertUser(tx, {
        email: profile.email,
        method: provider,
        confirmed: true,
        fullName: fullNameFrom(profile.name),
      });
      await repository.insertIdentity(tx, identityOf(user.userId));
      return { userId: user.userId, isNewUser: true };
    });
  const account = await attempt().catch((error: unknown) => {
    // The same person finishing twice at once (two tabs): the other transaction won; read what it wrote.
    if (isUniqueViolation(error)) return attempt();
    throw error;
  });
  // Claiming an unconfirmed account ended its sessions.
  if (!account.isNewUser) deps.sessions.forgetUser(account.userId);
  return account;
}

export interface TicketRedemption {
  ticket: string;
  /** The binding cookie of the browser that redeems it. */
  browserBinding: string | undefined;
  /** The user the app is signed in as when it redeems it, if any. */
  signedInUserId: string | undefined;
}

/**
 * Redeems a ticket once: a new session for its account. Only in the browser that started the flow (its
 * binding cookie), so a victim who opens an attacker's callback link is not signed in as the attacker; and
 * never in place of another user's session, which the person must end first.
 */
export async function redeemSocialTicket(deps: SocialDeps, redemption: TicketRedemption) {
  const row = await repository.consumeTicket(deps.db, hashToken(redemption.ticket));
  if (!row || row.expiresAt <= deps.clock.now()) throw socialErrors.invalidTicket();
  const { browserBinding } = redemption;
  if (!browserBinding || !sameSecret(hashToken(browserBinding), row.browserBindingHash)) {
    throw socialErrors.ticketOfAnotherBrowser();
  }
  const user = await findUserById(deps.db, row.userId);
  if (!user) throw socialErrors.invalidTicket();
  if (redemption.signedInUserId && redemption.signedInUserId !== user.userId) {
    throw socialErrors.signedInAsAnother(row.provider as SocialProvider);
  }
  return { user, token: await startSession(deps, user.userId), isNewUser: row.isNewUser };
}
