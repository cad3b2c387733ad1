import type { AccessToken } from '@digest/contracts';
import { create } from 'zustand';
import { notifyError, notifySuccess } from '../notify';

/**
 * Where releases before the refresh cookie kept the token pair. Nothing is stored there any more; a pair
 * left behind is removed on load, so no token stays in script-readable storage.
 */
const LEGACY_TOKEN_STORAGE_KEY = 'token';

/** docs/product.md §3 "Auth state", plus the access token it is derived from. */
export interface AuthState {
  /** In memory only: the refresh token is in an HttpOnly cookie this script cannot read. */
  token: AccessToken | null;
  /**
   * The app has just loaded and asked the server, with the refresh cookie, whether a session exists; until
   * it answers, nobody can tell whether the visitor is signed in.
   */
  restoring: boolean;
  /** The token belongs to a loaded user. */
  isAuth: boolean;
  /** An auth request (sign-in, sign-up, recovery) is under way. */
  isLoading: boolean;
  /** Set by a social sign-up: after it the user goes to the onboarding (docs/product.md §2, §4). */
  signUpMode: boolean;
  errorMessage: string | null;
  successMessage: string | null;
  /** The address of the last forgot-password request, for the recover-message screen. */
  forgetPasswordEmail: string | null;
}

const signedOutState = {
  isAuth: false,
  isLoading: false,
  signUpMode: false,
  errorMessage: null,
  successMessage: null,
} satisfies Partial<AuthState>;

function forgetLegacyToken(): void {
  try {
    window.localStorage.removeItem(LEGACY_TOKEN_STORAGE_KEY);
  } catch {
    // Storage disabled: nothing was stored either.
  }
}

if (typeof window !== 'undefined') forgetLegacyToken();

export const useAuthStore = create<AuthState>()(() => ({
  ...signedOutState,
  token: null,
  restoring: typeof window !== 'undefined',
  forgetPasswordEmail: null,
}));

/**
 * Tells the other tabs of the app that this one signed in or out, so they follow: a sign-in makes them ask
 * the server for their own access token (with the shared cookie), a sign-out makes them forget theirs. No
 * token ever travels in a message.
 */
type SessionEvent = 'signed-in' | 'signed-out';
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('digest-session');

function announce(event: SessionEvent): void {
  channel?.postMessage(event);
}

const otherTabListeners = new Set<(event: SessionEvent) => void>();

/** Runs `listener` when another tab of the app signs in or out. */
export function onOtherTabSession(listener: (event: SessionEvent) => void): () => void {
  otherTabListeners.add(listener);
  return () => {
    otherTabListeners.delete(listener);
  };
}

channel?.addEventListener('message', (message: MessageEvent) => {
  if (message.data !== 'signed-in' && message.data !== 'signed-out') return;
  for (const listener of otherTabListeners) listener(message.data);
});

const sessionEndListeners = new Set<() => void>();

/** Runs `listener` whenever the session ends (log out, failed refresh, account deletion). */
export function onSessionEnd(listener: () => void): () => void {
  sessionEndListeners.add(listener);
  return () => {
    sessionEndListeners.delete(listener);
  };
}

export function getToken(): AccessToken | null {
  return useAuthStore.getState().token;
}

/**
 * Sign-in, sign-up or a social ticket succeeded (the server has set the refresh cookie): keep the access
 * token, mark the visitor signed in, and tell the other tabs.
 */
export function startSession(token: AccessToken, options: { signUpMode?: boolean } = {}): void {
  useAuthStore.setState({
    token,
    restoring: false,
    isAuth: true,
    isLoading: false,
    signUpMode: options.signUpMode ?? false,
    errorMessage: null,
  });
  announce('signed-in');
}

/** A refresh answered a new access token (for this tab; the cookie is shared by all). */
export function replaceToken(token: AccessToken): void {
  useAuthStore.setState({ token, restoring: false });
}

/** The first refresh after loading found no session. */
export function finishRestoring(): void {
  if (useAuthStore.getState().restoring) useAuthStore.setState({ restoring: false });
}

/** The user behind the stored token has been loaded. */
export function markAuthenticated(): void {
  if (!useAuthStore.getState().isAuth) useAuthStore.setState({ isAuth: true, isLoading: false });
}

/**
 * Log out, account removal or a refused refresh: forget the token and every piece of signed-in state, and
 * tell the other tabs (unless it was another tab that said so). `restoring`: a session (perhaps another
 * user's) is being fetched at once, so the screens wait instead of sending the visitor to /login.
 */
export function endSession(options: { announce?: boolean; restoring?: boolean } = {}): void {
  const hadToken = useAuthStore.getState().token !== null;
  useAuthStore.setState({ ...signedOutState, token: null, restoring: options.restoring ?? false });
  if (options.announce ?? true) announce('signed-out');
  if (hadToken) for (const listener of sessionEndListeners) listener();
}

export function startAuthLoading(): void {
  useAuthStore.setState({ isLoading: true });
}

/** docs/product.md §4: an error stops loading and stores the message; the app shows it as a toast (§8). */
export function failAuth(message: string): void {
  useAuthStore.setState({ isLoading: false, errorMessage: message });
  notifyError(message);
}

/** docs/product.md §4: a success stores its message, shown as a toast. */
export function succeedAuth(message: string): void {
  useAuthStore.setState({ isLoading: false, successMessage: message });
  notifySuccess(message);
}

export function clearAuthError(): void {
  useAuthStore.setState({ errorMessage: null });
}

/** docs/product.md §4: the forgot-password request keeps the e-mail for the recover screen. */
export function rememberForgetPasswordEmail(email: string): void {
  useAuthStore.setState({ forgetPasswordEmail: email, isLoading: false });
}
