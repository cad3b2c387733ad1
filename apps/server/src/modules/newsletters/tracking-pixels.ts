import { DomUtils, parseDocument } from 'htmlparser2';

/**
 * Open-tracking images: loading one tells the sender that (and when, and from where) the reader opened
 * the issue. They are dropped before the HTML is sanitised, since the sanitiser removes the styles that
 * hide many of them, after which they could no longer be told from real images.
 */

/** At most this many pixels wide or high: no picture, only a beacon or a spacer. */
const TINY_PIXELS = 3;

/** Hosts and paths of the common senders' open beacons (Mailchimp, SendGrid, Substack, ConvertKit, HubSpot, …). */
const TRACKER_HOST =
  /^(open|opens|eotrx|track|tracking|pixel|trk|click)\.|(^|\.)(mailtrack\.io|hubspotemail\.net)$/i;
const TRACKER_PATH =
  /(^|\/)(track\/open|wf\/open|e\/o|open|opened|pixel|beacon|o\.gif|t\.gif|p\.gif|open\.(gif|png|jpg|php|aspx))(\.[a-z]+)?(\/|$)/i;

function pixels(value: string | undefined): number | undefined {
  const match = value && /^\s*(\d+(\.\d+)?)\s*(px)?\s*$/i.exec(value);
  return match ? Number(match[1]) : undefined;
}

function styleValue(style: string, property: string): string | undefined {
  const match = new RegExp(`(?:^|;)\\s*${property}\\s*:\\s*([^;]+)`, 'i').exec(style);
  return match?.[1]?.replace(/!important/i, '').trim();
}

function isHidden(attribs: Record<string, string>): boolean {
  if ('hidden' in attribs) return true;
  const style = attribs.style ?? '';
  if (/display\s*:\s*none|visibility\s*:\s*hidden|opacity\s*:\s*0(\.0*)?\s*(;|$|!)/i.test(style)) return true;
  const maxHeight = pixels(styleValue(style, 'max-height'));
  const maxWidth = pixels(styleValue(style, 'max-width'));
  return maxHeight === 0 || maxWidth === 0;
}

function isTiny(attribs: Record<string, string>): boolean {
  const style = attribs.style ?? '';
  const sizes = [
    pixels(attribs.width),
    pixels(attribs.height),
    pixels(styleValue(style, 'width')),
    pixels(styleValue(style, 'height')),
  ];
  return sizes.some((size) => size !== undefined && size <= TINY_PIXELS);
}

function isTrackerUrl(src: string | undefined): boolean {
  if (!src) return false;
  let url: URL;
  try {
    url = new URL(src.trim());
  } catch {
    return false;
  }
  return TRACKER_HOST.test(url.hostname) || TRACKER_PATH.test(url.pathname);
}

/** Whether an `<img>` with these attributes is an open-tracking pixel rather than a picture. */
export function isTrackingPixel(attribs: Record<string, string>): boolean {
  return isHidden(attribs) || isTiny(attribs) || isTrackerUrl(attribs.src);
}

/** `html` without its tracking pixels; everything else is left as it was, for the sanitiser to judge. */
export function dropTrackingPixels(html: string): string {
  // Entities are left encoded both ways, so the text reaches the sanitiser exactly as it was sent.
  const document = parseDocument(html, { decodeEntities: false });
  const images = DomUtils.findAll(
    (element) => element.name === 'img' && isTrackingPixel(element.attribs),
    document.children,
  );
  if (images.length === 0) return html;
  for (const image of images) DomUtils.removeElement(image);
  return DomUtils.getOuterHTML(document, { decodeEntities: false });
}
