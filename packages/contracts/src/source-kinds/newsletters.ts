import * as z from 'zod/mini';
import { common, count, inputSchema } from './fields';
import { listItems, type SourceKind } from './source-kind';

/** One newsletter of the user's mailbox, as a digest block shows it. */
export interface NewsletterItem {
  messageId: string;
  subject: string;
  senderName: string;
  fromAddress: string;
  /** ISO 8601: when the mailbox received it. */
  receivedAt: string;
  /** The first words of its text. */
  excerpt: string;
  /** Its page in the app (`newsletterPageUrl`), where the whole issue is read. */
  url: string;
  /** Layout 'full': the stored sanitised HTML; '' in 'summary', for a text-only message, or when `tooLong`. */
  html: string;
  /** Layout 'full' and a message without HTML: its text; '' otherwise. */
  text: string;
  /** Layout 'full': the issue did not fit in the e-mail, so the block shows its excerpt and link instead. */
  tooLong: boolean;
}

export interface NewslettersContent {
  items: NewsletterItem[];
}

export const NEWSLETTER_LAYOUTS = ['full', 'summary'] as const;
export type NewsletterLayout = (typeof NEWSLETTER_LAYOUTS)[number];

/** The builder's words for the layouts, in the order it shows them. */
export const NEWSLETTER_LAYOUT_OPTIONS = [
  { value: 'summary', label: 'Title, sender and excerpt' },
  { value: 'full', label: 'Whole issue' },
] as const;

/** Chosen senders a block may name (a mailbox has a few dozen at most). */
export const NEWSLETTER_SENDERS_MAX = 100;

/** A newsletter's page in the app, where a digest's "Read in Digest" link leads. */
export const newsletterPageUrl = (origin: string, messageId: string) => `${origin}/newsletters/${messageId}`;

const LABEL = 'Newsletters';
const COUNT = { min: 1, max: 20, default: 5 } as const;

const SENDERS_MESSAGE = "Senders must be 'all' or a list of chosen senders";

const newslettersShape = {
  type: z.literal('NEWSLETTERS'),
  ...common(LABEL),
  /** 'all': every sender whose state is `included`; else the chosen senders (by id) that are not muted or blocked. */
  senders: z._default(
    z.union(
      [
        z.literal('all'),
        z
          .array(z.uuid({ error: 'Each chosen sender must be a sender id' }), { error: SENDERS_MESSAGE })
          .check(
            z.minLength(1, { error: 'Choose at least one sender, or all senders' }),
            z.maxLength(NEWSLETTER_SENDERS_MAX, {
              error: `Choose at most ${NEWSLETTER_SENDERS_MAX} senders, or all senders`,
            }),
          ),
      ],
      { error: SENDERS_MESSAGE },
    ),
    'all',
  ),
  count: count(COUNT.max, COUNT.default, 'Number of newsletters', COUNT.min),
  layout: z._default(
    z.enum(NEWSLETTER_LAYOUTS, { error: "Layout must be 'full' (whole issue) or 'summary'" }),
    'summary',
  ),
};

/** A sender chosen twice is kept once. */
export const newslettersSourceSchema = inputSchema(newslettersShape, (settings) =>
  Array.isArray(settings.senders) ? { ...settings, senders: [...new Set(settings.senders)] } : settings,
);
export type NewslettersSource = z.output<typeof newslettersSourceSchema>;

export const newslettersKind = {
  type: 'NEWSLETTERS',
  label: LABEL,
  schema: newslettersSourceSchema,
  storedSchema: z.object(newslettersShape),
  category: 'news',
  popular: false,
  dataPath: null,
  accountProvider: null,
  // The user's own mail: a public page shows how many, never what (docs/design.md §10).
  readsPrivateData: true,
  searched: false,
  count: COUNT,
  icon: { key: 'newsletters', label: 'Newsletters' },
  title: () => LABEL,
  hasNews: (content) => content.items.length > 0,
  items: listItems<NewslettersContent>('items'),
  publicSummary: (content) =>
    `${content.items.length} ${content.items.length === 1 ? 'newsletter' : 'newsletters'}`,
} as const satisfies SourceKind<NewslettersContent, NewslettersSource>;
