import { type DigestCreateInput, NOTHING_SENT_CODES, type Timezone } from '@digest/contracts';
import { ApiError, errorMessage } from '#web/lib/api-client';

/** What Done / Update digest sends: the digest's own fields (docs/design.md §5), from the builder's state. */
export interface Completion {
  digest: DigestCreateInput;
  /** Edit mode: the digest to update instead of creating one. */
  editDigestId: string | null;
  /** The draft this digest was built from, deleted once the digest is saved (docs/product.md §4 "Drafts"). */
  draftId: string | null;
  /** A time zone to save to the profile first, since schedules run in the owner's zone; null to keep it. */
  timeZone: Timezone | null;
}

/** The calls completing makes, passed in so the order and the outcomes are tested without a network. */
export interface CompletionApi {
  saveTimeZone: (timeZone: Timezone) => Promise<unknown>;
  createDigest: (digest: DigestCreateInput) => Promise<{ digestId: string }>;
  updateDigest: (digestId: string, digest: DigestCreateInput) => Promise<{ digestId: string }>;
  rebuildDigest: (digestId: string) => Promise<unknown>;
  deleteDraft: (draftId: string) => Promise<unknown>;
}

export interface CompletionOutcome {
  digestId: string;
  /** Things the done step says besides 'Well done!' (the first issue comes later, the draft stayed). */
  notices: string[];
}

/** The server's answer when no source had anything to send (no issue is stored). */
export const NOTHING_TO_SEND = NOTHING_SENT_CODES.nothingToSend;

/** `POST /digests/rebuild`'s answer when the digest's conditions held the issue back (its message says why). */
export const CONDITIONS_NOT_MET = NOTHING_SENT_CODES.conditionsNotMet;
export const conditionsNotMetNotice = (reason: string) =>
  `Your first issue was not sent now. ${reason} Each scheduled issue goes out when its conditions are met.`;
export const NOTHING_TO_SEND_NOTICE =
  'None of your sources has news right now: your first issue will come at the scheduled time.';

/**
 * docs/product.md §4 "Completing a digest": save the profile's zone if it changed, create the digest and build and
 * send its first issue now (or, in edit mode, update it), then delete the draft it came from. A failure to save rejects
 * (the popup shows its error step). Once the digest is saved, nothing rejects any more: a failed build or
 * draft deletion becomes a notice, so that trying again can never create the digest twice.
 */
export async function completeDigest(completion: Completion, api: CompletionApi): Promise<CompletionOutcome> {
  if (completion.timeZone) await api.saveTimeZone(completion.timeZone);
  const saved = completion.editDigestId
    ? await api.updateDigest(completion.editDigestId, completion.digest)
    : await api.createDigest(completion.digest);
  const notices: string[] = [];

  // A new digest's first issue is built and sent now; an update waits for its schedule, so editing a
  // digest never mails its owner an extra issue.
  if (!completion.editDigestId) {
    try {
      await api.rebuildDigest(saved.digestId);
    } catch (error) {
      notices.push(
        error instanceof ApiError && error.code === NOTHING_TO_SEND
          ? NOTHING_TO_SEND_NOTICE
          : error instanceof ApiError && error.code === CONDITIONS_NOT_MET
            ? conditionsNotMetNotice(error.message)
            : `Your Digest is saved, but its first issue could not be built now (${errorMessage(error)}). It will come at the scheduled time.`,
      );
    }
  }

  if (completion.draftId) {
    try {
      await api.deleteDraft(completion.draftId);
    } catch (error) {
      notices.push(
        `Its draft could not be deleted (${errorMessage(error)}): you can delete it from Digests.`,
      );
    }
  }
  return { digestId: saved.digestId, notices };
}
