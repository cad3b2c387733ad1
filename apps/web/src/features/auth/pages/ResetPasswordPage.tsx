import { newPasswordSchema } from '@digest/contracts';
import { Link, useNavigate, useSearchParams } from 'react-router';
import * as z from 'zod/mini';
import { Alert } from '#web/components/ui/Alert';
import { Button } from '#web/components/ui/Button';
import { TextField } from '#web/components/ui/TextField';
import { paths } from '#web/lib/paths';
import { endSession, succeedAuth } from '#web/lib/session/session';
import { useSchemaForm } from '#web/lib/use-schema-form';
import { useResetPassword } from '../api/use-auth';
import { AuthCard } from '../components/AuthCard';
import styles from '../components/LoginForm.module.css';

const formSchema = z.object({ password: newPasswordSchema });

/** docs/product.md §2 "Reset password": a new password for the `recoveryToken` of the e-mailed link. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const recoveryToken = params.get('recoveryToken') ?? '';
  const navigate = useNavigate();
  const reset = useResetPassword();
  const form = useSchemaForm(formSchema, { password: '' });

  const onSubmit = form.handleSubmit(({ password }) => {
    reset.mutate(
      { password, recoveryToken },
      {
        onSuccess: (response) => {
          // A reset ends every session, this browser's too.
          endSession();
          succeedAuth(response.message);
          navigate(paths.logIn, { replace: true });
        },
      },
    );
  });

  return (
    <AuthCard
      title="Choose a new password"
      subtitle="After saving it, log in with your new password."
      footer={
        <>
          Back to <Link to={paths.logIn}>Log in</Link>
        </>
      }
    >
      <title>Reset password · Digest</title>
      {recoveryToken ? (
        <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Choose a new password">
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            hint="Use at least 8 characters, with a letter, a number and a symbol."
            {...form.text('password')}
          />
          {reset.isError ? (
            <Alert>
              The link may have expired or been used already.{' '}
              <Link to={paths.forgetPassword}>Request a new link</Link>.
            </Alert>
          ) : null}
          <Button type="submit" fullWidth loading={reset.isPending}>
            Save new password
          </Button>
        </form>
      ) : (
        <Alert>
          This reset link is incomplete. Open the link from the e-mail again, or{' '}
          <Link to={paths.forgetPassword}>request a new one</Link>.
        </Alert>
      )}
    </AuthCard>
  );
}
