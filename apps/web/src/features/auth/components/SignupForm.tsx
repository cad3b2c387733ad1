import { signupSchema, TERMS_REQUIRED_MESSAGE } from '@digest/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { Button } from '#web/components/ui/Button';
import { Checkbox } from '#web/components/ui/Checkbox';
import { SiteLink } from '#web/components/ui/SiteLink';
import { TextField } from '#web/components/ui/TextField';
import { useSiteLinks } from '#web/lib/site';
import { useSignup } from '../api/use-auth';
import { keepSourcesForSocial } from '../lib/social-sources';
import styles from './LoginForm.module.css';

/** The contract's sign-up rules; the checkbox gives a boolean, which must be true. */
const signupFormSchema = z.extend(signupSchema, {
  confirmed: z.boolean().check(z.refine(Boolean, { error: TERMS_REQUIRED_MESSAGE })),
});
type SignupFormValues = z.input<typeof signupFormSchema>;
type SignupFormOutput = z.output<typeof signupFormSchema>;

/** docs/product.md §2 "Sign-up": e-mail, password with its hint, terms checkbox, Create Account. */
export function SignupForm({
  defaultEmail = '',
  onSignedUp,
}: {
  defaultEmail?: string;
  /** The server took the sign-up: the address to check for the link. */
  onSignedUp: (email: string) => void;
}) {
  const signup = useSignup();
  const { termsUrl, privacyUrl } = useSiteLinks();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignupFormValues, unknown, SignupFormOutput>({
    resolver: zodResolver(signupFormSchema),
    defaultValues: { email: defaultEmail, password: '', confirmed: false },
  });

  const onSubmit = handleSubmit((values) => {
    signup.mutate(
      { email: values.email, password: values.password, confirmed: true },
      {
        onSuccess: () => {
          // The mailed link comes back without this page's query: its `?sources=` wait as a social trip's do.
          keepSourcesForSocial(window.location.search);
          onSignedUp(values.email);
        },
      },
    );
  });

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Sign up with e-mail">
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        spellCheck={false}
        error={errors.email?.message}
        {...register('email')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        hint="Use at least 8 characters, with a letter, a number and a symbol."
        error={errors.password?.message}
        {...register('password')}
      />
      {/* The texts open in a new tab, so what was typed here stays. */}
      <Checkbox
        label={
          <>
            I agree to the{' '}
            <SiteLink href={termsUrl} target="_blank">
              Terms of Service
            </SiteLink>{' '}
            and the{' '}
            <SiteLink href={privacyUrl} target="_blank">
              Privacy Policy
            </SiteLink>
          </>
        }
        error={errors.confirmed?.message}
        {...register('confirmed')}
      />
      <Button type="submit" fullWidth loading={signup.isPending}>
        Create Account
      </Button>
    </form>
  );
}
