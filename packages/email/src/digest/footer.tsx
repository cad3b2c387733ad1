import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { LegalLine, type LegalLinks, legalLineText } from '../components/LegalLinks';
import { emailClass as c, emailTheme as t } from '../components/theme';
import type { RenderedEmail } from '../render';
import { ownerOnlyFor } from './owner-only';

/**
 * An issue is rendered once and sent to every recipient: the part that differs per recipient (why they
 * get it, how to stop) replaces a marker at delivery. The HTML marker is a comment, which no source can
 * produce (React escapes text and sanitised HTML has no comments); the text marker is a line of its own.
 */
export const RECIPIENT_FOOTER_MARKER = {
  html: '<!--digest:recipient-footer-->',
  text: '[digest:recipient-footer]',
} as const;

/**
 * Room kept for the recipient's footer under the size limit: `recipientFooter` stays below it, with the
 * longest legal links the server's configuration accepts (300 characters each, escaped).
 */
export const RECIPIENT_FOOTER_MAX_BYTES = 5_000;

/** Long owner names are cut, so the footer keeps under its room. */
const OWNER_NAME_MAX = 80;

export type FooterRecipient =
  | { kind: 'owner'; appDigestUrl: string }
  | { kind: 'subscriber'; ownerName: string; unsubscribeUrl: string };

function shortName(name: string): string {
  const trimmed = name.trim() || 'Someone';
  return trimmed.length > OWNER_NAME_MAX ? `${trimmed.slice(0, OWNER_NAME_MAX - 1)}…` : trimmed;
}

const style = { color: t.light.muted, margin: 0 };
const linkStyle = { color: t.light.link };

/**
 * The footer of one recipient's copy, as HTML (escaped by React) and text: why they get it, what they can
 * do, and the legal texts. It is added at delivery, so the links are the server's at the time of sending.
 */
export function recipientFooter(recipient: FooterRecipient, legal: LegalLinks): RenderedEmail {
  const withLegal = (why: ReactNode, text: string): RenderedEmail => ({
    html: renderToStaticMarkup(
      <>
        {why}
        <LegalLine links={legal} />
      </>,
    ),
    text: `${text}\n${legalLineText(legal)}`,
  });
  if (recipient.kind === 'owner') {
    return withLegal(
      <p className={c.muted} style={style}>
        This is your Digest.{' '}
        <a href={recipient.appDigestUrl} className={c.link} style={linkStyle}>
          Edit it in Digest
        </a>
      </p>,
      `This is your Digest. Edit it in Digest: ${recipient.appDigestUrl}`,
    );
  }
  const sentence = `You receive this because you subscribed to ${shortName(recipient.ownerName)}'s Digest.`;
  return withLegal(
    <p className={c.muted} style={style}>
      {sentence}{' '}
      <a href={recipient.unsubscribeUrl} className={c.link} style={linkStyle}>
        Unsubscribe
      </a>
    </p>,
    `${sentence}\nUnsubscribe: ${recipient.unsubscribeUrl}`,
  );
}

/** `text` with its last `marker` replaced (sources' text comes before the footer, so the last one is ours). */
function replaceLast(text: string, marker: string, replacement: string): string {
  const at = text.lastIndexOf(marker);
  return at < 0 ? text : text.slice(0, at) + replacement + text.slice(at + marker.length);
}

/** The rendered issue's HTML with the footer's place (the text marker the layout rendered) as the HTML marker. */
export function markRecipientFooter(html: string): string {
  return replaceLast(html, RECIPIENT_FOOTER_MARKER.text, RECIPIENT_FOOTER_MARKER.html);
}

/**
 * One recipient's copy of a rendered issue: their footer where the markers are, and what only the owner's
 * copy shows (links to fix a failing source) kept for the owner only.
 */
export function personalizeDigest(
  rendered: RenderedEmail,
  footer: RenderedEmail,
  recipient: { owner: boolean } = { owner: false },
): RenderedEmail {
  const body = ownerOnlyFor(rendered, recipient.owner);
  return {
    html: replaceLast(body.html, RECIPIENT_FOOTER_MARKER.html, footer.html),
    text: replaceLast(body.text, RECIPIENT_FOOTER_MARKER.text, footer.text),
  };
}

/** The issue for its public page: no recipient, so no footer. */
export function withoutRecipientFooter(rendered: RenderedEmail): RenderedEmail {
  return personalizeDigest(rendered, { html: '', text: '' });
}
