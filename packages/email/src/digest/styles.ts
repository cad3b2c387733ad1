import { emailClass as c, emailTheme as t } from '../components/theme';

/** Width of the card's content, the widest a picture may be in a one-column block. */
export const CONTENT_WIDTH = t.maxWidth - 2 * t.cardPadding;
const COLUMN_GAP = 16;
/** Width of one cell of a two-column block. */
export const COLUMN_WIDTH = (CONTENT_WIDTH - COLUMN_GAP) / 2;
/** No picture in a digest is wider than this (docs/design.md §8: images at most 600 px). */
export const MAX_IMAGE_WIDTH = t.maxWidth;

/**
 * The digest's own CSS, added to the layout's: under 600 px the two columns stack into one, the five days
 * of a forecast wrap three to a line (a weekday name does not fit a fifth of a phone) and the card loses
 * some padding. Clients without media queries keep the desktop layout.
 */
export const digestCss = `
@media only screen and (max-width: 600px) {
  .${c.card} { padding: 20px !important; }
  .${c.column} { display: block !important; width: 100% !important; padding-left: 0 !important; padding-right: 0 !important; }
  .${c.forecast} .${c.tile} { display: inline-block !important; box-sizing: border-box; width: 31% !important; margin: 0 1% 8px !important; vertical-align: top; }
}
`;

export const blockStyles = {
  block: { margin: '0 0 32px' },
  heading: {
    color: t.light.text,
    fontSize: '20px',
    fontWeight: 700,
    lineHeight: '28px',
    margin: '0 0 4px',
  },
  headingIcon: { verticalAlign: 'middle', marginRight: '8px', border: 0, maxWidth: '100%' },
  subtitle: { color: t.light.muted, fontSize: '13px', lineHeight: '18px', margin: '0 0 12px' },
  headingRule: { height: '12px' },
  item: { margin: '0 0 20px' },
  columns: { width: '100%', borderCollapse: 'collapse' },
  columnLeft: { width: '50%', verticalAlign: 'top', padding: `0 ${COLUMN_GAP / 2}px 20px 0` },
  columnRight: { width: '50%', verticalAlign: 'top', padding: `0 0 20px ${COLUMN_GAP / 2}px` },
  title: { color: t.light.text, fontSize: '16px', fontWeight: 600, lineHeight: '22px', margin: '0 0 4px' },
  titleLink: { color: t.light.link, textDecoration: 'none' },
  text: { color: t.light.text, fontSize: '15px', lineHeight: '22px', margin: '0 0 4px' },
  meta: { color: t.light.muted, fontSize: '13px', lineHeight: '18px', margin: '0 0 4px' },
  content: {
    color: t.light.text,
    fontSize: '15px',
    lineHeight: '22px',
    margin: '4px 0',
    overflowWrap: 'anywhere',
  },
  image: {
    display: 'block',
    maxWidth: '100%',
    height: 'auto',
    border: 0,
    borderRadius: '6px',
    margin: '0 0 8px',
  },
  empty: { color: t.light.muted, fontSize: '14px', lineHeight: '20px', margin: 0, fontStyle: 'italic' },
  error: {
    backgroundColor: t.light.errorBackground,
    border: `1px solid ${t.light.errorBorder}`,
    borderRadius: '6px',
    color: t.light.errorText,
    fontSize: '14px',
    lineHeight: '20px',
    margin: '0 0 8px',
    padding: '8px 12px',
  },
  tile: {
    backgroundColor: t.light.tile,
    borderRadius: '6px',
    padding: '8px',
    textAlign: 'center',
    verticalAlign: 'top',
  },
} as const;
