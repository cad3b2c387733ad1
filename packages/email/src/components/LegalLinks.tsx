import { emailClass as c, emailTheme as t } from './theme';

/** Absolute URLs of the Terms of Service and the Privacy Policy: the app's pages or the operator's. */
export interface LegalLinks {
  termsUrl: string;
  privacyUrl: string;
}

const style = { color: t.light.muted, margin: '8px 0 0' };
const linkStyle = { color: t.light.link };

/** The last line of every mail's footer: the two legal texts the reader agreed to or may ask about. */
export function LegalLine({ links }: { links: LegalLinks }) {
  return (
    <p className={c.muted} style={style}>
      <a href={links.termsUrl} className={c.link} style={linkStyle}>
        Terms of Service
      </a>
      {' · '}
      <a href={links.privacyUrl} className={c.link} style={linkStyle}>
        Privacy Policy
      </a>
    </p>
  );
}

/** The same line in a mail's text part. */
export function legalLineText(links: LegalLinks): string {
  return `Terms of Service: ${links.termsUrl}\nPrivacy Policy: ${links.privacyUrl}`;
}
