import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { useDefaultTimezone } from '#web/features/profile';
import { isPath, paths } from '#web/lib/paths';
import { keepingSources } from '#web/lib/redirects';
import { useAuthStore } from '#web/lib/session/session';
import { isProfileComplete, useMe } from '#web/lib/session/use-me';

/**
 * Signed-in pages: no token → /login. On every path change the profile is checked: without a full name
 * or a username the user is sent to the onboarding on /createDigest, with the `?sources=` it came with
 * (docs/product.md §2). In the pages chunk (./pages), with the pages it guards: the log-in page does
 * not load the profile feature.
 */
export function SignedInOnly() {
  const hasToken = useAuthStore((state) => state.token !== null);
  const user = useMe().data;
  const location = useLocation();
  useDefaultTimezone(user);
  if (!hasToken) return <Navigate to={paths.login} replace />;
  if (!user) return <PageSpinner label="Loading your account…" />;
  if (!isProfileComplete(user) && !isPath(location.pathname, paths.createDigest)) {
    return <Navigate to={keepingSources(paths.createDigest, location.search)} replace />;
  }
  return <Outlet />;
}
