import { DIGEST_DEFAULTS, type User } from '@digest/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createDigest, deleteDraft, digestKeys, rebuildDigest, updateDigest } from '#web/features/digests';
import { timezoneValue, updateProfile } from '#web/features/profile';
import { defaultDigestName, setMe } from '#web/lib/session/use-me';
import { settleDraftSaves } from '../drafts/use-draft-autosave';
import { type BuilderState, setDraftId, useBuilderStore } from '../store';
import { type Completion, type CompletionApi, completeDigest } from './complete-digest';
import { timeZoneChanged } from './schedule-options';

type BuilderFields = Pick<
  BuilderState,
  | 'name'
  | 'blocks'
  | 'schedule'
  | 'issueRetentionMonths'
  | 'sendOnlyWhenNew'
  | 'minSourcesToSend'
  | 'subscribers'
  | 'editDigestId'
  | 'draftId'
>;

/** What Done sends, from the builder: the typed name or "{full name}'s Digest" (docs/product.md §5), blocks in order. */
export function completionOf(builder: BuilderFields, user: User, zone: string): Completion {
  return {
    digest: {
      name: builder.name?.trim() || defaultDigestName(user),
      sources: builder.blocks.map((block) => block.source),
      ...builder.schedule,
      issueRetentionMonths: builder.issueRetentionMonths,
      // A builder state persisted before the option existed has none: the default.
      sendOnlyWhenNew: builder.sendOnlyWhenNew ?? DIGEST_DEFAULTS.sendOnlyWhenNew,
      minSourcesToSend: builder.minSourcesToSend ?? DIGEST_DEFAULTS.minSourcesToSend,
      subscribers: builder.subscribers,
    },
    editDigestId: builder.editDigestId,
    draftId: builder.draftId,
    timeZone: timeZoneChanged(user, zone) ? timezoneValue(zone) : null,
  };
}

/**
 * Done / Update digest: runs `completeDigest` against the API. On success the draft id is cleared and every
 * digest query (list, drafts, the edited digest) is refetched; the blocks stay until the user leaves with
 * Go to Digests, so the popup can still show them behind it.
 */
export function useCompleteDigest() {
  const queryClient = useQueryClient();
  const api: CompletionApi = {
    saveTimeZone: (timezone) => updateProfile({ timezone }).then((user) => setMe(queryClient, user)),
    createDigest,
    updateDigest,
    rebuildDigest,
    deleteDraft,
  };
  return useMutation({
    mutationKey: ['builder', 'complete'],
    mutationFn: async ({ user, zone }: { user: User; zone: string }) => {
      // The builder is read once its draft saves have settled: the draft id is then the one to delete.
      await settleDraftSaves();
      return completeDigest(completionOf(useBuilderStore.getState(), user, zone), api);
    },
    onSuccess: async () => {
      // Only when there was one: clearing it also clears what the page counts as loaded, which in edit
      // mode would load the digest again behind the popup.
      if (useBuilderStore.getState().draftId !== null) setDraftId(null);
      await queryClient.invalidateQueries({ queryKey: digestKeys.all });
    },
  });
}
