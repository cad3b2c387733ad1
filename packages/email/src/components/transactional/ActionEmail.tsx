import { Heading, Hr, Link, Text } from '@react-email/components';
import type { ReactNode } from 'react';
import { EmailButton } from '../EmailButton';
import { EmailLayout } from '../EmailLayout';
import { LegalLine, type LegalLinks } from '../LegalLinks';
import { emailClass as c, emailTheme as t } from '../theme';

export interface EmailAction {
  /** Button text, e.g. "Reset password". */
  label: string;
  /** Absolute http(s) URL the button opens. */
  href: string;
}

export interface ActionEmailProps {
  /** Document title; usually the subject. */
  title: string;
  /** Preview line shown in inbox lists. */
  preview: string;
  heading: string;
  /** Body paragraphs, plain text (escaped, never HTML). */
  paragraphs: readonly string[];
  /** The button; a mail with nothing to open (a private digest's notice) has none. */
  action?: EmailAction | undefined;
  /** Small print below the action, e.g. "This link expires in one hour." */
  footnote?: string;
  /** Content of the layout's footer slot, above the legal links. */
  footer?: ReactNode;
  /** The Terms of Service and Privacy Policy, linked at the end of the footer. */
  legal: LegalLinks;
}

/**
 * A transactional mail that asks the reader to do one thing: password reset, share invitation, … .
 * The action URL appears as a button and, for clients that block buttons, as a plain link.
 */
export function ActionEmail({
  title,
  preview,
  heading,
  paragraphs,
  action,
  footnote,
  footer,
  legal,
}: ActionEmailProps) {
  const href = action && assertWebUrl(action.href);
  return (
    <EmailLayout
      title={title}
      preview={preview}
      footer={
        <>
          {footer}
          <LegalLine links={legal} />
        </>
      }
    >
      <Heading as="h1" className={c.heading} style={styles.heading}>
        {heading}
      </Heading>
      {paragraphs.map((paragraph, index) => (
        // Paragraphs are static text in a fixed order, so their position is a stable key.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Text key={index} className={c.text} style={styles.text}>
          {paragraph}
        </Text>
      ))}
      {action && href ? (
        <>
          <div style={styles.action}>
            <EmailButton href={href}>{action.label}</EmailButton>
          </div>
          {/* The text part already carries the URL next to the button label. */}
          <Text className={c.muted} style={styles.fallback} data-skip-in-text="true">
            If the button does not work, copy this link into your browser:{' '}
            <Link href={href} className={c.link} style={styles.link}>
              {href}
            </Link>
          </Text>
        </>
      ) : null}
      {footnote ? (
        <>
          <Hr className={c.rule} style={styles.rule} />
          <Text className={c.muted} style={styles.small}>
            {footnote}
          </Text>
        </>
      ) : null}
    </EmailLayout>
  );
}

/** Only absolute http(s) URLs may become links: never `javascript:`, `data:` or relative paths. */
function assertWebUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError('ActionEmail: action.href must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError('ActionEmail: action.href must be an absolute http(s) URL');
  }
  return value;
}

const styles = {
  heading: {
    color: t.light.text,
    fontSize: '24px',
    fontWeight: 700,
    lineHeight: '32px',
    margin: '0 0 16px',
  },
  text: {
    color: t.light.text,
    fontSize: '16px',
    lineHeight: '24px',
    margin: '0 0 16px',
  },
  action: {
    margin: '24px 0',
  },
  small: {
    color: t.light.muted,
    fontSize: '13px',
    lineHeight: '20px',
    margin: '0 0 8px',
  },
  fallback: {
    color: t.light.muted,
    fontSize: '13px',
    lineHeight: '20px',
    margin: '0 0 8px',
    wordBreak: 'break-all',
  },
  link: {
    color: t.light.link,
    textDecoration: 'underline',
  },
  rule: {
    borderColor: t.light.border,
    margin: '24px 0 16px',
  },
} as const;
