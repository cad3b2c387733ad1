import type { ConnectedAccount } from '@digest/contracts';
import { useState } from 'react';
import { Button } from '#web/components/ui/Button';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog';
import { accountName, useLogOutAccount } from '#web/features/accounts';

/**
 * Log Out of a connected account, after a confirmation (the account leaves every Digest that reads it).
 * `onLoggedOut` runs once the server has removed it.
 */
export function AccountLogOut({
  account,
  onLoggedOut,
}: {
  account: ConnectedAccount;
  onLoggedOut?: (account: ConnectedAccount) => void;
}) {
  const logOut = useLogOutAccount();
  const [asking, setAsking] = useState(false);
  const name = accountName(account);
  return (
    <>
      <Button variant="secondary" small aria-label={`Log Out ${name}`} onClick={() => setAsking(true)}>
        Log Out
      </Button>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={`Are you sure you want to log out of ${name}?`}
        confirmLabel="Log Out"
        pending={logOut.isPending}
        onConfirm={() =>
          logOut.mutate(account.tokenId, {
            onSuccess: () => onLoggedOut?.(account),
            onSettled: () => setAsking(false),
          })
        }
      />
    </>
  );
}
