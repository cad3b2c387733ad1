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
 * How a request appears in the log. Query strings carry reset tokens, OAuth codes, states and tickets:
 * their names are kept, their values never written.
 */
export function requestSerializer(request: LoggedRequest) {
  const [pathname, query] = request.url.split('?');
  const names = query ? [...new URLSearchParams(query).keys()] : [];
  return {
    method: request.method,
    url: names.length ? `${pathname}?${names.map((name) => `${name}=[redacted]`).join('&')}` : pathname,
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
