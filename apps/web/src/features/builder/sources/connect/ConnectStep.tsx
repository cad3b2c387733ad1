import {
  ACCOUNT_PROVIDER_LABELS,
  type AccountProvider,
  type ConnectedAccount,
  connectPathNameOf,
} from '@digest/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '#web/components/ui/Alert';
import { Avatar } from '#web/components/ui/Avatar';
import { Button } from '#web/components/ui/Button';
import { Spinner } from '#web/components/ui/Spinner';
import {
  accountName,
  useConnectAccount,
  useConnectableProviders,
  useConnectOutcome,
} from '#web/features/accounts';
import { ACCOUNT_CHECK_MS } from '#web/features/builder/lib/steps';
import { errorMessage } from '#web/lib/api-client';
import { paths } from '#web/lib/paths';
import { ResultButton } from '../form/Search';
import { AccountLogOut } from './AccountLogOut';
import { accountsOf } from './account-list';
import styles from './ConnectStep.module.css';
import { useProviderAccounts } from './use-provider-accounts';

/**
 * How the source goes on to its settings: Twitter reads with one account, picked here (`onPick`);
 * the calendar and Stripe choose among all their accounts in the settings (`onContinue`).
 */
type GoOn = { onPick: (account: ConnectedAccount) => void } | { onContinue: () => void };

/**
 * docs/product.md §4 connect step of the calendar, Twitter and Stripe sources: the user's accounts of the provider
 * (each with Log Out), or 'This source is not connected yet.', and Connect, which leaves for the provider
 * and comes back to the builder (its state is kept, so it reopens here). Back from connecting, the
 * accounts are checked after about 1 s and the settings open if there is one.
 */
export function ConnectStep(
  props: {
    provider: AccountProvider;
    /** After one of the accounts is logged out here. */
    onLoggedOut?: (account: ConnectedAccount) => void;
  } & GoOn,
) {
  const { provider } = props;
  const label = ACCOUNT_PROVIDER_LABELS[provider];
  const noteId = useId();
  const { accounts, query } = useProviderAccounts(provider);
  const providers = useConnectableProviders();
  const connect = useConnectAccount(paths.digestCreator);
  const notConfigured =
    providers.data !== undefined &&
    !providers.data.some((entry) => entry.provider === provider && entry.configured);
  const goOn = (newest: ConnectedAccount) => ('onPick' in props ? props.onPick(newest) : props.onContinue());
  useCheckAfterConnecting(provider, query.refetch, goOn);

  return (
    <div className={styles.connect}>
      {query.isPending ? (
        <Spinner label="Loading your accounts…" />
      ) : query.isError ? (
        <Alert>{errorMessage(query.error)}</Alert>
      ) : !accounts || accounts.length === 0 ? (
        <div className={styles.empty}>
          <p className={styles.emptyTitle}>This source is not connected yet.</p>
          <p className={styles.hint}>Connect your {label} account first, then edit the source's settings.</p>
        </div>
      ) : (
        <ul className={styles.accounts} aria-label={`Your ${label} accounts`}>
          {accounts.map((account) => (
            <li key={account.tokenId} className={styles.account}>
              {'onPick' in props ? (
                <ResultButton
                  title={accountName(account)}
                  description="Use this account"
                  picture={account.profilePicture}
                  onPick={() => props.onPick(account)}
                />
              ) : (
                <span className={styles.name}>
                  <Avatar src={account.profilePicture} name={accountName(account)} size="small" />
                  {accountName(account)}
                </span>
              )}
              <AccountLogOut account={account} onLoggedOut={props.onLoggedOut} />
            </li>
          ))}
        </ul>
      )}
      {'onContinue' in props && accounts && accounts.length > 0 ? (
        <Button onClick={props.onContinue}>Continue</Button>
      ) : null}
      {notConfigured ? (
        <p id={noteId} className={styles.hint}>
          {label} accounts cannot be connected: this server is not configured for them.
        </p>
      ) : null}
      <Button
        variant={accounts && accounts.length > 0 ? 'secondary' : 'primary'}
        disabled={notConfigured}
        aria-describedby={notConfigured ? noteId : undefined}
        loading={connect.isPending}
        onClick={() => connect.mutate(provider)}
      >
        {accounts && accounts.length > 0 ? `Connect another ${label} account` : `Connect ${label}`}
      </Button>
    </div>
  );
}

/**
 * Back from the provider (`?connected=google`, read on the first render: the outcome toast then takes
 * it out of the address), the accounts are read again after ACCOUNT_CHECK_MS; with one, the source
 * goes on with the newest.
 */
function useCheckAfterConnecting(
  provider: AccountProvider,
  refetchAccounts: () => Promise<{ data?: ConnectedAccount[] | undefined }>,
  goOn: (newest: ConnectedAccount) => void,
): void {
  const [params] = useSearchParams();
  const [returned] = useState(() => params.get('connected') === connectPathNameOf(provider));
  useConnectOutcome();
  const refetch = useRef(refetchAccounts);
  refetch.current = refetchAccounts;
  const next = useRef(goOn);
  next.current = goOn;
  useEffect(() => {
    if (!returned) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      void refetch.current().then(({ data }) => {
        const newest = accountsOf(data ?? [], provider).at(-1);
        if (newest && !cancelled) next.current(newest);
      });
    }, ACCOUNT_CHECK_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [returned, provider]);
}
