import type { NewsletterSenderStateBody } from '@digest/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '#web/lib/api-client';
import { notifyError, notifySuccess } from '#web/lib/notify';
import {
  deleteMessage,
  deleteSenderMessages,
  dismissMessage,
  fetchMailbox,
  fetchMessage,
  fetchMessages,
  type MessageFilters,
  replyToConfirm,
  setMessageRead,
  setSenderState,
  unsubscribeSender,
} from './newsletters-api';

export const newsletterKeys = {
  all: ['newsletters'] as const,
  mailbox: () => ['newsletters', 'mailbox'] as const,
  lists: () => ['newsletters', 'messages'] as const,
  list: (filters: MessageFilters) => ['newsletters', 'messages', filters] as const,
  message: (messageId: string) => ['newsletters', 'message', messageId] as const,
};

/**
 * The reader's signed frame link lasts 10–15 minutes; within 5 the server answers the same one, so the
 * message is not refetched sooner (a new link would reload the frame).
 */
const MESSAGE_STALE_MS = 5 * 60_000;

const showError = (error: unknown) => notifyError(errorMessage(error));

/** `GET /newsletters`: the address, the quota, the senders and what is pinned. */
export function useMailbox() {
  return useQuery({ queryKey: newsletterKeys.mailbox(), queryFn: ({ signal }) => fetchMailbox(signal) });
}

/** The inbox, newest first, a page at a time by the server's cursor. */
export function useMessages(filters: MessageFilters) {
  return useInfiniteQuery({
    queryKey: newsletterKeys.list(filters),
    queryFn: ({ pageParam, signal }) => fetchMessages(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

/** One message for the reader. Opening it marks it read, so the counts and the inbox reload. */
export function useMessage(messageId: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: newsletterKeys.message(messageId),
    queryFn: async ({ signal }) => {
      const message = await fetchMessage(messageId, signal);
      void queryClient.invalidateQueries({ queryKey: newsletterKeys.mailbox() });
      void queryClient.invalidateQueries({ queryKey: newsletterKeys.lists() });
      return message;
    },
    staleTime: MESSAGE_STALE_MS,
  });
}

/** Every change reloads the mailbox and the inbox: counts, states and the pinned list move together. */
function useReloadMailbox() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: newsletterKeys.mailbox() }),
      queryClient.invalidateQueries({ queryKey: newsletterKeys.lists() }),
    ]);
}

export function useSetRead() {
  const reload = useReloadMailbox();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId, read }: { messageId: string; read: boolean }) =>
      setMessageRead(messageId, read),
    onSuccess: async (summary) => {
      queryClient.setQueryData(newsletterKeys.message(summary.messageId), (message: object | undefined) =>
        message ? { ...message, read: summary.read } : message,
      );
      await reload();
    },
    onError: showError,
  });
}

export function useDismiss() {
  const reload = useReloadMailbox();
  return useMutation({ mutationFn: dismissMessage, onSuccess: reload, onError: showError });
}

export function useDeleteMessage() {
  const reload = useReloadMailbox();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMessage,
    onSuccess: async (response, messageId) => {
      queryClient.removeQueries({ queryKey: newsletterKeys.message(messageId) });
      notifySuccess(response.message);
      await reload();
    },
    onError: showError,
  });
}

/**
 * The Reply of a reply-to-confirm message. A refusal (502 not sent, 409 already done) stays in the
 * mutation's `error`, shown next to the button, and the pinned list reloads (409: it is resolved).
 */
export function useReplyToConfirm() {
  const reload = useReloadMailbox();
  return useMutation({
    mutationFn: replyToConfirm,
    onSuccess: async (summary) => {
      notifySuccess(`Reply sent to ${summary.senderName}: your subscription should be confirmed.`);
      await reload();
    },
    onError: reload,
  });
}

export function useSetSenderState() {
  const reload = useReloadMailbox();
  return useMutation({
    mutationFn: ({ senderId, state }: { senderId: string; state: NewsletterSenderStateBody['state'] }) =>
      setSenderState(senderId, state),
    onSuccess: reload,
    onError: showError,
  });
}

export function useDeleteSenderMessages() {
  const reload = useReloadMailbox();
  return useMutation({
    mutationFn: deleteSenderMessages,
    onSuccess: async (sender) => {
      notifySuccess(`Every message from ${sender.name} has been deleted.`);
      await reload();
    },
    onError: showError,
  });
}

/** Unsubscribe: the outcome (sent, failed, open_link) is in `data`, shown on the sender's card. */
export function useUnsubscribe() {
  const reload = useReloadMailbox();
  return useMutation({ mutationFn: unsubscribeSender, onSuccess: reload, onError: showError });
}
