import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Divider } from '#web/components/ui/Divider';
import { paths } from '#web/lib/paths';
import { keepingSources } from '#web/lib/redirects';
import { AuthCard } from '../components/AuthCard';
import { CheckInbox } from '../components/CheckInbox';
import { SignupForm } from '../components/SignupForm';
import { SocialButtons } from '../components/SocialButtons';

/** docs/product.md §2 "Sign-up"; `?name=` pre-fills the e-mail box; `?sources=` is kept to the builder. */
export function SignupPage() {
  const [params] = useSearchParams();
  const [sentTo, setSentTo] = useState<string | null>(null);
  if (sentTo) {
    return (
      <AuthCard
        title="Check your inbox"
        footer={
          <>
            Already confirmed? <Link to={paths.logIn}>Log in</Link>
          </>
        }
      >
        <title>Check your inbox · Digest</title>
        <CheckInbox email={sentTo} />
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Create your account"
      subtitle="It's free. Get the things you follow in one email, daily, weekly or monthly."
      footer={
        <>
          Already have an account? <Link to={keepingSources(paths.logIn, params.toString())}>Log in</Link>
        </>
      }
    >
      <title>Sign up · Digest</title>
      <SignupForm defaultEmail={params.get('name') ?? ''} onSignedUp={setSentTo} />
      <Divider label="or" />
      <SocialButtons mode="signup" />
    </AuthCard>
  );
}
