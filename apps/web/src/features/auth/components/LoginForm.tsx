import { loginSchema } from '@digest/contracts';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/Button';
import { TextField } from '#web/components/ui/TextField';
import { paths } from '#web/lib/paths';
import { useSchemaForm } from '#web/lib/use-schema-form';
import { useLogin } from '../api/use-auth';
import styles from './LoginForm.module.css';

export function LoginForm() {
  const login = useLogin();
  const form = useSchemaForm(loginSchema, { email: '', password: '' });

  const onSubmit = form.handleSubmit((values) => {
    login.mutate(values);
  });

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Log in with e-mail">
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        spellCheck={false}
        {...form.text('email')}
      />
      <div className={styles.password}>
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          {...form.text('password')}
        />
        <Link className={styles.forgot} to={paths.forgetPassword}>
          Forgot password?
        </Link>
      </div>
      <Button type="submit" fullWidth loading={login.isPending}>
        Log in
      </Button>
    </form>
  );
}
