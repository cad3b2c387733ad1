import { forgotPasswordSchema } from '@digest/contracts';
import { Link, useNavigate } from 'react-router';
import { Button } from '#web/components/ui/Button';
import { TextField } from '#web/components/ui/TextField';
import { paths } from '#web/lib/paths';
import { useSchemaForm } from '#web/lib/use-schema-form';
import { useForgotPassword } from '../api/use-auth';
import { AuthCard } from '../components/AuthCard';
import styles from '../components/LoginForm.module.css';

/** docs/product.md §2 "Forgot password": e-mail and Send Reset Link, then the recover message. */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const forgot = useForgotPassword(() => navigate(paths.recoverMessage));
  const form = useSchemaForm(forgotPasswordSchema, { email: '' });

  return (
    <AuthCard
      title="Forgot password?"
      subtitle="Enter the e-mail address of your account and we will send you a link to choose a new password."
      footer={
        <>
          Remembered it? <Link to={paths.logIn}>Back to log in</Link>
        </>
      }
    >
      <title>Forgot password · Digest</title>
      <form
        className={styles.form}
        onSubmit={form.handleSubmit((values) => forgot.mutate(values))}
        noValidate
        aria-label="Request a password reset link"
      >
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          {...form.text('email')}
        />
        <Button type="submit" fullWidth loading={forgot.isPending}>
          Send Reset Link
        </Button>
      </form>
    </AuthCard>
  );
}
