import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { digestKeys, fetchDigests } from '#web/features/digests';
import { paths } from '#web/lib/paths';
import { useAuthStore } from '#web/lib/session/session';
import { fetchMe, meQueryKey } from '#web/lib/session/use-me';

/**
 * `/admin` (docs/product.md §2): waits until this tab has a session (restored on load from the refresh cookie,
 * or announced by another tab that signs in), then loads the user and their digests and opens /profileView.
 */
export function AdminPage() {
  const hasToken = useAuthStore((state) => state.token !== null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  useEffect(() => {
    if (!hasToken) return;
    let cancelled = false;
    Promise.all([
      queryClient.fetchQuery({ queryKey: meQueryKey, queryFn: ({ signal }) => fetchMe(signal) }),
      queryClient.fetchQuery({ queryKey: digestKeys.list(), queryFn: ({ signal }) => fetchDigests(signal) }),
    ])
      .catch(() => {
        // The profile area shows what could not be loaded.
      })
      .finally(() => {
        if (!cancelled) navigate(paths.profileView, { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [hasToken, queryClient, navigate]);

  return (
    <>
      <title>Signing in · Digest</title>
      <PageSpinner label={hasToken ? 'Loading your account…' : 'Waiting for sign-in…'} />
    </>
  );
}
