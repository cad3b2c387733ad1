import { emailClass as c, emailTheme as t } from '../components/theme';
import type { RenderedEmail } from '../render';
import { safeHref } from './html';

/**
 * What only the owner's copy of an issue shows (the link that fixes a failing source, issue 17): the
 * issue is rendered once for every recipient, so it goes between these markers, which `personalizeDigest`
 * keeps for the owner and drops with what they hold for everyone else. They are rendered as text, so the
 * text part carries them too; in the HTML they become comments, which sanitised source HTML never has.
 */
export const OWNER_ONLY_MARKERS = {
  start: { text: '[digest:owner-only]', html: '<!--digest:owner-only-->' },
  end: { text: '[digest:/owner-only]', html: '<!--digest:/owner-only-->' },
} as const;

const { start, end } = OWNER_ONLY_MARKERS;

/** The owner's link to fix a failing source, under its notice. */
export function OwnerFix({ fix }: { fix: { label: string; href: string } }) {
  const href = safeHref(fix.href);
  if (!href) return null;
  return (
    <p style={{ fontSize: '14px', lineHeight: '20px', margin: '0 0 8px' }}>
      {start.text}
      <a href={href} className={c.link} style={{ color: t.light.link }}>
        {fix.label}
      </a>
      {end.text}
    </p>
  );
}

/** The rendered issue's HTML with the owner-only markers as comments (the text part keeps them as text). */
export function markOwnerOnly(html: string): string {
  return html.replaceAll(start.text, start.html).replaceAll(end.text, end.html);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const regionOf = (marker: { start: string; end: string }) =>
  new RegExp(`${escapeRegExp(marker.start)}[\\s\\S]*?${escapeRegExp(marker.end)}`, 'g');
const HTML_REGION = regionOf({ start: start.html, end: end.html });
const TEXT_REGION = regionOf({ start: start.text, end: end.text });
const withoutMarkers = (text: string, marker: { start: string; end: string }) =>
  text.replaceAll(marker.start, '').replaceAll(marker.end, '');

/**
 * A recipient's copy: the owner's keeps what the markers hold (without them); anyone else's loses it. A
 * marker left alone (a source's text that happened to spell one) is removed either way.
 */
export function ownerOnlyFor(rendered: RenderedEmail, owner: boolean): RenderedEmail {
  const html = owner ? rendered.html : rendered.html.replace(HTML_REGION, '');
  const text = owner ? rendered.text : rendered.text.replace(TEXT_REGION, '');
  return {
    html: withoutMarkers(html, { start: start.html, end: end.html }),
    text: withoutMarkers(text, { start: start.text, end: end.text }),
  };
}
