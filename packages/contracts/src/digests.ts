import * as z from 'zod/mini';
import { EMAIL_MAX_LENGTH } from './auth';
import {
  DIGEST_NAME_MAX_LENGTH,
  MAX_DIGESTS,
  MAX_DRAFTS,
  MAX_SOURCES,
  MAX_SUBSCRIBERS,
  MIN_SOURCES,
} from './digest-limits';
import { SOURCE_TYPES, type SourceType, sourceSchema, storedSourceSchema } from './sources';

// ---------------------------------------------------------------------------------------------------
// Constants (docs/product.md §5, §9): the limits are in digest-limits.ts
// ---------------------------------------------------------------------------------------------------

export const SCHEDULE_TYPES = ['daily', 'weekly', 'monthly'] as const;
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];

/** Weekday indexes 0–6, Sunday first (docs/product.md §3). */
export const WEEK_DAYS = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;
export const SCHEDULE_TYPE_OPTIONS = [
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
] as const;

/**
 * How long a digest's issues are kept, in months (docs/product.md §3 "Issue retention"): issues older than
 * that are deleted by the housekeeping job. A choice between a month and two years, so no digest keeps
 * its issues forever.
 */
export const ISSUE_RETENTION_MONTHS = [1, 3, 6, 12, 24] as const;
export type IssueRetentionMonths = (typeof ISSUE_RETENTION_MONTHS)[number];
export const ISSUE_RETENTION_OPTIONS = [
  { value: 1, label: '1 month' },
  { value: 3, label: '3 months' },
  { value: 6, label: '6 months' },
  { value: 12, label: '1 year' },
  { value: 24, label: '2 years' },
] as const satisfies readonly { value: IssueRetentionMonths; label: string }[];

/** The builder's label of `sendOnlyWhenNew`. */
export const SEND_ONLY_WHEN_NEW_LABEL = 'Send only when something is new';
/**
 * docs/product.md §3 "Every item once": a scheduled issue whose list sources have no item an earlier
 * issue did not carry is not sent (the run is recorded with the reason). Off by default.
 */
export const sendOnlyWhenNewSchema = z.boolean({
  error: `${SEND_ONLY_WHEN_NEW_LABEL} must be true or false`,
});

/** The builder's label of `minSourcesToSend`. */
export const MIN_SOURCES_TO_SEND_LABEL = 'Send only when at least this many sources have something to say';
/**
 * docs/product.md §3 "Conditions": an issue in which fewer sources than this have something to say (a
 * block with content after its conditions; the date never counts) is skipped, the run recorded with the
 * reason. 0, the default, turns it off.
 */
export const minSourcesToSendSchema = z
  .number({ error: 'Sources needed must be a number' })
  .check(
    z.int({ error: 'Sources needed must be a whole number' }),
    z.gte(0, { error: `Sources needed must be from 0 to ${MAX_SOURCES}` }),
    z.lte(MAX_SOURCES, { error: `Sources needed must be from 0 to ${MAX_SOURCES}` }),
  );

/** New-digest defaults (docs/product.md §3). */
export const DIGEST_DEFAULTS = {
  name: '',
  active: true,
  scheduleType: 'daily',
  time: '07:00',
  weekDay: 1,
  monthDay: 1,
  issueRetentionMonths: 12,
  sendOnlyWhenNew: false,
  minSourcesToSend: 0,
  subscribers: [] as string[],
} as const;

/** Messages a person reads (docs/product.md §4/§5 word for word where SPEC has one). */
export const DIGEST_MESSAGES = {
  minSources: `Add at least ${MIN_SOURCES} sources to your Digest`,
  maxSources: `A Digest can have at most ${MAX_SOURCES} sources`,
  maxDraftSources: `A draft can have at most ${MAX_SOURCES} sources`,
  maxDigests: `You can have at most ${MAX_DIGESTS} Digests. Delete one to create another.`,
  maxDrafts: `You can keep at most ${MAX_DRAFTS} drafts. Delete one to start another.`,
  time: 'Time must be HH:mm on a 24-hour clock, for example 07:00',
  weekDay: 'Week day must be from 0 (Sunday) to 6 (Saturday)',
  monthDay: 'Month day must be from 1 to 31',
  scheduleType: 'Frequency must be daily, weekly or monthly',
  issueRetention: 'Keep issues for 1, 3, 6, 12 or 24 months',
  name: `Name should have at most ${DIGEST_NAME_MAX_LENGTH} characters`,
  maxSubscribers: `A Digest can be shared with at most ${MAX_SUBSCRIBERS} friends`,
  emptyPending: 'Click the + sign to add the email to the list first.',
  nothingToChange: 'Send at least one field to change',
  catchUpOnResume: 'A catch-up issue is sent only when resuming: send { active: true, catchUp: true }.',
} as const;

/** docs/product.md §5: '{email} should be a valid email!' with the entered text. */
export const invalidFriendEmailMessage = (email: string) => `${email} should be a valid email!`;

/** docs/product.md §5: the default digest name, "{full name}'s Digest" ('User' when the user has no name). */
export const defaultDigestName = (fullName: string | null | undefined) =>
  `${fullName?.trim() || 'User'}'s Digest`;

/** The share dialog's success notice (server `message`). */
export function sharedMessage(activeSubscribers: number): string {
  if (activeSubscribers === 0) return 'Your Digest is not shared with anyone.';
  return `Your Digest is shared with ${activeSubscribers} ${activeSubscribers === 1 ? 'friend' : 'friends'}.`;
}

// ---------------------------------------------------------------------------------------------------
// Fields
// ---------------------------------------------------------------------------------------------------

export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

export const scheduleTypeSchema = z.enum(SCHEDULE_TYPES, { error: DIGEST_MESSAGES.scheduleType });
export const timeSchema = z
  .string({ error: DIGEST_MESSAGES.time })
  .check(z.regex(TIME_PATTERN, { error: DIGEST_MESSAGES.time }));
export const weekDaySchema = z
  .number({ error: DIGEST_MESSAGES.weekDay })
  .check(
    z.int({ error: DIGEST_MESSAGES.weekDay }),
    z.gte(0, { error: DIGEST_MESSAGES.weekDay }),
    z.lte(6, { error: DIGEST_MESSAGES.weekDay }),
  );
export const monthDaySchema = z
  .number({ error: DIGEST_MESSAGES.monthDay })
  .check(
    z.int({ error: DIGEST_MESSAGES.monthDay }),
    z.gte(1, { error: DIGEST_MESSAGES.monthDay }),
    z.lte(31, { error: DIGEST_MESSAGES.monthDay }),
  );
export const issueRetentionSchema = z.literal(ISSUE_RETENTION_MONTHS, {
  error: DIGEST_MESSAGES.issueRetention,
});

/** Digest name: white space and control characters collapsed, trimmed; '' lets the server name it. */
export const digestNameSchema = z.pipe(
  z.pipe(
    z.string({ error: 'Name must be text' }),
    z.transform((value) => value.replace(/[\s\p{Cc}]+/gu, ' ').trim()),
  ),
  z.string().check(z.maxLength(DIGEST_NAME_MAX_LENGTH, { error: DIGEST_MESSAGES.name })),
);

/**
 * A friend's e-mail: trimmed and lower-cased, then a standard address pattern. A bad one reads
 * '{email} should be a valid email!' with the text as entered.
 */
const normaliseEmail = (value: string) => value.trim().toLowerCase();
const friendEmailPattern = z.email().check(z.maxLength(EMAIL_MAX_LENGTH));
export const subscriberEmailSchema = z.pipe(
  z.string({ error: 'E-mail must be text' }).check(
    z.refine((value) => friendEmailPattern.safeParse(normaliseEmail(value)).success, {
      error: (issue) => invalidFriendEmailMessage(String(issue.input).trim()),
    }),
  ),
  z.transform(normaliseEmail),
);

/** A list of friends' e-mails: each normalised, duplicates dropped (first kept), at most 100. */
export const subscriberListSchema = z.pipe(
  z.pipe(
    z.array(subscriberEmailSchema),
    z.transform((emails) => [...new Set(emails)]),
  ),
  z.array(z.string()).check(z.maxLength(MAX_SUBSCRIBERS, { error: DIGEST_MESSAGES.maxSubscribers })),
);

export const digestSourcesSchema = z
  .array(sourceSchema)
  .check(
    z.minLength(MIN_SOURCES, { error: DIGEST_MESSAGES.minSources }),
    z.maxLength(MAX_SOURCES, { error: DIGEST_MESSAGES.maxSources }),
  );

export const draftSourcesSchema = z
  .array(sourceSchema)
  .check(z.maxLength(MAX_SOURCES, { error: DIGEST_MESSAGES.maxDraftSources }));

// ---------------------------------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------------------------------

const scheduleFields = {
  scheduleType: scheduleTypeSchema,
  time: timeSchema,
  weekDay: weekDaySchema,
  monthDay: monthDaySchema,
};

/** A digest's schedule, with the docs/product.md §3 defaults. */
export const scheduleSchema = z.strictObject({
  scheduleType: z._default(scheduleTypeSchema, DIGEST_DEFAULTS.scheduleType),
  time: z._default(timeSchema, DIGEST_DEFAULTS.time),
  weekDay: z._default(weekDaySchema, DIGEST_DEFAULTS.weekDay),
  monthDay: z._default(monthDaySchema, DIGEST_DEFAULTS.monthDay),
});
export type Schedule = z.output<typeof scheduleSchema>;

/** `POST /api/digests`: the digest's own fields; omitted ones take docs/product.md §3 defaults. */
export const digestCreateSchema = z.strictObject({
  name: z._default(digestNameSchema, DIGEST_DEFAULTS.name),
  active: z._default(z.boolean(), DIGEST_DEFAULTS.active),
  scheduleType: z._default(scheduleFields.scheduleType, DIGEST_DEFAULTS.scheduleType),
  time: z._default(scheduleFields.time, DIGEST_DEFAULTS.time),
  weekDay: z._default(scheduleFields.weekDay, DIGEST_DEFAULTS.weekDay),
  monthDay: z._default(scheduleFields.monthDay, DIGEST_DEFAULTS.monthDay),
  issueRetentionMonths: z._default(issueRetentionSchema, DIGEST_DEFAULTS.issueRetentionMonths),
  sendOnlyWhenNew: z._default(sendOnlyWhenNewSchema, DIGEST_DEFAULTS.sendOnlyWhenNew),
  minSourcesToSend: z._default(minSourcesToSendSchema, DIGEST_DEFAULTS.minSourcesToSend),
  subscribers: z._default(subscriberListSchema, []),
  sources: digestSourcesSchema,
});
export type DigestCreateInput = z.input<typeof digestCreateSchema>;
export type DigestCreate = z.output<typeof digestCreateSchema>;

/**
 * `PATCH /api/digests/{id}`: any of the create fields (at least one). `{ active: false }` pauses,
 * `{ active: true }` resumes (`{ active: true, catchUp: true }` with one catch-up issue, when the digest was
 * paused for longer than its period); `subscribers` sets the list like `PUT /subscribers`.
 */
export const digestPatchSchema = z
  .partial(
    z.strictObject({
      name: digestNameSchema,
      active: z.boolean(),
      ...scheduleFields,
      issueRetentionMonths: issueRetentionSchema,
      sendOnlyWhenNew: sendOnlyWhenNewSchema,
      minSourcesToSend: minSourcesToSendSchema,
      subscribers: subscriberListSchema,
      sources: digestSourcesSchema,
      /** With `active: true`: resume with one "While you were away" issue (see catch-up.ts). */
      catchUp: z.literal(true, { error: 'catchUp can only be true' }),
    }),
  )
  .check(
    z.refine((patch) => Object.keys(patch).length > 0, { error: DIGEST_MESSAGES.nothingToChange }),
    z.refine((patch) => patch.catchUp === undefined || patch.active === true, {
      error: DIGEST_MESSAGES.catchUpOnResume,
      path: ['catchUp'],
    }),
  );
export type DigestPatchInput = z.input<typeof digestPatchSchema>;
export type DigestPatch = z.output<typeof digestPatchSchema>;

/** `POST /api/digests/drafts`: a builder in progress, 0–20 sources. */
export const draftCreateSchema = z.strictObject({
  name: z._default(digestNameSchema, ''),
  sources: z._default(draftSourcesSchema, []),
});
export type DraftCreateInput = z.input<typeof draftCreateSchema>;
export type DraftCreate = z.output<typeof draftCreateSchema>;

/** `PATCH /api/digests/drafts/{id}`. */
export const draftPatchSchema = z
  .partial(z.strictObject({ name: digestNameSchema, sources: draftSourcesSchema }))
  .check(z.refine((patch) => Object.keys(patch).length > 0, { error: DIGEST_MESSAGES.nothingToChange }));
export type DraftPatchInput = z.input<typeof draftPatchSchema>;
export type DraftPatch = z.output<typeof draftPatchSchema>;

/**
 * docs/design.md §10 "Private by default": a digest is `private` (no public page) until its owner turns the
 * public link on; `public` pages are reached by a random share token.
 */
export const DIGEST_VISIBILITIES = ['private', 'public'] as const;
export const digestVisibilitySchema = z.enum(DIGEST_VISIBILITIES, {
  error: "Visibility must be 'private' or 'public'",
});
export type DigestVisibility = z.output<typeof digestVisibilitySchema>;

/**
 * `PUT /api/digests/{id}/visibility`: `public` turns the public link on with a new share token (a link
 * given out before, then turned off, stays dead); `private` turns it off and forgets the token.
 */
export const visibilityPutSchema = z.strictObject({ visibility: digestVisibilitySchema });
export type VisibilityPutInput = z.input<typeof visibilityPutSchema>;

/** `PUT /api/digests/{id}/subscribers`: the whole list of active subscribers after the change. */
export const subscribersPutSchema = z.strictObject({ subscribers: subscriberListSchema });
export type SubscribersPutInput = z.input<typeof subscribersPutSchema>;

// ---------------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------------

/**
 * One issue of a digest. `htmlLink` is the owner's full copy of its HTML: a signed address that works for a
 * day without a sign-in, so a sandboxed frame (which sends no token) can load it.
 */
export const buildSchema = z.object({
  buildNumber: z.number().check(z.int()),
  createdAt: z.string(),
  htmlLink: z.string(),
});
export type Build = z.output<typeof buildSchema>;

const digestFields = {
  digestId: z.uuid(),
  name: z.string(),
  active: z.boolean(),
  scheduleType: scheduleTypeSchema,
  time: z.string(),
  weekDay: z.number().check(z.int()),
  monthDay: z.number().check(z.int()),
  /** Issues older than this many months are deleted. */
  issueRetentionMonths: issueRetentionSchema,
  /** An issue with no new item in its list sources is not sent. */
  sendOnlyWhenNew: z.boolean(),
  /** An issue in which fewer sources have something to say is skipped (0: off). */
  minSourcesToSend: z.number().check(z.int()),
  /** Number of the newest issue, null before the first one. */
  latestBuildNumber: z.nullable(z.number().check(z.int())),
  visibility: digestVisibilitySchema,
  /** The public page (`{APP_URL}/digests/share/{token}`, its latest issue) while the link is on, else null. */
  shareUrl: z.nullable(z.string()),
  /** When the next issue goes out (ISO 8601), null while the digest is paused. */
  nextRunAt: z.nullable(z.string()),
  /** Since when the digest is paused (ISO 8601); null while active, or paused before this was recorded. */
  pausedAt: z.nullable(z.string()),
  /** The owner's IANA zone the schedule runs in (UTC until the profile has one). */
  timeZone: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

/**
 * A digest as the list answers it: what its card shows. The sources' settings and the subscribers' addresses
 * are only in the digest itself (`GET /digests/{id}`), so a list of 100 digests stays a few KiB, not 100+.
 */
export const digestSummarySchema = z.object({
  ...digestFields,
  /** The kinds of its sources, in the digest's order (one per source: the card draws their icons). */
  sourceTypes: z.array(z.enum(SOURCE_TYPES as [SourceType, ...SourceType[]])),
  /** How many friends it has (invited or subscribed). */
  subscriberCount: z.number().check(z.int()),
  /** How many of its sources failed at their last read (issue or preview): the card's "1 source failing". */
  failingSources: z.number().check(z.int()),
});
export type DigestSummary = z.output<typeof digestSummarySchema>;

/** One digest with its issues, newest last. */
/**
 * The latest scheduled slot the scheduler took and what became of it: `built`, `queued` (being built), or
 * not sent — `skipped` (found too late after downtime, paused meanwhile, or its conditions not met), `empty` (no source had
 * anything), `failed` — with the reason. Null before the first slot.
 */
export const RUN_STATUSES = ['queued', 'built', 'skipped', 'empty', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const lastRunSchema = z.object({
  slot: z.string(),
  status: z.enum(RUN_STATUSES),
  reason: z.nullable(z.string()),
});
export type LastRun = z.output<typeof lastRunSchema>;

export const digestSchema = z.object({
  ...digestFields,
  /** Active subscribers' e-mails (unsubscribed ones are listed by GET /subscribers). */
  subscribers: z.array(z.string()),
  sources: z.array(storedSourceSchema),
  builds: z.array(buildSchema),
  lastRun: z.nullable(lastRunSchema),
});
export type Digest = z.output<typeof digestSchema>;

export const digestResponseSchema = z.object({ digest: digestSchema });
export const digestListResponseSchema = z.object({ digests: z.array(digestSummarySchema) });
export type DigestResponse = z.output<typeof digestResponseSchema>;

/** `POST /digests/rebuild/{id}` ("Send latest digest"): the new issue, built now and mailed to the owner. */
export const rebuildResponseSchema = z.object({ message: z.string(), build: buildSchema });
export type RebuildResponse = z.output<typeof rebuildResponseSchema>;
export type DigestListResponse = z.output<typeof digestListResponseSchema>;

/** A draft (docs/product.md §3: digestId, name, sources). Its id is `digestId`, like the SPEC's. */
export const draftSchema = z.object({
  digestId: z.uuid(),
  name: z.string(),
  sources: z.array(storedSourceSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Draft = z.output<typeof draftSchema>;

/** Drafts mirror digests (docs/design.md §5): `{ digest }` for one, `{ digests }` for the list. */
export const draftResponseSchema = z.object({ digest: draftSchema });
export const draftListResponseSchema = z.object({ digests: z.array(draftSchema) });
export type DraftResponse = z.output<typeof draftResponseSchema>;
export type DraftListResponse = z.output<typeof draftListResponseSchema>;

/**
 * A friend's consent (double opt-in): `invited` until they accept (`subscribed`) or decline; `unsubscribed`
 * after they left; `bouncing` when their mail server refused mail for good. Only `subscribed` friends get issues.
 */
export const SUBSCRIBER_STATUSES = ['invited', 'subscribed', 'declined', 'unsubscribed', 'bouncing'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

/** What the owner reads beside each friend in the share dialog. */
export const SUBSCRIBER_STATUS_LABELS: Record<SubscriberStatus, { label: string; hint: string }> = {
  invited: { label: 'Invited', hint: 'Invitation sent; issues start once they accept it.' },
  subscribed: { label: 'Subscribed', hint: 'Accepted; receives every issue.' },
  declined: { label: 'Declined', hint: 'Declined the invitation; they will not be invited again.' },
  unsubscribed: { label: 'Unsubscribed', hint: 'Left this Digest; they will not be invited again.' },
  bouncing: { label: 'Bouncing', hint: 'Their mail server refuses mail to this address.' },
};

/** Mail limits of an account (docs/design.md §10): the messages say what to do. */
export const MAIL_LIMIT_MESSAGES = {
  dailyRecipients: (max: number) =>
    `Your account can mail at most ${max} different people a day (invitations and issues). Add the other friends tomorrow, or remove some of the new ones.`,
  invitedTooOften: (email: string, until: Date) =>
    `${email} has received too many invitations today. Add them again after ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
} as const;

export const subscriberSchema = z.object({
  email: z.string(),
  status: z.enum(SUBSCRIBER_STATUSES),
  subscribedAt: z.string(),
  unsubscribedAt: z.nullable(z.string()),
});
export type Subscriber = z.output<typeof subscriberSchema>;

/** `GET /api/digests/{id}/subscribers`: every friend the owner added, whatever their status, newest first. */
export const subscriberListResponseSchema = z.object({ subscribers: z.array(subscriberSchema) });
/** `PUT /api/digests/{id}/subscribers` and `DELETE …/subscribers/{email}`. */
export const subscribersUpdateResponseSchema = z.object({
  message: z.string(),
  subscribers: z.array(subscriberSchema),
});
export type SubscriberListResponse = z.output<typeof subscriberListResponseSchema>;
export type SubscribersUpdateResponse = z.output<typeof subscribersUpdateResponseSchema>;

/**
 * `GET /api/subscriptions/{token}`: what the invitation and unsubscribe pages show. Reading it changes
 * nothing (mail scanners follow links).
 */
export const subscriptionSchema = z.object({
  digestName: z.string(),
  /** The owner's name (or masked address when they have no name). */
  ownerName: z.string(),
  /** How often issues come. */
  scheduleType: scheduleTypeSchema,
  /** Masked: `j***@example.com`. */
  email: z.string(),
  status: z.enum(SUBSCRIBER_STATUSES),
});
export const subscriptionResponseSchema = z.object({ subscription: subscriptionSchema });
export type Subscription = z.output<typeof subscriptionSchema>;
/** The answers of `POST /api/subscriptions/{token}/{unsubscribe,accept,decline,block}`. */
export const unsubscribeResponseSchema = z.object({ message: z.string(), subscription: subscriptionSchema });
export type UnsubscribeResponse = z.output<typeof unsubscribeResponseSchema>;

// ---------------------------------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------------------------------

/** docs/product.md §2 template categories, in the order the builder's carousel shows them. */
export const TEMPLATE_CATEGORIES = [
  'popular',
  'everyday',
  'socials',
  'finance',
  'news',
  'hand-crafted',
  'tech',
] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

export const TEMPLATE_CATEGORY_LABELS: Record<TemplateCategory, string> = {
  popular: 'Popular',
  everyday: 'Everyday',
  socials: 'Socials',
  finance: 'Finance',
  news: 'News',
  'hand-crafted': 'Hand-crafted',
  tech: 'Tech',
};

export const templateSchema = z.object({
  templateId: z.string(),
  name: z.string(),
  description: z.string(),
  sources: z.array(storedSourceSchema),
  /** Why some of the template's sources are left out on this server (a kind it cannot serve), or null. */
  note: z.nullable(z.string()),
});
export type Template = z.output<typeof templateSchema>;
/** `GET /api/digests/web/{category}`. */
export const templateListResponseSchema = z.object({ templates: z.array(templateSchema) });
export type TemplateListResponse = z.output<typeof templateListResponseSchema>;

// ---------------------------------------------------------------------------------------------------
// Public profile (docs/product.md §1: "the profile is public because all digests are public")
// ---------------------------------------------------------------------------------------------------

/** `GET /api/users/by-username/{username}` (no login): photo, name, bio and the user's digests. */
export const publicProfileResponseSchema = z.object({
  user: z.object({
    fullName: z.nullable(z.string()),
    username: z.string(),
    bio: z.nullable(z.string()),
    /** URL of the photo, or null. */
    profileImg: z.nullable(z.string()),
  }),
  /**
   * The user's public, active digests, newest first, each by its share token (never its id);
   * `latestBuildNumber` null until the first issue the public may read (the page then shows nothing yet).
   */
  digests: z.array(
    z.object({
      shareToken: z.string(),
      name: z.string(),
      latestBuildNumber: z.nullable(z.number().check(z.int())),
    }),
  ),
});
export type PublicProfile = z.output<typeof publicProfileResponseSchema>;

// ---------------------------------------------------------------------------------------------------
// Public page
// ---------------------------------------------------------------------------------------------------

/** `/visibility` answers the digest's visibility and its public page (null while private). */
export const visibilityResponseSchema = z.object({
  visibility: digestVisibilitySchema,
  shareUrl: z.nullable(z.string()),
});
export type VisibilityResponse = z.output<typeof visibilityResponseSchema>;

/** Path of an issue's public HTML (API), by the digest's share token. */
export const shareHtmlPath = (shareToken: string, buildNumber?: number | null) =>
  `/api/digests/share/${shareToken}${buildNumber == null ? '' : `/${buildNumber}`}`;
/** A public page (docs/product.md §2): `{app origin}/digests/share/{shareToken}[/{buildNumber}]`. */
export const sharePageUrl = (origin: string, shareToken: string, buildNumber?: number | null) =>
  `${origin}/digests/share/${shareToken}${buildNumber == null ? '' : `/${buildNumber}`}`;

/** The feeds of a public digest's issues, by format: their media types and the names of their addresses. */
export const PUBLIC_FEEDS = {
  atom: { type: 'application/atom+xml', file: 'feed.atom', label: 'Atom' },
  json: { type: 'application/feed+json', file: 'feed.json', label: 'JSON Feed' },
} as const;
export type PublicFeedFormat = keyof typeof PUBLIC_FEEDS;

/** Path of a public digest's feed (API, no login), by the digest's share token. */
export const shareFeedPath = (shareToken: string, format: PublicFeedFormat) =>
  `${shareHtmlPath(shareToken)}/${PUBLIC_FEEDS[format].file}`;

/** Counts above 1,000 as K and above 1,000,000 as M, one decimal (docs/product.md §9): 1.5K, 12.3K, 2.5M. */
export function formatCount(value: number): string {
  const oneDecimal = (n: number) => (Math.round(n * 10) / 10).toFixed(1).replace(/\.0$/, '');
  // 999,950 would round to "1000K": it reads as 1M.
  if (value > 1_000_000 || (value > 1_000 && Math.round(value / 100) >= 10_000)) {
    return `${oneDecimal(value / 1_000_000)}M`;
  }
  if (value > 1_000) return `${oneDecimal(value / 1_000)}K`;
  return String(value);
}
