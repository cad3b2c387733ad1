import type { User } from '@digest/contracts';
import { useState } from 'react';
import { Alert } from '#web/components/ui/Alert';
import { Button } from '#web/components/ui/Button';
import { Modal } from '#web/components/ui/Modal';
import { TextField } from '#web/components/ui/TextField';
import { errorMessage } from '#web/lib/api-client';
import { useDeleteAccount } from '../api/use-profile';
import styles from './DeleteAccountDialog.module.css';

/**
 * "Are you sure…?" with the current password: a stolen session alone cannot delete the account. A social
 * account has no password; the server asks it for a recent sign-in instead, and says so if it is too old.
 */
export function DeleteAccountDialog({
  user,
  open,
  onOpenChange,
}: {
  user: User;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const deleteAccount = useDeleteAccount();
  const [password, setPassword] = useState('');
  const hasPassword = user.method === 'email';
  const pending = deleteAccount.isPending;
  const close = (next: boolean) => {
    if (pending) return;
    if (!next) {
      setPassword('');
      deleteAccount.reset();
    }
    onOpenChange(next);
  };
  return (
    <Modal
      open={open}
      onOpenChange={close}
      title="Are you sure that you want to delete your account?"
      role="alertdialog"
      size="small"
      hideClose
    >
      <form
        className={styles.form}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          deleteAccount.mutate(hasPassword ? { password } : {});
        }}
      >
        {hasPassword ? (
          <TextField
            label="Your password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        ) : null}
        {deleteAccount.isError ? <Alert>{errorMessage(deleteAccount.error)}</Alert> : null}
        <div className={styles.actions}>
          <Button variant="secondary" onClick={() => close(false)} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" loading={pending}>
            Delete
          </Button>
        </div>
      </form>
    </Modal>
  );
}
