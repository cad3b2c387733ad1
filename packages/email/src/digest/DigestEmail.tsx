import { CATCH_UP_TITLE } from '@digest/contracts';
import { Fragment, type ReactNode } from 'react';
import { EmailButton } from '../components/EmailButton';
import { EmailLayout } from '../components/EmailLayout';
import { emailClass as c, emailTheme as t } from '../components/theme';
import { formatIssueDate, formatShortDate } from './format';
import type { IssueBlock } from './items';
import { SourceBlock } from './SourceBlock';
import { digestCss } from './styles';
import { blockTitle } from './titles';
import type { DigestBlockInput } from './types';

export interface DigestEmailProps {
  digestName: string;
  issueNumber: number;
  /** When the issue was built; shown as a date in the owner's zone and locale. */
  date: Date;
  timeZone: string;
  locale: string;
  /** The issue's public page: "View in browser" and "Continue reading"; none while the digest is private. */
  publicUrl?: string | undefined;
  blocks: readonly (DigestBlockInput | IssueBlock)[];
  /** A resume's catch-up issue: marked "While you were away", with the time it covers. */
  catchUp?: { since: Date; until: Date } | undefined;
  /** Set when items were left out to fit an e-mail: a "Continue reading" button follows the blocks. */
  truncated?: boolean;
  /** The layout's footer slot (the recipient's footer, or its marker). */
  footer?: ReactNode;
  /**
   * Each block as an empty `<div data-digest-block="index">` for the caller to replace with the block's own
   * HTML (`renderDigestEmail` renders identical blocks once per burst, see `BlockHtmlCache`).
   */
  blockPlaceholders?: boolean;
}

const PREVIEW_TITLES = 4;

/** The inbox preview line: the issue's number (and mark) and its first blocks. */
function previewOf(issueNumber: number, blocks: readonly DigestBlockInput[], catchUp: boolean): string {
  const titles = blocks.slice(0, PREVIEW_TITLES).map(blockTitle).filter(Boolean);
  const mark = catchUp ? CATCH_UP_TITLE : '';
  return [mark, `Issue #${issueNumber}`, titles.join(', ')].filter(Boolean).join(' · ');
}

/** A digest issue as one e-mail: header (name, date, number, view in browser), the blocks in order, a footer. */
export function DigestEmail(props: DigestEmailProps) {
  const { digestName, issueNumber, date, timeZone, locale, publicUrl, blocks, truncated, footer } = props;
  const { blockPlaceholders, catchUp } = props;
  const context = { locale, timeZone };
  return (
    <EmailLayout
      title={digestName}
      preview={previewOf(issueNumber, blocks, catchUp !== undefined)}
      lang={locale.split('-')[0] || 'en'}
      css={digestCss}
      footer={footer}
    >
      <p className={c.muted} style={styles.dateline}>
        {formatIssueDate(date, context)} · Issue #{issueNumber}
      </p>
      <h1 className={c.heading} style={styles.title}>
        {digestName}
      </h1>
      {publicUrl ? (
        <p style={styles.viewInBrowser}>
          <a href={publicUrl} className={c.link} style={styles.link}>
            View in browser
          </a>
        </p>
      ) : null}
      <hr className={c.rule} style={styles.rule} />
      {catchUp ? (
        <div style={styles.catchUp}>
          <h2 className={c.heading} style={styles.catchUpTitle}>
            {CATCH_UP_TITLE}
          </h2>
          <p className={c.muted} style={styles.small}>
            {`What came while this Digest was paused, ${formatShortDate(catchUp.since.toISOString(), context)} – ${formatShortDate(catchUp.until.toISOString(), context)}. The next issue comes at its usual time.`}
          </p>
        </div>
      ) : null}
      {blocks.map((block, index) => (
        // Blocks are the digest's sources in their saved order; the same source may appear twice.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Fragment key={index}>
          {blockPlaceholders ? (
            <div data-digest-block={index} />
          ) : (
            <SourceBlock block={block} context={context} cut={'cut' in block ? block.cut : undefined} />
          )}
        </Fragment>
      ))}
      {truncated ? (
        <div style={styles.continue}>
          <p className={c.muted} style={styles.small}>
            This issue is longer than an e-mail can hold.
          </p>
          {publicUrl ? <EmailButton href={publicUrl}>Continue reading</EmailButton> : null}
        </div>
      ) : null}
    </EmailLayout>
  );
}

const styles = {
  dateline: { color: t.light.muted, fontSize: '13px', lineHeight: '18px', margin: '0 0 4px' },
  title: { color: t.light.text, fontSize: '28px', fontWeight: 700, lineHeight: '36px', margin: '0 0 4px' },
  viewInBrowser: { fontSize: '13px', lineHeight: '18px', margin: '0 0 16px' },
  link: { color: t.light.link },
  rule: { border: 0, borderTop: `1px solid ${t.light.border}`, margin: '0 0 24px' },
  continue: { textAlign: 'center', margin: '8px 0 0' },
  catchUp: { margin: '0 0 24px' },
  catchUpTitle: {
    color: t.light.text,
    fontSize: '20px',
    fontWeight: 700,
    lineHeight: '28px',
    margin: '0 0 4px',
  },
  small: { color: t.light.muted, fontSize: '14px', lineHeight: '20px', margin: '0 0 12px' },
} as const;
