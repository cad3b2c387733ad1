import type { ReactNode } from 'react';
import type { Source } from '../api/schemas';
import styles from './SourceIcons.module.css';

interface SourceKind {
  label: string;
  /** A class of SourceIcons.module.css giving the badge its colour. */
  tone: keyof typeof TONES;
  glyph: ReactNode;
}

const TONES = {
  weather: styles.weather,
  hackerNews: styles.hackerNews,
  date: styles.date,
  rss: styles.rss,
  reddit: styles.reddit,
  calendar: styles.calendar,
  twitter: styles.twitter,
  youtube: styles.youtube,
  productHunt: styles.productHunt,
  stripe: styles.stripe,
  other: styles.other,
} as const;

const twitterGlyph = <path d="M5 5l14 14M19 5L5 19" />;
const calendarGlyph = (
  <>
    <rect x="4" y="5" width="16" height="15" rx="2" />
    <path d="M4 10h16M9 3v4M15 3v4" />
  </>
);

/** Each source type of SPEC §3 and its icon (icons are for display only and never stored). */
export const SOURCE_KINDS: Record<string, SourceKind> = {
  WEATHER: {
    label: 'Weather',
    tone: 'weather',
    glyph: (
      <>
        <circle cx="9" cy="9" r="3" />
        <path d="M9 2v1.5M2 9h1.5M4 4l1 1M14 4l-1 1" />
        <path d="M8 19h9a3.5 3.5 0 0 0 0-7 5 5 0 0 0-9.5 1.5A2.8 2.8 0 0 0 8 19z" />
      </>
    ),
  },
  HACKER_NEWS: { label: 'Hacker News', tone: 'hackerNews', glyph: <path d="M7 5l5 7 5-7M12 12v7" /> },
  DATE: {
    label: "Today's date",
    tone: 'date',
    glyph: (
      <>
        {calendarGlyph}
        <path d="M9 15h2" />
      </>
    ),
  },
  "TODAY'S_DATE": { label: "Today's date", tone: 'date', glyph: calendarGlyph },
  RSS: {
    label: 'RSS feed',
    tone: 'rss',
    glyph: (
      <>
        <path d="M5 11a8 8 0 0 1 8 8M5 5a14 14 0 0 1 14 14" />
        <circle cx="6" cy="18" r="1" />
      </>
    ),
  },
  REDDIT: {
    label: 'Reddit',
    tone: 'reddit',
    glyph: (
      <>
        <ellipse cx="12" cy="14" rx="7" ry="5" />
        <path d="M12 9l1.5-5 4 1" />
        <circle cx="18.5" cy="5" r="1" />
        <path d="M9.5 15.5c1.5 1 3.5 1 5 0" />
      </>
    ),
  },
  GOOGLE_CALENDAR: {
    label: 'Google Calendar',
    tone: 'calendar',
    glyph: (
      <>
        {calendarGlyph}
        <path d="M9 14.5l2 2 4-4" />
      </>
    ),
  },
  TWITTER_TWEETS: { label: 'Tweets', tone: 'twitter', glyph: twitterGlyph },
  TWITTER_TIMELINE: { label: 'Twitter timeline', tone: 'twitter', glyph: twitterGlyph },
  TWITTER_SEARCH: { label: 'Twitter search', tone: 'twitter', glyph: twitterGlyph },
  TWITTER_LIST: { label: 'Twitter list', tone: 'twitter', glyph: twitterGlyph },
  YOUTUBE: {
    label: 'YouTube',
    tone: 'youtube',
    glyph: (
      <>
        <rect x="3" y="6" width="18" height="12" rx="4" />
        <path d="M10.5 9.5v5l4-2.5z" />
      </>
    ),
  },
  PRODUCT_HUNT: {
    label: 'Product Hunt',
    tone: 'productHunt',
    glyph: <path d="M9 19V5h4.5a3.5 3.5 0 0 1 0 7H9" />,
  },
  STRIPE: {
    label: 'Stripe',
    tone: 'stripe',
    glyph: (
      <path d="M16 7.5C15 6.5 13.6 6 12 6c-2.2 0-4 1-4 3 0 4.5 8 2.5 8 6.5 0 2-1.8 2.9-4 2.9-1.8 0-3.3-.6-4.3-1.6M12 3v3M12 18v3" />
    ),
  },
};

const OTHER: SourceKind = { label: 'Source', tone: 'other', glyph: <circle cx="12" cy="12" r="4" /> };

export function sourceKind(type: string): SourceKind {
  return SOURCE_KINDS[type] ?? OTHER;
}

export function SourceIcon({ type }: { type: string }) {
  const kind = sourceKind(type);
  return (
    <span className={`${styles.badge} ${TONES[kind.tone]}`} title={kind.label}>
      <svg
        viewBox="0 0 24 24"
        width="16"
        height="16"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        {kind.glyph}
      </svg>
      <span className="visually-hidden">{kind.label}</span>
    </span>
  );
}

/** How many icons a card shows before '+N'. */
const MAX_ICONS = 6;

/** The source icons of a digest or draft, one per source kind in the order they first appear. */
export function SourceIcons({ sources }: { sources: readonly Source[] }) {
  const types = [...new Set(sources.map((source) => sourceKind(source.type).label))].map(
    (label) => sources.find((source) => sourceKind(source.type).label === label)?.type ?? '',
  );
  const shown = types.slice(0, MAX_ICONS);
  const hidden = types.length - shown.length;
  if (types.length === 0) return <p className={styles.none}>No sources yet</p>;
  return (
    <ul className={styles.list} aria-label={`Sources: ${sources.length}`}>
      {shown.map((type) => (
        <li key={type}>
          <SourceIcon type={type} />
        </li>
      ))}
      {hidden > 0 ? (
        <li className={styles.more} aria-label={`${hidden} more`}>
          +{hidden}
        </li>
      ) : null}
    </ul>
  );
}
