import { Body, Container, Head, Html, Preview, Section } from '@react-email/components';
import type { ReactNode } from 'react';
import { emailClass as c, emailTheme as t } from './theme';

export interface EmailLayoutProps {
  /** The document `<title>` (shown by some clients and by browsers for "view in browser"). */
  title: string;
  /** Preview line shown after the subject in inbox lists; left out of the text part. */
  preview?: string;
  /** Language of the mail, `en` unless told. */
  lang?: string;
  /** Content below the card: why the reader gets this mail, unsubscribe links, footnotes. */
  footer?: ReactNode;
  /** Extra CSS for the `<style>` block, for classes of one kind of mail (the digest's columns). */
  css?: string;
  children: ReactNode;
}

// React Email's <Body> draws its background on a cell inside <body>: the dark rule names that cell too.
const darkModeCss = `
:root { color-scheme: light dark; supported-color-schemes: light dark; }
img { max-width: 100%; height: auto; }
@media (prefers-color-scheme: dark) {
  .${c.body}, .${c.body} > table > tbody > tr > td { background-color: ${t.dark.page} !important; color: ${t.dark.text} !important; }
  .${c.card} { background-color: ${t.dark.card} !important; border-color: ${t.dark.border} !important; }
  .${c.heading}, .${c.text} { color: ${t.dark.text} !important; }
  .${c.muted}, .${c.footer}, .${c.footer} p { color: ${t.dark.muted} !important; }
  .${c.link} { color: ${t.dark.link} !important; }
  .${c.button} { background-color: ${t.dark.button} !important; color: ${t.dark.buttonText} !important; }
  .${c.rule} { border-color: ${t.dark.border} !important; }
  .${c.tile} { background-color: ${t.dark.tile} !important; }
  .${c.content}, .${c.content} p, .${c.content} li, .${c.content} td { color: ${t.dark.text} !important; }
  .${c.content} a { color: ${t.dark.link} !important; }
  .${c.error} { background-color: ${t.dark.errorBackground} !important; border-color: ${t.dark.errorBorder} !important; color: ${t.dark.errorText} !important; }
}
`;

/** Frame of every Digest e-mail: a centred card at most 600 px wide, light and dark themes, a footer slot. */
export function EmailLayout({ title, preview, lang = 'en', footer, css = '', children }: EmailLayoutProps) {
  return (
    <Html lang={lang} dir="ltr">
      <Head>
        <title>{title}</title>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <style>{darkModeCss + css}</style>
      </Head>
      <Body className={c.body} style={styles.body}>
        {preview ? <Preview>{preview}</Preview> : null}
        <Container style={styles.outer}>
          <Section className={c.card} style={styles.card}>
            {children}
          </Section>
          {footer ? (
            <Section className={c.footer} style={styles.footer}>
              {footer}
            </Section>
          ) : null}
        </Container>
      </Body>
    </Html>
  );
}

const styles = {
  body: {
    backgroundColor: t.light.page,
    color: t.light.text,
    fontFamily: t.fontFamily,
    margin: 0,
    padding: '24px 0',
  },
  outer: {
    maxWidth: `${t.maxWidth}px`,
    width: '100%',
    margin: '0 auto',
  },
  card: {
    backgroundColor: t.light.card,
    border: `1px solid ${t.light.border}`,
    borderRadius: '8px',
    padding: `${t.cardPadding}px`,
  },
  footer: {
    color: t.light.muted,
    fontSize: '12px',
    lineHeight: '18px',
    padding: '16px 32px',
    textAlign: 'center',
  },
} as const;
