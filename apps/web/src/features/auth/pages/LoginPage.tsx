import { Link, useLocation } from 'react-router';
import { Divider } from '#web/components/ui/Divider';
import { paths } from '#web/lib/paths';
import { keepingSources } from '#web/lib/redirects';
import { AuthCard } from '../components/AuthCard';
import { LoginForm } from '../components/LoginForm';
import { SocialButtons } from '../components/SocialButtons';

/**
 * docs/product.md §2 "Log in": e-mail and password, forgot-password link, social buttons, link to sign up
 * (keeping `?sources=`).
 */
export function LoginPage() {
  const { search } = useLocation();
  return (
    <AuthCard
      title="Log in"
      subtitle="Welcome back! Log in to read and manage your digests."
      footer={
        <>
          Don&apos;t have an account? <Link to={keepingSources(paths.signup, search)}>Sign up for free</Link>
        </>
      }
    >
      <title>Log in · Digest</title>
      <LoginForm />
      <Divider label="or" />
      <SocialButtons mode="signin" />
    </AuthCard>
  );
}
