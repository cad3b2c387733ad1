import {
  SOCIAL_PROVIDERS,
  type SocialProvider,
  type SocialTicketResponse,
  socialSignInMessage,
} from '@digest/contracts';
import { useEffect, useRef } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { Alert } from '#web/components/ui/Alert';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { errorMessage } from '#web/lib/api-client';
import { guidedBuilderPath, withGuidedSources } from '#web/lib/guided-sources';
import { paths } from '#web/lib/paths';
import { failAuth } from '#web/lib/session/session';
import { exchangeSocialTicket } from '../api/auth-api';
import { useStartSession } from '../api/use-auth';
import { AuthCard } from '../components/AuthCard';
import { takeSourcesFromSocial } from '../lib/social-sources';

const NAMES: Record<SocialProvider, string> = { google: 'Google', twitter: 'Twitter', facebook: 'Facebook' };

// A ticket is single-use: React's development double effects and re-renders must not spend it twice.
const exchanges = new Map<string, Promise<SocialTicketResponse>>();

function exchangeOnce(ticket: string): Promise<SocialTicketResponse> {
  let pending = exchanges.get(ticket);
  if (!pending) {
    pending = exchangeSocialTicket(ticket);
    exchanges.set(ticket, pending);
  }
  return pending;
}

function isProvider(value: string | undefined): value is SocialProvider {
  return SOCIAL_PROVIDERS.includes(value as SocialProvider);
}

/**
 * /auth/{google,twitter,facebook}/callback: the server sends the browser back here with a one-time
 * ticket (or an error code, whose text is the app's own: words in the address are never shown). The ticket
 * works only in the browser that started the flow, and never replaces another user's session (the server
 * refuses both, with a message). A new user, or a sign-up, goes to the onboarding; a sign-in to the digests. Kinds
 * chosen with `?sources=` before leaving go along: to the onboarding, to the builder instead of the
 * digests, or back to the page the sign-in started from when it failed (docs/product.md §2).
 */
export function SocialCallbackPage() {
  const { provider } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const startSession = useStartSession();
  const ticket = params.get('ticket');
  const error = params.get('error');
  const failure = error !== null && isProvider(provider) ? socialSignInMessage(error, NAMES[provider]) : null;
  const signUp = params.get('mode') === 'signup';
  const handled = useRef(false);

  useEffect(() => {
    if (handled.current || !isProvider(provider)) return;
    handled.current = true;
    const sources = takeSourcesFromSocial();
    const backToStart = withGuidedSources(signUp ? paths.signup : paths.logIn, sources);
    if (error !== null || !ticket) {
      failAuth(socialSignInMessage(error, NAMES[provider]));
      navigate(backToStart, { replace: true });
      return;
    }
    exchangeOnce(ticket).then(
      (response) => {
        const onboarding = response.isNewUser || signUp;
        startSession(response, { signUpMode: onboarding });
        const next = onboarding
          ? withGuidedSources(paths.createDigest, sources)
          : sources.length > 0
            ? guidedBuilderPath(sources)
            : paths.digests;
        navigate(next, { replace: true });
      },
      (failure: unknown) => {
        failAuth(errorMessage(failure));
        navigate(backToStart, { replace: true });
      },
    );
  }, [provider, error, ticket, signUp, navigate, startSession]);

  if (!isProvider(provider)) return <Navigate to={paths.login} replace />;
  return (
    <AuthCard title={`Signing you in with ${NAMES[provider]}`}>
      <title>{`${NAMES[provider]} sign-in · Digest`}</title>
      {failure ? (
        <Alert>
          {failure} <Link to={paths.logIn}>Back to log in</Link>
        </Alert>
      ) : (
        <PageSpinner label="Finishing the sign-in…" />
      )}
    </AuthCard>
  );
}
