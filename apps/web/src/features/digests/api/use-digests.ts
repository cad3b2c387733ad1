import {
  type Digest,
  type DigestSummary,
  type DigestVisibility,
  MAX_DIGESTS,
  NOTHING_SENT_CODES,
} from '@digest/contracts';
import {
  mutationOptions,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { notifyError, notifyInfo, notifySuccess } from '#web/lib/notify';
import {
  deleteDigest,
  deleteDraft,
  duplicateDigest,
  fetchDigest,
  fetchDigestHealth,
  fetchDigests,
  fetchDrafts,
  fetchSubscribers,
  rebuildDigest,
  removeSubscriber,
  setSubscribers,
  setVisibility,
  updateDigest,
} from './digests-api';

export const digestKeys = {
  all: ['digests'] as const,
  list: () => ['digests', 'list'] as const,
  drafts: () => ['digests', 'drafts'] as const,
  detail: (digestId: string) => ['digests', 'detail', digestId] as const,
  subscribers: (digestId: string) => ['digests', 'subscribers', digestId] as const,
  health: (digestId: string) => ['digests', 'health', digestId] as const,
};

const showError = (error: unknown) => notifyError(errorMessage(error));

/** `GET /digests`. Like every list, it does not refetch on window focus (docs/product.md §4, query-client.ts). */
export function useDigests() {
  return useQuery({
    queryKey: digestKeys.list(),
    queryFn: ({ signal }) => fetchDigests(signal),
    refetchOnWindowFocus: false,
  });
}

export function useDrafts() {
  return useQuery({
    queryKey: digestKeys.drafts(),
    queryFn: ({ signal }) => fetchDrafts(signal),
    refetchOnWindowFocus: false,
  });
}

export function digestQueryOptions(digestId: string) {
  return queryOptions({
    queryKey: digestKeys.detail(digestId),
    queryFn: ({ signal }) => fetchDigest(digestId, signal),
    refetchOnWindowFocus: false,
  });
}

/** The health of the digest's sources (issue 17); `enabled` false while there is no saved digest. */
export function useDigestHealth(digestId: string, enabled = true) {
  return useQuery({
    queryKey: digestKeys.health(digestId),
    queryFn: ({ signal }) => fetchDigestHealth(digestId, signal),
    refetchOnWindowFocus: false,
    enabled: enabled && digestId !== '',
  });
}

export function useDigest(digestId: string) {
  return useQuery(digestQueryOptions(digestId));
}

/**
 * True when 'Create digest' must be disabled: docs/product.md §5 blocks creation when the user already has more
 * than 99 digests, i.e. MAX_DIGESTS (100) or more.
 */
export function isDigestLimitReached(count: number): boolean {
  return count >= MAX_DIGESTS;
}

export function useDigestLimitReached(): boolean {
  const { data } = useDigests();
  return isDigestLimitReached(data?.length ?? 0);
}

function patchCachedDigest(queryClient: QueryClient, digestId: string, patch: Partial<DigestSummary>): void {
  queryClient.setQueryData<DigestSummary[]>(digestKeys.list(), (digests) =>
    digests?.map((digest) => (digest.digestId === digestId ? { ...digest, ...patch } : digest)),
  );
  queryClient.setQueryData<Digest>(digestKeys.detail(digestId), (digest) =>
    digest ? { ...digest, ...patch } : digest,
  );
}

/** The notice after a resume that sent a catch-up issue. */
export const CATCH_UP_SENT_MESSAGE = 'Resumed. The catch-up issue is on its way.';

/**
 * The Active/Paused switch (docs/product.md §4): flips at once; when the server refuses, it flips back and the
 * error is shown. `catchUp` resumes with one "While you were away" issue (issue 17).
 */
export function useSetActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['digests', 'active'],
    mutationFn: ({ digestId, active, catchUp }: { digestId: string; active: boolean; catchUp?: boolean }) =>
      updateDigest(digestId, catchUp ? { active, catchUp } : { active }),
    onMutate: async ({ digestId, active }) => {
      await queryClient.cancelQueries({ queryKey: digestKeys.list() });
      await queryClient.cancelQueries({ queryKey: digestKeys.detail(digestId) });
      patchCachedDigest(queryClient, digestId, { active });
      return { previous: !active };
    },
    onError: (error, { digestId }, context) => {
      if (context) patchCachedDigest(queryClient, digestId, { active: context.previous });
      showError(error);
    },
    onSuccess: (digest, { catchUp }) => {
      const { active, pausedAt, nextRunAt } = digest;
      patchCachedDigest(queryClient, digest.digestId, { active, pausedAt, nextRunAt });
      if (catchUp) notifySuccess(CATCH_UP_SENT_MESSAGE);
    },
  });
}

/**
 * The public link of a digest (docs/design.md §10): turned on or off by the server (it makes the token), then
 * shown in the cached digest and list; a refusal is shown as an error and changes nothing.
 */
export function useSetVisibility(digestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['digests', 'visibility', digestId],
    mutationFn: (visibility: DigestVisibility) => setVisibility(digestId, visibility),
    onSuccess: (answer) => patchCachedDigest(queryClient, digestId, answer),
    onError: showError,
  });
}

/**
 * "Send latest digest" (docs/product.md §4): a new issue now, mailed to the owner; the server's message is shown and
 * the digest reloaded, so that the caller can select the answer's `build` once it settles. A refusal
 * (429 rate-limited, 422 nothing to send) stays in the mutation's `error` to be shown next to the button
 * (docs/product.md §8 "Rebuild failure: message stored and shown").
 */
export function sendLatestDigestOptions(queryClient: QueryClient, digestId: string) {
  return mutationOptions({
    mutationKey: ['digests', 'rebuild', digestId],
    mutationFn: () => rebuildDigest(digestId),
    onSuccess: async (response) => {
      notifySuccess(response.message);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: digestKeys.detail(digestId) }),
        // The list shows the newest issue's number in its share links.
        queryClient.invalidateQueries({ queryKey: digestKeys.list() }),
      ]);
    },
    // Sent or not (every source failed), the issue read the sources: their health and the card's mark.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: digestKeys.health(digestId) }),
        queryClient.invalidateQueries({ queryKey: digestKeys.list() }),
      ]),
    onError: (error) => {
      const nothingSent = Object.values<string | undefined>(NOTHING_SENT_CODES);
      if (error instanceof ApiError && nothingSent.includes(error.code)) notifyInfo(error.message);
      else showError(error);
    },
  });
}

export function useSendLatestDigest(digestId: string) {
  const queryClient = useQueryClient();
  return useMutation(sendLatestDigestOptions(queryClient, digestId));
}

export function useDuplicateDigest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['digests', 'duplicate'],
    mutationFn: (digestId: string) => duplicateDigest(digestId),
    onSuccess: async (copy) => {
      notifySuccess(`${copy.name} has been created, paused.`);
      // docs/product.md §7: duplicate, then reload the lists.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: digestKeys.list() }),
        queryClient.invalidateQueries({ queryKey: digestKeys.drafts() }),
      ]);
    },
    onError: showError,
  });
}

export function useDeleteDigest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['digests', 'delete'],
    mutationFn: (digestId: string) => deleteDigest(digestId),
    onSuccess: async (response, digestId) => {
      queryClient.setQueryData<DigestSummary[]>(digestKeys.list(), (digests) =>
        digests?.filter((digest) => digest.digestId !== digestId),
      );
      queryClient.removeQueries({ queryKey: digestKeys.detail(digestId) });
      notifySuccess(response.message);
      await queryClient.invalidateQueries({ queryKey: digestKeys.list() });
    },
    onError: showError,
  });
}

export function useDeleteDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['digests', 'drafts', 'delete'],
    mutationFn: (draftId: string) => deleteDraft(draftId),
    onSuccess: async (response) => {
      notifySuccess(response.message);
      await queryClient.invalidateQueries({ queryKey: digestKeys.drafts() });
    },
    onError: showError,
  });
}

export function useSubscribers(digestId: string, enabled = true) {
  return useQuery({
    queryKey: digestKeys.subscribers(digestId),
    queryFn: ({ signal }) => fetchSubscribers(digestId, signal),
    enabled,
    refetchOnWindowFocus: false,
  });
}

/** `PUT /digests/{id}/subscribers`; the caller shows the message and closes the dialog (docs/product.md §4). */
export function useSetSubscribers(digestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['digests', 'subscribers', 'set', digestId],
    mutationFn: (subscribers: string[]) => setSubscribers(digestId, subscribers),
    onSuccess: async (response) => {
      queryClient.setQueryData(digestKeys.subscribers(digestId), response.subscribers);
      notifySuccess(response.message);
      // docs/product.md §4: the digests reload.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: digestKeys.list() }),
        queryClient.invalidateQueries({ queryKey: digestKeys.detail(digestId) }),
      ]);
    },
    onError: showError,
  });
}

export function useRemoveSubscriber(digestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['digests', 'subscribers', 'remove', digestId],
    mutationFn: (email: string) => removeSubscriber(digestId, email),
    onSuccess: async (response) => {
      queryClient.setQueryData(digestKeys.subscribers(digestId), response.subscribers);
      notifySuccess(response.message);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: digestKeys.list() }),
        queryClient.invalidateQueries({ queryKey: digestKeys.detail(digestId) }),
        queryClient.invalidateQueries({ queryKey: digestKeys.subscribers(digestId) }),
      ]);
    },
    onError: showError,
  });
}
