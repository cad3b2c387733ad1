import { type TokenPair, tokenPairSchema } from '@digest/contracts';
import { create } from 'zustand';
import { notifyError, notifySuccess } from '../notify';

/** docs/product.md §3/§9: the token pair lives in local storage under this key, as JSON. */
export const TOKEN_STORAGE_KEY = 'token';

/** docs/product.md §3 "Auth state", plus the stored token pair it is derived from. */
export interface AuthState {
  token: TokenPair | null;
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

function readStoredToken(): TokenPair | null {
  try {
    const raw = window.localStorage.getItem(TOKEN_STORAGE_KEY);
    if (!raw) return null;
    const parsed = tokenPairSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function writeStoredToken(token: TokenPair | null): void {
  try {
    if (token) window.localStorage.setItem(TOKEN_STORAGE_KEY, JSON.stringify(token));
    else window.localStorage.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // Private mode or a full quota: the session still works for this page.
  }
}

const signedOutState = {
  isAuth: false,
  isLoading: false,
  signUpMode: false,
  errorMessage: null,
  successMessage: null,
} satisfies Partial<AuthState>;

/** docs/product.md §7/§9: a `token` cookie (path /), when present, is moved to local storage. */
function takeTokenCookie(): TokenPair | null {
  if (typeof document === 'undefined') return null;
  const entry = document.cookie.split('; ').find((part) => part.startsWith(`${TOKEN_STORAGE_KEY}=`));
  if (!entry) return null;
  // Remove it whatever it holds: a bad cookie would otherwise be read again on every load.
  // biome-ignore lint/suspicious/noDocumentCookie: the one cookie docs/product.md §7 hands over, deleted here.
  document.cookie = `${TOKEN_STORAGE_KEY}=; path=/; max-age=0`;
  try {
    const parsed = tokenPairSchema.safeParse(
      JSON.parse(decodeURIComponent(entry.slice(TOKEN_STORAGE_KEY.length + 1))),
    );
    if (!parsed.success) return null;
    writeStoredToken(parsed.data);
    return parsed.data;
  } catch {
    return null;
  }
}

export const useAuthStore = create<AuthState>()(() => ({
  ...signedOutState,
  token: takeTokenCookie() ?? readStoredToken(),
  forgetPasswordEmail: null,
}));

/**
 * Looks again for a token handed over from outside the app (a `token` cookie or local storage), and
 * adopts it. True when the app now holds a token. Used by /admin, which waits for one (docs/product.md §2).
 */
export function adoptHandedOverToken(): boolean {
  if (useAuthStore.getState().token !== null) return true;
  const token = takeTokenCookie() ?? readStoredToken();
  if (!token) return false;
  useAuthStore.setState({ token, isAuth: false });
  return true;
}

const sessionEndListeners = new Set<() => void>();

/** Runs `listener` whenever the session ends (log out, failed refresh, account deletion). */
export function onSessionEnd(listener: () => void): () => void {
  sessionEndListeners.add(listener);
  return () => {
    sessionEndListeners.delete(listener);
  };
}

export function getToken(): TokenPair | null {
  return useAuthStore.getState().token;
}

/** Sign-in, sign-up or a social ticket succeeded: keep the pair and mark the visitor signed in. */
export function startSession(token: TokenPair, options: { signUpMode?: boolean } = {}): void {
  writeStoredToken(token);
  useAuthStore.setState({
    token,
    isAuth: true,
    isLoading: false,
    signUpMode: options.signUpMode ?? false,
    errorMessage: null,
  });
}

/** A refresh rotated the pair. */
export function replaceToken(token: TokenPair): void {
  writeStoredToken(token);
  useAuthStore.setState({ token });
}

/** The user behind the stored token has been loaded. */
export function markAuthenticated(): void {
  if (!useAuthStore.getState().isAuth) useAuthStore.setState({ isAuth: true, isLoading: false });
}

/** Log out, account removal or a refused refresh: forget the token and every piece of signed-in state. */
export function endSession(): void {
  const hadToken = useAuthStore.getState().token !== null;
  writeStoredToken(null);
  useAuthStore.setState({ ...signedOutState, token: null });
  if (hadToken) for (const listener of sessionEndListeners) listener();
}

/** The server refused the session (e.g. 'Token revoked!'): log out and say why (docs/product.md §4, §8). */
export function expireSession(message: string): void {
  const hadToken = useAuthStore.getState().token !== null;
  endSession();
  if (hadToken) failAuth(message);
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

// Another tab signed in, refreshed or signed out: follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== TOKEN_STORAGE_KEY && event.key !== null) return;
    const token = readStoredToken();
    const current = useAuthStore.getState().token;
    if (token === null) {
      if (current !== null) endSession();
    } else if (current === null || current.refreshToken !== token.refreshToken) {
      useAuthStore.setState(current === null ? { token, isAuth: false } : { token });
    }
  });
}
