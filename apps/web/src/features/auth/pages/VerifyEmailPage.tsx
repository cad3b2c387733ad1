import type { AuthResponse } from '@digest/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '#web/components/ui/Alert';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { errorMessage } from '#web/lib/api-client';
import { guidedBuilderPath, withGuidedSources } from '#web/lib/guided-sources';
import { notifySuccess } from '#web/lib/notify';
import { paths } from '#web/lib/paths';
import { isProfileComplete } from '#web/lib/session/use-me';
import { verifyEmail } from '../api/auth-api';
import { useStartSession } from '../api/use-auth';
import { AuthCard } from '../components/AuthCard';
import { takeSourcesFromSocial } from '../lib/social-sources';

export const ADDRESS_CONFIRMED_MESSAGE = 'Your e-mail address is confirmed.';

// A token is single-use: React's development double effects and re-renders must not spend it twice.
const verifications = new Map<string, Promise<AuthResponse>>();

function verifyOnce(token: string): Promise<AuthResponse> {
  let pending = verifications.get(token);
  if (!pending) {
    pending = verifyEmail(token);
    verifications.set(token, pending);
  }
  return pending;
}

/**
 * /verify-email?token=…, the link of a verification mail. Opening the page verifies nothing (mail scanners
 * open links); the page itself sends the token with a POST, asking nothing more, and the answer signs in. A new
 * user goes on to the onboarding, anyone else to their digests, with the kinds `?sources=` named at sign-up
 * when the link is opened in the tab that signed up (kept like a social sign-up's).
 */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const startSession = useStartSession();
  const [failure, setFailure] = useState<string | null>(null);
  const handled = useRef(false);

  useEffect(() => {
    if (handled.current || !token) return;
    handled.current = true;
    verifyOnce(token).then(
      (response) => {
        startSession(response);
        notifySuccess(ADDRESS_CONFIRMED_MESSAGE);
        const sources = takeSourcesFromSocial();
        const next = !isProfileComplete(response.user)
          ? withGuidedSources(paths.createDigest, sources)
          : sources.length > 0
            ? guidedBuilderPath(sources)
            : paths.digests;
        navigate(next, { replace: true });
      },
      (error: unknown) => setFailure(errorMessage(error)),
    );
  }, [token, navigate, startSession]);

  const problem = token
    ? failure
    : 'This confirmation link is incomplete. Open the link from the e-mail again.';
  return (
    <AuthCard
      title={problem ? 'We could not confirm your address' : 'Confirming your e-mail address'}
      footer={
        <>
          Back to <Link to={paths.logIn}>Log in</Link>
        </>
      }
    >
      <title>Confirm your e-mail · Digest</title>
      {problem ? <Alert>{problem}</Alert> : <PageSpinner label="Confirming your e-mail address" />}
    </AuthCard>
  );
}
