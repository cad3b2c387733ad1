import * as z from 'zod/mini';
import { ACCOUNT_PROVIDER_LABELS } from './accounts';
import { SOURCE_LABELS, SOURCE_TYPES, type Source, type SourceType, sourceKindOf } from './sources';

/**
 * Source health (issue 17): every source of a digest has a record of how its last reads went, filled by
 * the issues and the builder's previews (never by fetches of its own), so the owner learns that a source
 * quietly broke and what to do about it.
 */

/** Why a source could not give its content: the server's SourceError kinds, one list for both sides. */
export const SOURCE_ERROR_KINDS = [
  'timeout',
  'not_found',
  'rate_limited',
  'not_connected',
  'not_configured',
  'unauthorized',
  'blocked',
  'unreachable',
  'too_large',
  'invalid_response',
  'invalid_request',
  /** The provider refuses this server's app the endpoint: its access tier or plan does not include it. */
  'tier_required',
  'upstream',
] as const;
export type SourceErrorKind = (typeof SOURCE_ERROR_KINDS)[number];

/** Failed issues in a row after which the owner gets one e-mail about the source. */
export const HEALTH_ALERT_STREAK = 3;

/** How long a feed must keep answering a permanent redirect before its address is changed to the new one. */
export const FEED_MOVE_AFTER_DAYS = 7;

/**
 * The identity of a source within its digest: its kind and what it reads (a feed's address, a subreddit),
 * the same key "Every item once" remembers its items by, so renaming a block or changing its count keeps
 * its record. Figures (weather, date, Stripe, calendar) have no such key: one record per kind, since a
 * digest has one of them and their provider fails for all alike.
 */
export function sourceHealthKey(source: Source): string {
  const remembers = sourceKindOf(source.type).remembers;
  return remembers ? `${source.type}\n${remembers.sourceKey(source)}` : source.type;
}

/**
 * What the owner can do: reconnect the provider's account (on the Connected accounts page), edit the source
 * in the builder (another address, another subreddit), or nothing but wait (the provider is down or asked
 * to wait; the next issue tries again).
 */
export const SOURCE_FIX_ACTIONS = ['reconnect', 'edit', 'wait'] as const;
export type SourceFixAction = (typeof SOURCE_FIX_ACTIONS)[number];

export interface SourceFix {
  /** The product's clear words for what is wrong. */
  message: string;
  action: SourceFixAction;
  /** The action's label ("Reconnect Google", "Edit the source"), absent for `wait`. */
  label?: string;
}

export interface SourceFailure {
  kind: SourceErrorKind;
  /** The status the provider answered, when it answered one (Reddit's 403 is a private subreddit). */
  providerStatus?: number | null | undefined;
}

const EDIT = 'Edit the source';

/**
 * The fix of a failure, from its kind (never from the wording of its message): the provider's account, the
 * source's settings, or time.
 */
export function sourceFixOf(type: SourceType, failure: SourceFailure): SourceFix {
  const kind = sourceKindOf(type);
  // A feed is "the feed" to its reader, not its kind's name.
  const label = type === 'RSS' ? 'The feed' : SOURCE_LABELS[type];
  const provider = kind.accountProvider ? ACCOUNT_PROVIDER_LABELS[kind.accountProvider] : undefined;
  const edit = (message: string): SourceFix => ({ message, action: 'edit', label: EDIT });
  const wait = (message: string): SourceFix => ({ message, action: 'wait' });
  switch (failure.kind) {
    case 'not_connected':
    case 'unauthorized':
      if (provider)
        return {
          message: `${provider} no longer accepts the connected account.`,
          action: 'reconnect',
          label: `Reconnect ${provider}`,
        };
      if (type === 'RSS') return edit('The feed asks for a sign-in now.');
      return failure.kind === 'unauthorized'
        ? wait(`${label} refused this server's access.`)
        : edit(`${label} needs an account that is not connected.`);
    case 'not_found':
      if (type === 'RSS') return edit('The feed is not at this address any more.');
      if (type === 'REDDIT')
        return edit(
          failure.providerStatus === 403 ? 'The subreddit is private now.' : 'The subreddit is gone.',
        );
      return edit(`${label} no longer has what this source reads.`);
    case 'unreachable':
      return type === 'RSS'
        ? edit("The feed's address could not be reached.")
        : wait(`${label} could not be reached.`);
    case 'invalid_response':
      return type === 'RSS'
        ? edit('The address no longer answers with a feed.')
        : wait(`${label} answered something unexpected.`);
    case 'too_large':
      return edit(`${label} answered more than can be read.`);
    case 'invalid_request':
      return edit(`${label} does not accept this source's settings.`);
    case 'rate_limited':
      return wait(`${label} asked to wait before it is read again.`);
    case 'timeout':
      return wait(`${label} did not answer in time.`);
    case 'blocked':
      return wait(`${label} refuses requests from this server.`);
    case 'not_configured':
      return wait(`This server is not set up to read ${SOURCE_LABELS[type]}.`);
    case 'tier_required':
      return wait(`${label} does not give this server's app access to it.`);
    case 'upstream':
      return wait(`${label} is having trouble.`);
  }
}

/** The note the owner reads once a feed's address was changed to where it moved. */
export const feedMovedNote = (address: string, at: string) => `Moved to ${address} on ${at.slice(0, 10)}.`;

/** The line that says a feed moved (a permanent redirect seen), before its address is changed. */
export const feedMovingMessage = (address: string) => `The feed moved: use ${address}`;

// ---------------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------------

const fixSchema = z.object({
  message: z.string(),
  action: z.enum(SOURCE_FIX_ACTIONS),
  label: z.optional(z.string()),
});

/** One source's record, as `GET /api/digests/{id}/health` answers it. */
export const sourceHealthSchema = z.object({
  /** `sourceHealthKey` of the source. */
  key: z.string(),
  /** Its place in the digest's sources (the first source that has this key). */
  index: z.number().check(z.int()),
  type: z.enum(SOURCE_TYPES as [SourceType, ...SourceType[]]),
  /** The block's title, as the issue shows it. */
  title: z.string(),
  /** Whether its last read failed. */
  failing: z.boolean(),
  /**
   * The read that last changed the record: the one that ended a failure, or a preview's (a read that went
   * well is not written over a record that says all is well); null for a source that never failed.
   */
  lastSuccessAt: z.nullable(z.string()),
  lastErrorAt: z.nullable(z.string()),
  /** The last failure: the provider's words (as the source's block showed them) and its kind. */
  lastError: z.nullable(
    z.object({
      kind: z.enum(SOURCE_ERROR_KINDS),
      detail: z.string(),
      providerStatus: z.nullable(z.number()),
    }),
  ),
  /** Issues in a row whose read of this source failed. */
  consecutiveFailures: z.number().check(z.int()),
  /** When the provider asked to wait until (its Retry-After), while that is ahead. */
  retryAt: z.nullable(z.string()),
  /** What to do while it is failing, or about a feed that moved. */
  fix: z.nullable(fixSchema),
  /** A permanent redirect the feed answers, and when it was first seen. */
  movedTo: z.nullable(z.object({ address: z.string(), since: z.string() })),
  /** Set once the address was changed to where the feed moved: `feedMovedNote`. */
  note: z.nullable(z.string()),
});
export type SourceHealth = z.output<typeof sourceHealthSchema>;

export const digestHealthResponseSchema = z.object({ sources: z.array(sourceHealthSchema) });
export type DigestHealthResponse = z.output<typeof digestHealthResponseSchema>;
