import {
  type Digest,
  type DigestCreateInput,
  type DigestHealthResponse,
  type DigestPatchInput,
  type DigestSummary,
  type DigestVisibility,
  type Draft,
  type DraftCreateInput,
  type DraftPatchInput,
  digestHealthResponseSchema,
  digestListResponseSchema,
  digestResponseSchema,
  draftListResponseSchema,
  draftResponseSchema,
  messageResponseSchema,
  type RebuildResponse,
  rebuildResponseSchema,
  type Subscriber,
  type SubscribersUpdateResponse,
  subscriberListResponseSchema,
  subscribersUpdateResponseSchema,
  type VisibilityResponse,
  visibilityResponseSchema,
} from '@digest/contracts';
import { api } from '#web/lib/api-client';

const id = (value: string) => encodeURIComponent(value);

export function fetchDigests(signal?: AbortSignal): Promise<DigestSummary[]> {
  return api.get('/digests', { schema: digestListResponseSchema, signal }).then((body) => body.digests);
}

export function fetchDigest(digestId: string, signal?: AbortSignal): Promise<Digest> {
  return api
    .get(`/digests/${id(digestId)}`, { schema: digestResponseSchema, signal })
    .then((body) => body.digest);
}

/** `GET /digests/{id}/health` (issue 17): how each source last read, and what to do about it. */
export function fetchDigestHealth(digestId: string, signal?: AbortSignal): Promise<DigestHealthResponse> {
  return api.get(`/digests/${id(digestId)}/health`, { schema: digestHealthResponseSchema, signal });
}

export function fetchDrafts(signal?: AbortSignal): Promise<Draft[]> {
  // Drafts mirror digests (docs/design.md §5): the list is `{ digests }`.
  return api.get('/digests/drafts', { schema: draftListResponseSchema, signal }).then((body) => body.digests);
}

/** `POST /digests`: answers the new digest (201). */
export function createDigest(body: DigestCreateInput): Promise<Digest> {
  return api.post('/digests', body, { schema: digestResponseSchema }).then((response) => response.digest);
}

/** `PATCH /digests/{id}` with some of the digest's fields; `{ active: false }` pauses it. */
export function updateDigest(digestId: string, patch: DigestPatchInput): Promise<Digest> {
  return api
    .patch(`/digests/${id(digestId)}`, patch, { schema: digestResponseSchema })
    .then((body) => body.digest);
}

/** `PUT /digests/{id}/visibility`: turns the public link on (a new link) or off (docs/design.md §10). */
export function setVisibility(digestId: string, visibility: DigestVisibility): Promise<VisibilityResponse> {
  return api.put(`/digests/${id(digestId)}/visibility`, { visibility }, { schema: visibilityResponseSchema });
}

export function deleteDigest(digestId: string): Promise<{ message: string }> {
  return api.delete(`/digests/${id(digestId)}`, { schema: messageResponseSchema });
}

/** `POST /digests/duplicate/{id}`: a paused copy with the same schedule and sources. */
export function duplicateDigest(digestId: string): Promise<Digest> {
  return api
    .post(`/digests/duplicate/${id(digestId)}`, undefined, { schema: digestResponseSchema })
    .then((body) => body.digest);
}

/**
 * "Send latest digest": builds a new issue now and mails it to the owner. POST, not the original GET (docs/product.md §7), because
 * it has effects (docs/design.md §5). The answer names the new issue.
 */
/** Building reads every source live (each may take up to 30 s on the server): it gets longer than a call. */
const REBUILD_TIMEOUT_MS = 45_000;

export function rebuildDigest(digestId: string): Promise<RebuildResponse> {
  return api.post(`/digests/rebuild/${id(digestId)}`, undefined, {
    schema: rebuildResponseSchema,
    timeoutMs: REBUILD_TIMEOUT_MS,
  });
}

/** `POST /digests/drafts`: answers the draft, its id in `digestId` (docs/product.md §7). */
export function createDraft(body: DraftCreateInput): Promise<Draft> {
  return api
    .post('/digests/drafts', body, { schema: draftResponseSchema })
    .then((response) => response.digest);
}

export function updateDraft(draftId: string, patch: DraftPatchInput): Promise<Draft> {
  return api
    .patch(`/digests/drafts/${id(draftId)}`, patch, { schema: draftResponseSchema })
    .then((response) => response.digest);
}

export function deleteDraft(draftId: string): Promise<{ message: string }> {
  return api.delete(`/digests/drafts/${id(draftId)}`, { schema: messageResponseSchema });
}

export function fetchSubscribers(digestId: string, signal?: AbortSignal): Promise<Subscriber[]> {
  return api
    .get(`/digests/${id(digestId)}/subscribers`, { schema: subscriberListResponseSchema, signal })
    .then((body) => body.subscribers);
}

/**
 * `PUT /digests/{id}/subscribers`: sets the list of active subscribers; each new one gets a notice. The
 * answer carries a message to show (docs/product.md §4).
 */
export function setSubscribers(digestId: string, subscribers: string[]): Promise<SubscribersUpdateResponse> {
  return api.put(
    `/digests/${id(digestId)}/subscribers`,
    { subscribers },
    { schema: subscribersUpdateResponseSchema },
  );
}

export function removeSubscriber(digestId: string, email: string): Promise<SubscribersUpdateResponse> {
  return api.delete(`/digests/${id(digestId)}/subscribers/${id(email)}`, {
    schema: subscribersUpdateResponseSchema,
  });
}
