import {
  ACCOUNT_PROVIDER_LABELS,
  type AccountProvider,
  accountProviderOf,
  CONNECT_ACCOUNT_GENERIC_MESSAGE,
  CONNECT_PATH_NAMES,
  type ConnectPathName,
  connectAccountMessage,
} from '@digest/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '#web/lib/api-client';
import { notifyError, notifySuccess } from '#web/lib/notify';
import {
  fetchConnectableProviders,
  fetchConnectedAccounts,
  logOutAccount,
  requestConnect,
} from './accounts-api';

export const accountKeys = {
  all: ['accounts'] as const,
  list: () => ['accounts', 'list'] as const,
  providers: () => ['accounts', 'providers'] as const,
};

const showError = (error: unknown) => notifyError(errorMessage(error));

/** `GET /data-sources/social-accounts/list`. */
export function useConnectedAccounts() {
  return useQuery({
    queryKey: accountKeys.list(),
    queryFn: ({ signal }) => fetchConnectedAccounts(signal),
    refetchOnWindowFocus: false,
  });
}

/** Which providers this server can connect (credentials set); it does not change while the app runs. */
export function useConnectableProviders() {
  return useQuery({
    queryKey: accountKeys.providers(),
    queryFn: ({ signal }) => fetchConnectableProviders(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Starts connecting: the page is left for the provider, so success is the navigation itself. */
export function useConnectAccount(returnTo: string) {
  return useMutation({
    mutationKey: ['accounts', 'connect'],
    mutationFn: (provider: AccountProvider) => requestConnect(provider, returnTo),
    onSuccess: (url) => window.location.assign(url),
    onError: showError,
  });
}

export function useLogOutAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['accounts', 'logout'],
    mutationFn: (tokenId: string) => logOutAccount(tokenId),
    onSuccess: () => notifySuccess('The account was logged out.'),
    onError: showError,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

const isPathName = (value: string | null): value is ConnectPathName =>
  (CONNECT_PATH_NAMES as readonly (string | null)[]).includes(value);

/**
 * The return from a connect flow (`?connected=google`, or `?error=<code>&provider=google`): a toast, fresh
 * accounts, and the query taken out of the address so a reload does not show it again. The toast's text is
 * the app's own for a known code and provider, never words from the address.
 */
export function useConnectOutcome() {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const connected = params.get('connected');
  const error = params.get('error');
  const provider = params.get('provider');
  useEffect(() => {
    if (!connected && !error) return;
    if (error) {
      const label = isPathName(provider) ? ACCOUNT_PROVIDER_LABELS[accountProviderOf(provider)] : null;
      notifyError(label ? connectAccountMessage(error, label) : CONNECT_ACCOUNT_GENERIC_MESSAGE);
    } else if (isPathName(connected)) {
      notifySuccess(`Your ${ACCOUNT_PROVIDER_LABELS[accountProviderOf(connected)]} account is connected.`);
    }
    void queryClient.invalidateQueries({ queryKey: accountKeys.all });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('connected');
        next.delete('error');
        next.delete('provider');
        return next;
      },
      { replace: true },
    );
  }, [connected, error, provider, queryClient, setParams]);
}
