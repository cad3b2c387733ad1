import type { AuthResponse, ForgotPasswordBody, LoginBody, SignupBody } from '@digest/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { errorMessage } from '#web/lib/api-client';
import {
  endSession,
  failAuth,
  rememberForgetPasswordEmail,
  startAuthLoading,
  startSession,
  useAuthStore,
} from '#web/lib/session/session';
import { setMe } from '#web/lib/session/use-me';
import {
  fetchSocialProviders,
  logOutOnServer,
  requestPasswordReset,
  resetPassword,
  signInWithEmail,
  signUpWithEmail,
} from './auth-api';

/** Keeps the user in the cache before the token, so the guards never see a token without its user. */
function useStartSession() {
  const queryClient = useQueryClient();
  return useCallback(
    (response: Pick<AuthResponse, 'token' | 'user'>, options: { signUpMode?: boolean } = {}) => {
      setMe(queryClient, response.user);
      startSession(response.token, options);
    },
    [queryClient],
  );
}

const onAuthError = (error: unknown) => failAuth(errorMessage(error));

/** E-mail sign-in. Failures show the server's message as an error toast (docs/product.md §8). */
export function useLogin() {
  const start = useStartSession();
  return useMutation({
    mutationKey: ['auth', 'signin', 'email'],
    mutationFn: (body: LoginBody) => signInWithEmail(body),
    onMutate: startAuthLoading,
    onSuccess: (response) => start(response),
    onError: onAuthError,
  });
}

/**
 * E-mail sign-up. It starts no session: the answer only says to check the inbox, whether or not the address
 * already had an account, and the link in the mail signs in.
 */
export function useSignup() {
  return useMutation({
    mutationKey: ['auth', 'signup', 'email'],
    mutationFn: (body: SignupBody) => signUpWithEmail(body),
    onMutate: startAuthLoading,
    onSuccess: () => useAuthStore.setState({ isLoading: false }),
    onError: onAuthError,
  });
}

export { useStartSession };

/** Sends the reset link and keeps the address for the recover-message screen. */
export function useForgotPassword(onSent?: () => void) {
  return useMutation({
    mutationKey: ['auth', 'password', 'forgot'],
    mutationFn: (body: ForgotPasswordBody) => requestPasswordReset(body),
    onMutate: startAuthLoading,
    onSuccess: (_response, body) => {
      rememberForgetPasswordEmail(body.email);
      onSent?.();
    },
    onError: onAuthError,
  });
}

export function useResetPassword() {
  return useMutation({
    mutationKey: ['auth', 'password', 'recover'],
    mutationFn: resetPassword,
    onMutate: startAuthLoading,
    onError: onAuthError,
  });
}

/** Log out: revoke the session on the server (best effort), then forget it here. */
export function useLogout() {
  const [pending, setPending] = useState(false);
  const logOut = useCallback(async () => {
    setPending(true);
    try {
      await logOutOnServer();
    } catch {
      // The session ends here whatever the server said.
    } finally {
      setPending(false);
      endSession();
    }
  }, []);
  return { logOut, pending };
}

/** Which social providers this server has credentials for. */
export function useSocialProviders() {
  return useQuery({
    queryKey: ['auth', 'providers'],
    queryFn: ({ signal }) => fetchSocialProviders(signal),
    staleTime: 5 * 60_000,
    retry: 1,
  });
}
