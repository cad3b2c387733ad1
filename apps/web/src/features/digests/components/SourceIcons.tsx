import { type SourceType, sourceKinds } from '@digest/contracts';
import type { ReactNode } from 'react';
import styles from './SourceIcons.module.css';

/** The badge a kind's descriptor names (`icon.key`). */
type IconKey = (typeof sourceKinds)[SourceType]['icon']['key'];

interface Badge {
  label: string;
  /** A class of SourceIcons.module.css giving the badge its colour. */
  tone: string | undefined;
  glyph: ReactNode;
}

const TONES: Record<IconKey | 'other', string | undefined> = {
  weather: styles.weather,
  hackerNews: styles.hackerNews,
  date: styles.date,
  rss: styles.rss,
  newsletters: styles.newsletters,
  reddit: styles.reddit,
  calendar: styles.calendar,
  twitter: styles.twitter,
  youtube: styles.youtube,
  productHunt: styles.productHunt,
  stripe: styles.stripe,
  other: styles.other,
};

const calendarGlyph = (
  <>
    <rect x="4" y="5" width="16" height="15" rx="2" />
    <path d="M4 10h16M9 3v4M15 3v4" />
  </>
);

/** The glyph of each badge (icons are for display only and never stored). */
const GLYPHS: Record<IconKey, ReactNode> = {
  weather: (
    <>
      <circle cx="9" cy="9" r="3" />
      <path d="M9 2v1.5M2 9h1.5M4 4l1 1M14 4l-1 1" />
      <path d="M8 19h9a3.5 3.5 0 0 0 0-7 5 5 0 0 0-9.5 1.5A2.8 2.8 0 0 0 8 19z" />
    </>
  ),
  hackerNews: <path d="M7 5l5 7 5-7M12 12v7" />,
  date: (
    <>
      {calendarGlyph}
      <path d="M9 15h2" />
    </>
  ),
  rss: (
    <>
      <path d="M5 11a8 8 0 0 1 8 8M5 5a14 14 0 0 1 14 14" />
      <circle cx="6" cy="18" r="1" />
    </>
  ),
  newsletters: (
    <>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M3 7l9 6 9-6" />
    </>
  ),
  reddit: (
    <>
      <ellipse cx="12" cy="14" rx="7" ry="5" />
      <path d="M12 9l1.5-5 4 1" />
      <circle cx="18.5" cy="5" r="1" />
      <path d="M9.5 15.5c1.5 1 3.5 1 5 0" />
    </>
  ),
  calendar: (
    <>
      {calendarGlyph}
      <path d="M9 14.5l2 2 4-4" />
    </>
  ),
  twitter: <path d="M5 5l14 14M19 5L5 19" />,
  youtube: (
    <>
      <rect x="3" y="6" width="18" height="12" rx="4" />
      <path d="M10.5 9.5v5l4-2.5z" />
    </>
  ),
  productHunt: <path d="M9 19V5h4.5a3.5 3.5 0 0 1 0 7H9" />,
  stripe: (
    <path d="M16 7.5C15 6.5 13.6 6 12 6c-2.2 0-4 1-4 3 0 4.5 8 2.5 8 6.5 0 2-1.8 2.9-4 2.9-1.8 0-3.3-.6-4.3-1.6M12 3v3M12 18v3" />
  ),
};

const OTHER: Badge = { label: 'Source', tone: TONES.other, glyph: <circle cx="12" cy="12" r="4" /> };

/** The badge of a source type: its descriptor's icon, or a plain one for a type this app does not know. */
function badgeOf(type: string): Badge {
  if (!Object.hasOwn(sourceKinds, type)) return OTHER;
  const { key, label } = sourceKinds[type as SourceType].icon;
  return { label, tone: TONES[key], glyph: GLYPHS[key] };
}

export function SourceIcon({ type }: { type: string }) {
  const badge = badgeOf(type);
  return (
    <span className={`${styles.badge} ${badge.tone}`} title={badge.label}>
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
        {badge.glyph}
      </svg>
      <span className="visually-hidden">{badge.label}</span>
    </span>
  );
}

/** How many icons a card shows before '+N'. */
const MAX_ICONS = 6;

/**
 * The source icons of a digest or draft, one per source kind in the order they first appear. It takes the
 * kinds of the sources (one per source), which is all the digests list answers.
 */
export function SourceIcons({ sourceTypes }: { sourceTypes: readonly string[] }) {
  const types = [...new Set(sourceTypes.map((type) => badgeOf(type).label))].map(
    (label) => sourceTypes.find((type) => badgeOf(type).label === label) ?? '',
  );
  const shown = types.slice(0, MAX_ICONS);
  const hidden = types.length - shown.length;
  if (types.length === 0) return <p className={styles.none}>No sources yet</p>;
  return (
    <ul className={styles.list} aria-label={`Sources: ${sourceTypes.length}`}>
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
