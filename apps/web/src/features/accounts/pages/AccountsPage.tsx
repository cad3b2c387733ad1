import { ACCOUNT_PROVIDER_LABELS, type AccountProvider, type ConnectedAccount } from '@digest/contracts';
import { useState } from 'react';
import { Alert } from '#web/components/ui/Alert';
import { Avatar } from '#web/components/ui/Avatar';
import { Button } from '#web/components/ui/Button';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog';
import { PageHeader } from '#web/components/ui/PageHeader';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { errorMessage } from '#web/lib/api-client';
import { paths } from '#web/lib/paths';
import {
  useConnectAccount,
  useConnectableProviders,
  useConnectedAccounts,
  useConnectOutcome,
  useLogOutAccount,
} from '../api/use-accounts';
import styles from './AccountsPage.module.css';

/** One section per provider, in the order the builder offers their sources. */
const SECTIONS: { provider: AccountProvider; title: string; description: string }[] = [
  { provider: 'GOOGLE', title: 'Google Calendar', description: 'Your calendar events in your Digests.' },
  { provider: 'TWITTER', title: 'X (Twitter)', description: 'Tweets, your timeline, searches and lists.' },
  { provider: 'STRIPE', title: 'Stripe', description: 'Revenue, payments and customers of your business.' },
];

/** What names the account to its owner: the e-mail (Google), the @handle (X), the business (Stripe). */
export function accountName(account: ConnectedAccount): string {
  if (account.tokenType === 'TWITTER' && account.username) return `@${account.username}`;
  return account.email ?? account.username ?? ACCOUNT_PROVIDER_LABELS[account.tokenType];
}

function AccountRow({ account, onLogOut }: { account: ConnectedAccount; onLogOut: () => void }) {
  const name = accountName(account);
  const secondary = account.tokenType === 'STRIPE' ? account.email : null;
  return (
    <li className={styles.row}>
      <Avatar src={account.profilePicture} name={name.replace(/^@/, '')} size="small" />
      <div className={styles.names}>
        <span className={styles.name}>{name}</span>
        <span className={styles.provider}>
          {ACCOUNT_PROVIDER_LABELS[account.tokenType]}
          {secondary && secondary !== name ? ` · ${secondary}` : ''}
        </span>
      </div>
      <Button variant="secondary" small onClick={onLogOut} aria-label={`Log Out ${name}`}>
        Log Out
      </Button>
    </li>
  );
}

/**
 * docs/product.md §2 "Connected accounts" (/accounts): the user's real accounts with a working Log Out, and Connect for
 * each provider this server is configured for. Back to /menu on phones.
 */
export function AccountsPage() {
  useConnectOutcome();
  const accounts = useConnectedAccounts();
  const providers = useConnectableProviders();
  const connect = useConnectAccount(paths.accounts);
  const logOut = useLogOutAccount();
  const [leaving, setLeaving] = useState<ConnectedAccount | null>(null);

  const header = (
    <>
      <title>Connected accounts · Digest</title>
      <PageHeader
        title="Connected accounts"
        mobileBackTo={paths.menu}
        backLabel="Back to menu"
        description="Accounts your Digests read from. Log Out removes an account and ends its access."
      />
    </>
  );
  if (accounts.isPending || providers.isPending) {
    return (
      <>
        {header}
        <PageSpinner label="Loading your accounts…" />
      </>
    );
  }
  if (accounts.isError || providers.isError) {
    return (
      <>
        {header}
        <Alert>{errorMessage(accounts.error ?? providers.error)}</Alert>
      </>
    );
  }

  const configured = (provider: AccountProvider) =>
    providers.data.some((entry) => entry.provider === provider && entry.configured);

  return (
    <>
      {header}
      <div className={styles.sections}>
        {SECTIONS.map(({ provider, title, description }) => {
          const mine = accounts.data.filter((account) => account.tokenType === provider);
          const label = ACCOUNT_PROVIDER_LABELS[provider];
          const noteId = `accounts-${provider.toLowerCase()}-note`;
          return (
            <section key={provider} className={styles.section} aria-labelledby={`${noteId}-title`}>
              <div className={styles.sectionHeader}>
                <div>
                  <h2 id={`${noteId}-title`} className={styles.title}>
                    {title}
                  </h2>
                  <p className={styles.description}>{description}</p>
                </div>
                <Button
                  variant="secondary"
                  small
                  disabled={!configured(provider)}
                  aria-describedby={configured(provider) ? undefined : noteId}
                  loading={connect.isPending && connect.variables === provider}
                  onClick={() => connect.mutate(provider)}
                >
                  Connect {label}
                </Button>
              </div>
              {configured(provider) ? null : (
                <p id={noteId} className={styles.note}>
                  {title} is not configured on this server.
                </p>
              )}
              {mine.length === 0 ? (
                <p className={styles.empty}>This source is not connected yet.</p>
              ) : (
                <ul className={styles.list} aria-label={`${label} accounts`}>
                  {mine.map((account) => (
                    <AccountRow
                      key={account.tokenId}
                      account={account}
                      onLogOut={() => setLeaving(account)}
                    />
                  ))}
                </ul>
              )}
            </section>
          );
        })}
      </div>
      <ConfirmDialog
        open={leaving !== null}
        onOpenChange={(open) => {
          if (!open) setLeaving(null);
        }}
        title={leaving ? `Are you sure you want to log out of ${accountName(leaving)}?` : ''}
        confirmLabel="Log Out"
        pending={logOut.isPending}
        onConfirm={() => {
          if (leaving) logOut.mutate(leaving.tokenId, { onSettled: () => setLeaving(null) });
        }}
      />
    </>
  );
}
