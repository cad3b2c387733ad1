import type { ConnectedAccount } from '@digest/contracts';
import { Checkbox } from '#web/components/ui/Checkbox';
import { accountName } from '#web/features/accounts';
import styles from './AccountChoices.module.css';
import { AccountLogOut } from './AccountLogOut';
import { excludeAccount, includeAccount, setAccountFlag } from './account-list';

/** What a chosen account keeps: its tokenId and on/off options (events, holidays … revenue …). */
type Entry = { tokenId: string } & Record<string, unknown>;

/**
 * The calendar's and Stripe's settings of each connected account: whether the Digest reads it and, if so,
 * which of its figures or calendars. Each account is a group named after it, with its own Log Out.
 */
export function AccountChoices<E extends Entry>({
  accounts,
  chosen,
  flags,
  entryOf,
  onChange,
  onLoggedOut,
}: {
  accounts: readonly ConnectedAccount[];
  chosen: readonly E[];
  flags: readonly { field: keyof E & string; label: string }[];
  /** The entry an account gets when it is included (the schema's defaults for its options). */
  entryOf: (account: ConnectedAccount) => E;
  onChange: (chosen: E[]) => void;
  onLoggedOut?: (account: ConnectedAccount) => void;
}) {
  return (
    <div className={styles.accounts}>
      {accounts.map((account) => {
        const entry = chosen.find((item) => item.tokenId === account.tokenId);
        const name = accountName(account);
        return (
          <fieldset key={account.tokenId} className={styles.account}>
            <legend className={styles.legend}>{name}</legend>
            <Checkbox
              label="Include in this Digest"
              checked={entry !== undefined}
              onChange={(event) =>
                onChange(
                  event.target.checked
                    ? includeAccount(chosen, entryOf(account))
                    : excludeAccount(chosen, account.tokenId),
                )
              }
            />
            {entry ? (
              <div className={styles.flags}>
                {flags.map(({ field, label }) => (
                  <Checkbox
                    key={field}
                    label={label}
                    checked={entry[field] === true}
                    onChange={(event) =>
                      onChange(
                        setAccountFlag(
                          chosen,
                          account.tokenId,
                          field,
                          event.target.checked as E[typeof field],
                        ),
                      )
                    }
                  />
                ))}
              </div>
            ) : null}
            <div className={styles.logOut}>
              <AccountLogOut
                account={account}
                onLoggedOut={(gone) => {
                  onChange(excludeAccount(chosen, gone.tokenId));
                  onLoggedOut?.(gone);
                }}
              />
            </div>
          </fieldset>
        );
      })}
    </div>
  );
}
