import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { digestKeys, fetchDigests } from '#web/features/digests';
import { paths } from '#web/lib/paths';
import { adoptHandedOverToken, useAuthStore } from '#web/lib/session/session';
import { fetchMe, meQueryKey } from '#web/lib/session/use-me';

/** docs/product.md §2: /admin looks for a token every 1000 ms. */
export const ADMIN_TOKEN_POLL_MS = 1000;

/**
 * `/admin` (docs/product.md §2): waits, looking again every second, until a token has been handed over (a `token`
 * cookie or local storage), then loads the user and their digests and opens /profileView.
 */
export function AdminPage() {
  const hasToken = useAuthStore((state) => state.token !== null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  useEffect(() => {
    if (hasToken || adoptHandedOverToken()) return;
    const timer = setInterval(() => {
      if (adoptHandedOverToken()) clearInterval(timer);
    }, ADMIN_TOKEN_POLL_MS);
    return () => clearInterval(timer);
  }, [hasToken]);

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
