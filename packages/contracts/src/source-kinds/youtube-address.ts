/**
 * A YouTube address pasted instead of a search phrase: the channel it names, or the page on youtube.com
 * that names it. Channel feeds need no API key, so a server without one can still add any channel whose
 * address the user has. The web app sends a phrase only when it is an address; the server resolves it.
 */
export type YoutubeAddress =
  /** `/channel/UC…`: the id itself. */
  | { kind: 'channel'; channelId: string }
  /** `/@handle`, `/c/name`, `/user/name` or a video: a page whose HTML names the channel's id. */
  | { kind: 'page'; path: string };

const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
const HANDLE = /^@[A-Za-z0-9._-]{3,30}$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com']);

function urlOf(text: string): URL | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  try {
    const url = new URL(withScheme);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/** The channel or page a pasted text names, or null when it is not a YouTube address (a search phrase). */
export function youtubeAddressOf(input: string): YoutubeAddress | null {
  const text = input.trim();
  if (HANDLE.test(text)) return { kind: 'page', path: `/${text}` };
  if (CHANNEL_ID.test(text)) return { kind: 'channel', channelId: text };
  if (!/[./]/.test(text)) return null;
  const url = urlOf(text);
  if (!url) return null;
  const host = url.hostname.toLowerCase();
  const [first = '', second = ''] = url.pathname.split('/').filter(Boolean);
  if (host === 'youtu.be') return VIDEO_ID.test(first) ? { kind: 'page', path: `/watch?v=${first}` } : null;
  if (!HOSTS.has(host)) return null;
  if (first === 'channel' && CHANNEL_ID.test(second)) return { kind: 'channel', channelId: second };
  if (HANDLE.test(decodeURIComponent(first))) return { kind: 'page', path: `/${decodeURIComponent(first)}` };
  if ((first === 'c' || first === 'user') && NAME.test(second))
    return { kind: 'page', path: `/${first}/${second}` };
  const video =
    first === 'watch'
      ? (url.searchParams.get('v') ?? '')
      : first === 'shorts' || first === 'live'
        ? second
        : '';
  return VIDEO_ID.test(video) ? { kind: 'page', path: `/watch?v=${video}` } : null;
}
