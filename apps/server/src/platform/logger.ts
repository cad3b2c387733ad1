import pino, { type Logger } from 'pino';

export type { Logger };

/** Paths that may carry secrets; pino replaces them before anything is written. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.oldPassword',
  '*.accessToken',
  '*.refreshToken',
  '*.token',
  '*.secret',
];

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
}

/**
 * Path segments that are secrets by where they stand: the segment after one of these words is a token
 * (unsubscribe and subscription links, share links, invitations, address verifications, resets, tickets).
 * A pattern over every path, not a list of routes, so a new route that names its token this way is
 * covered without touching the logger: `/api/subscriptions/{token}`, `/unsubscribe/{token}`,
 * `/digests/share/{token}`, `/invitations/{token}/accept`, `/verify-email/{token}`.
 */
const SECRET_AFTER =
  /^(share|shared|subscriptions?|unsubscribe|invit(e|es|ation|ations)|verif(y|y-email|ication|ications)|confirm(-email)?|reset(-password)?|tickets?)$/i;

/**
 * Any other segment that looks like a random token (32+ URL-safe characters, as `randomToken()` makes)
 * is one, wherever it stands. Ids (UUIDs) and file names (a dot) stay readable: they are not secrets.
 */
const TOKEN_LIKE = /^[A-Za-z0-9_-]{32,}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const REDACTED = '[redacted]';

/** `pathname` with every secret segment replaced; the route stays readable. */
export function redactPath(pathname: string): string {
  const segments = pathname.split('/');
  return segments
    .map((segment, index) => {
      const previous = segments[index - 1] ?? '';
      if (segment && SECRET_AFTER.test(safeDecode(previous))) return REDACTED;
      const decoded = safeDecode(segment);
      return TOKEN_LIKE.test(decoded) && !UUID.test(decoded) ? REDACTED : segment;
    })
    .join('/');
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * How a request appears in the log, the one place a URL is written. Query strings carry reset tokens,
 * OAuth codes, states and tickets: their names are kept, their values never written; paths lose their
 * secret segments (`redactPath`).
 */
export function requestSerializer(request: LoggedRequest) {
  const [pathname = '', query] = request.url.split('?');
  const names = query ? [...new URLSearchParams(query).keys()] : [];
  const path = redactPath(pathname);
  return {
    method: request.method,
    url: names.length ? `${path}?${names.map((name) => `${name}=${REDACTED}`).join('&')}` : path,
    host: request.host,
    remoteAddress: request.ip,
  };
}

/** The server's logger; tests pass a `destination` to read what production would write. */
export function createLogger(options: {
  level: string;
  pretty: boolean;
  destination?: pino.DestinationStream;
}): Logger {
  const settings: pino.LoggerOptions = {
    level: options.level,
    serializers: { req: requestSerializer },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(options.pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}
