import { type LoginBody, type LoginInput, loginSchema } from '@digest/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/Button';
import { TextField } from '#web/components/ui/TextField';
import { paths } from '#web/lib/paths';
import { useLogin } from '../api/use-auth';
import styles from './LoginForm.module.css';

export function LoginForm() {
  const login = useLogin();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginInput, unknown, LoginBody>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit((values) => {
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
        error={errors.email?.message}
        {...register('email')}
      />
      <div className={styles.password}>
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password')}
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
