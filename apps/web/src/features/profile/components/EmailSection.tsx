import { type ChangeEmailBody, changeEmailSchema, type User } from '@digest/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '#web/components/ui/Button';
import { TextField } from '#web/components/ui/TextField';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { notifyError, notifySuccess } from '#web/lib/notify';
import { useCancelEmailChange, useChangeEmail, useResendVerification } from '../api/use-profile';
import styles from './ProfileForm.module.css';

/**
 * The account's e-mail address. A change asks for the current password, and the new address takes effect only
 * once the link mailed to it is followed; until then it shows as pending, with Resend and Cancel.
 */
export function EmailSection({ user }: { user: User }) {
  const change = useChangeEmail();
  const cancel = useCancelEmailChange();
  const resend = useResendVerification();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ChangeEmailBody>({
    resolver: zodResolver(changeEmailSchema),
    defaultValues: { email: '', password: '' },
  });

  if (user.method !== 'email') {
    return (
      <TextField
        label="Email address"
        type="email"
        readOnly
        value={user.email}
        hint={`You sign in with ${user.method[0]?.toUpperCase()}${user.method.slice(1)}: the e-mail address comes from that account.`}
      />
    );
  }

  const onSubmit = handleSubmit((values) =>
    change.mutate(values, {
      onSuccess: (saved) => {
        reset({ email: '', password: '' });
        if (saved.pendingEmail) notifySuccess(`We sent a confirmation link to ${saved.pendingEmail}.`);
      },
      onError: (error) => {
        const message = errorMessage(error);
        if (error instanceof ApiError && error.code === 'WRONG_PASSWORD') {
          setError('password', { message }, { shouldFocus: true });
        } else if (error instanceof ApiError && error.code === 'EMAIL_TAKEN') {
          setError('email', { message }, { shouldFocus: true });
        }
        notifyError(message);
      },
    }),
  );

  return (
    <div className={styles.form}>
      <TextField label="Email address" type="email" readOnly value={user.email} />
      {user.pendingEmail ? (
        <div className={styles.pending} role="status">
          <p>
            Waiting for confirmation of <strong>{user.pendingEmail}</strong>. Follow the link we sent there;
            until then you keep signing in with {user.email}.
          </p>
          <div className={styles.pendingActions}>
            <Button variant="secondary" small loading={resend.isPending} onClick={() => resend.mutate()}>
              Resend
            </Button>
            <Button variant="ghost" small loading={cancel.isPending} onClick={() => cancel.mutate()}>
              Cancel change
            </Button>
          </div>
        </div>
      ) : null}
      <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Change e-mail address">
        <fieldset className={styles.passwords}>
          <legend className={styles.legend}>Change e-mail address</legend>
          <p className={styles.legendHint}>
            We send a link to the new address; it becomes yours once you follow it. Your current address is
            told.
          </p>
          <TextField
            label="New e-mail address"
            type="email"
            autoComplete="email"
            inputMode="email"
            spellCheck={false}
            error={errors.email?.message}
            {...register('email')}
          />
          <TextField
            label="Your password"
            type="password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...register('password')}
          />
        </fieldset>
        <div className={styles.actions}>
          <Button type="submit" variant="secondary" loading={change.isPending}>
            Change e-mail
          </Button>
        </div>
      </form>
    </div>
  );
}
