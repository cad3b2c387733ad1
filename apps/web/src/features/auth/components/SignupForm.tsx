import { signupSchema } from '@digest/contracts';
import { Button } from '#web/components/ui/Button';
import { Checkbox } from '#web/components/ui/Checkbox';
import { SiteLink } from '#web/components/ui/SiteLink';
import { TextField } from '#web/components/ui/TextField';
import { useSiteLinks } from '#web/lib/site';
import { useSchemaForm } from '#web/lib/use-schema-form';
import { useSignup } from '../api/use-auth';
import { keepSourcesForSocial } from '../lib/social-sources';
import styles from './LoginForm.module.css';

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
  // The contract's own rules: an unticked box (false) is not the `true` it requires, with its message.
  const form = useSchemaForm(signupSchema, { email: defaultEmail, password: '', confirmed: false });

  const onSubmit = form.handleSubmit((values) => {
    signup.mutate(values, {
      onSuccess: () => {
        // The mailed link comes back without this page's query: its `?sources=` wait as a social trip's do.
        keepSourcesForSocial(window.location.search);
        onSignedUp(values.email);
      },
    });
  });

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Sign up with e-mail">
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        spellCheck={false}
        {...form.text('email')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        hint="Use at least 8 characters, with a letter, a number and a symbol."
        {...form.text('password')}
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
        {...form.checkbox('confirmed')}
      />
      <Button type="submit" fullWidth loading={signup.isPending}>
        Create Account
      </Button>
    </form>
  );
}
