import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { createSecureContext } from 'node:tls';
import { NEWSLETTER_QUOTA_DEFAULT_MB } from '@digest/contracts';
import { z } from 'zod';
import type { OAuthConfig } from '#server/modules/auth/oauth-config';
import type { LegalSource, SiteConfig } from '#server/modules/site/site-config';
import { addressOf, localPartOf, type MailerDkim, VERP_LOCAL_PART_MAX_LENGTH } from '#server/platform/mailer';
import type { ProviderConfig } from '#server/sources/provider-config';

export const ROLE_NAMES = ['api', 'worker', 'scheduler', 'inbound'] as const;
export type Role = (typeof ROLE_NAMES)[number];

/**
 * Every environment variable the server reads, with its documentation and default.
 * README.md's configuration table is checked against this list by a test.
 */
export const CONFIG_VARIABLES = {
  PORT: { doc: 'TCP port the HTTP server listens on', default: '3000' },
  HOST: { doc: 'interface the HTTP server listens on', default: '127.0.0.1' },
  APP_URL: { doc: 'public origin used in e-mails and share links', default: 'http://localhost:$PORT' },
  DATA_DIR: { doc: 'embedded database, generated secret and mail outbox', default: './data' },
  DATABASE_URL: {
    doc: '`postgres://…`; when set, PostgreSQL replaces the embedded database',
    default: 'unset',
    secret: true,
  },
  ROLES: {
    doc: 'comma list of the roles this process runs: `api`, `worker`, `scheduler`, `inbound` (needs `INBOUND_SMTP_PORT`)',
    default: 'api,worker,scheduler, and inbound when `INBOUND_SMTP_PORT` is set',
  },
  APP_SECRET: {
    doc: 'signs tokens and encrypts stored provider tokens (at least 32 characters)',
    default: 'generated into `DATA_DIR/secret`',
    secret: true,
  },
  SMTP_URL: {
    doc: '`smtp://user:pass@host:port` (or `smtps://`); unset: each mail is written to `DATA_DIR/outbox/*.eml` and logged',
    default: 'unset',
    secret: true,
  },
  MAIL_FROM: { doc: 'sender of every mail', default: 'Digest <digest@localhost>' },
  MAIL_DOMAIN: { doc: 'domain of the `username@domain` newsletter addresses', default: 'host of `APP_URL`' },
  DKIM_SELECTOR: {
    doc: 'DKIM selector (the `<selector>._domainkey` DNS name); with a key it turns DKIM signing of every mail on',
    default: 'unset',
  },
  DKIM_DOMAIN: {
    doc: 'domain DKIM signatures are made for (`d=`): that of `MAIL_FROM` or a parent of it, so DMARC aligns',
    default: 'the domain in `MAIL_FROM`',
  },
  DKIM_PRIVATE_KEY: {
    doc: 'the RSA private key signing mail, as PEM text (`\\n` may stand for line breaks); or use `DKIM_PRIVATE_KEY_FILE`',
    default: 'unset',
    secret: true,
  },
  DKIM_PRIVATE_KEY_FILE: { doc: 'a PEM file holding the RSA private key, read at start', default: 'unset' },
  SUPPORT_EMAIL: {
    doc: 'the address every "Contact us" and Support link writes to',
    default: 'the address in `MAIL_FROM`',
  },
  CHANGELOG_URL: {
    doc: 'where "Digest Updates" leads (an http(s) URL); unset: the in-app page rendering `CHANGELOG.md`',
    default: '`/changelog`',
  },
  TERMS_URL: {
    doc: 'the Terms of Service elsewhere (an http(s) URL): sign-up and every e-mail link there instead of `/terms`',
    default: 'unset',
  },
  TERMS_FILE: {
    doc: 'a Markdown (`.md`) or HTML (`.html`, sanitised) file read at start, shown at `/terms` instead of the built-in text',
    default: 'unset',
  },
  PRIVACY_URL: {
    doc: 'the Privacy Policy elsewhere (an http(s) URL): sign-up and every e-mail link there instead of `/privacy`',
    default: 'unset',
  },
  PRIVACY_FILE: {
    doc: 'a Markdown (`.md`) or HTML (`.html`, sanitised) file read at start, shown at `/privacy` instead of the built-in text',
    default: 'unset',
  },
  LOG_LEVEL: { doc: '`fatal`, `error`, `warn`, `info`, `debug` or `trace`', default: 'info' },
  SHUTDOWN_TIMEOUT_MS: {
    doc: 'how long a stop waits in all for running requests, newsletter sessions and jobs before it exits anyway',
    default: '10000',
  },
  SESSION_CHECK_CACHE_MS: {
    doc: 'how long one API process remembers that a signed-in session still stands; a session ended in that process is refused at once, one ended through another process on the same database is refused within this time; `0` asks the database on every request',
    default: '1000',
  },
  DIGEST_LIST_CACHE_USERS: {
    doc: "how many users' digest lists one API process keeps in memory until the database notifies a change to them (a list of 100 digests is ≈ 50 KB); `0` reads every list from the database. The database must deliver `LISTEN`/`NOTIFY`: behind a transaction-pooling proxy (PgBouncer `pool_mode=transaction`) set `0`",
    default: '2000',
  },
  MAX_REQUESTS_IN_FLIGHT: {
    doc: 'requests one API process works on at once; past it a request is answered 503 with `Retry-After: 1` at once instead of queueing (`/api/health` is always answered)',
    default: '256',
  },
  SCHEDULE_MAX_LATENESS_MINUTES: {
    doc: 'a scheduled issue found later than this (the server was down at its time) is skipped and recorded instead of sent late',
    default: '60',
  },
  ISSUE_STORAGE_QUOTA_MB: {
    doc: "issues (their HTML and text) one account may keep, in megabytes; a new issue that takes an account past it deletes the account's oldest issues until it fits",
    default: '100',
  },
  NEWSLETTER_QUOTA_MB: {
    doc: "newsletters one account's mailbox may keep, in megabytes; past it new mail is refused (452, so senders retry) and the Newsletters page says so",
    default: '200',
  },
  INBOUND_SMTP_PORT: {
    doc: 'when set, the `inbound` role runs the newsletter SMTP server on this port (map port 25 to it; see "Receiving newsletters")',
    default: 'unset',
  },
  INBOUND_SMTP_HOST: {
    doc: 'interface the newsletter SMTP server listens on; all of them by default, since mail comes from the internet (it accepts mail only for its own mailboxes, never relays)',
    default: '0.0.0.0',
  },
  INBOUND_TLS_CERT_FILE: {
    doc: 'a PEM certificate (chain) for MAIL_DOMAIN, read at start; with `INBOUND_TLS_KEY_FILE` the SMTP server offers STARTTLS',
    default: 'unset',
  },
  INBOUND_TLS_KEY_FILE: {
    doc: 'the PEM private key of `INBOUND_TLS_CERT_FILE`, read at start',
    default: 'unset',
  },
  INBOUND_MAX_MESSAGE_MB: {
    doc: 'largest message accepted, in megabytes: announced (SIZE) and enforced while it streams in (552)',
    default: '25',
  },
  INBOUND_MAX_CLIENTS: {
    doc: 'SMTP sessions open at once; more are answered 421 (try later)',
    default: '100',
  },
  INBOUND_CONNECTIONS_PER_MINUTE: {
    doc: 'SMTP connections one client address may open a minute; more are answered 421 (try later)',
    default: '60',
  },
  MAIL_RECIPIENTS_PER_DAY: {
    doc: 'how many different people (not the owner) one account may mail in 24 hours, invitations and issues together; past it adding friends is refused and further subscribers are skipped',
    default: '200',
  },
  TRUST_PROXY: {
    doc: 'which proxies may name the client in `X-Forwarded-For` (per-IP rate limits key on it): `false` (the socket address is the client), `true` (any), a number of hops (the nearest, whatever their address: only when nothing else can reach the server), or a comma list of proxy addresses or CIDRs',
    default: 'false',
  },
  GOOGLE_CLIENT_ID: {
    doc: 'OAuth client id of Google sign-in; with `GOOGLE_CLIENT_SECRET` it turns Google sign-in on',
    default: 'unset',
  },
  GOOGLE_CLIENT_SECRET: { doc: 'OAuth client secret of Google sign-in', default: 'unset', secret: true },
  GOOGLE_ISSUER: {
    doc: 'OpenID Connect issuer of Google sign-in; its endpoints and keys come from its discovery document',
    default: 'https://accounts.google.com',
  },
  TWITTER_CLIENT_ID: {
    doc: 'OAuth 2.0 client id of X/Twitter sign-in; with `TWITTER_CLIENT_SECRET` it turns X/Twitter sign-in on',
    default: 'unset',
  },
  TWITTER_CLIENT_SECRET: {
    doc: 'OAuth 2.0 client secret of X/Twitter sign-in',
    default: 'unset',
    secret: true,
  },
  TWITTER_AUTHORIZATION_URL: {
    doc: 'authorization endpoint of X/Twitter sign-in',
    default: 'https://x.com/i/oauth2/authorize',
  },
  TWITTER_TOKEN_URL: {
    doc: 'token endpoint of X/Twitter sign-in',
    default: 'https://api.x.com/2/oauth2/token',
  },
  TWITTER_USERINFO_URL: {
    doc: 'the signed-in X/Twitter user (`/2/users/me`), read for id, name and confirmed e-mail',
    default: 'https://api.x.com/2/users/me',
  },
  FACEBOOK_CLIENT_ID: {
    doc: 'app id of Facebook sign-in; with `FACEBOOK_CLIENT_SECRET` it turns Facebook sign-in on',
    default: 'unset',
  },
  FACEBOOK_CLIENT_SECRET: { doc: 'app secret of Facebook sign-in', default: 'unset', secret: true },
  FACEBOOK_AUTHORIZATION_URL: {
    doc: 'authorization endpoint (login dialog) of Facebook sign-in',
    default: 'https://www.facebook.com/v23.0/dialog/oauth',
  },
  FACEBOOK_TOKEN_URL: {
    doc: 'token endpoint of Facebook sign-in',
    default: 'https://graph.facebook.com/v23.0/oauth/access_token',
  },
  FACEBOOK_USERINFO_URL: {
    doc: 'the signed-in Facebook user (Graph `/me`), read for id, name and e-mail',
    default: 'https://graph.facebook.com/v23.0/me',
  },
  API_DOCS: {
    doc: "`true` serves the OpenAPI document at `/api/openapi.json` and its explorer (Swagger UI) at `/api/docs`; both share the app's origin, so keep it off on a public server",
    default: 'false',
  },
  FETCH_ALLOW_PRIVATE_HOSTS: {
    doc: 'comma list of hosts, IPs or CIDRs exempt from the private-network block of outbound fetches (tests, intranet feeds)',
    default: 'empty',
  },
  OPEN_METEO_BASE_URL: { doc: 'Open-Meteo forecast API', default: 'https://api.open-meteo.com' },
  OPEN_METEO_GEOCODING_BASE_URL: {
    doc: 'Open-Meteo geocoding API (weather location search)',
    default: 'https://geocoding-api.open-meteo.com',
  },
  HN_BASE_URL: { doc: 'Hacker News Algolia search API', default: 'https://hn.algolia.com/api' },
  REDDIT_BASE_URL: {
    doc: 'Reddit public endpoints (and its OAuth token endpoint)',
    default: 'https://www.reddit.com',
  },
  REDDIT_OAUTH_BASE_URL: {
    doc: 'Reddit API used with the app token when `REDDIT_CLIENT_ID` is set',
    default: 'https://oauth.reddit.com',
  },
  YOUTUBE_BASE_URL: { doc: 'YouTube Data API v3', default: 'https://www.googleapis.com/youtube/v3' },
  YOUTUBE_FEEDS_BASE_URL: {
    doc: 'YouTube channel feeds (need no key)',
    default: 'https://www.youtube.com/feeds',
  },
  YOUTUBE_WEB_BASE_URL: {
    doc: "YouTube's pages: a pasted handle, channel or video address is resolved to its channel there (no key)",
    default: 'https://www.youtube.com',
  },
  PRODUCT_HUNT_BASE_URL: {
    doc: 'Product Hunt GraphQL API v2',
    default: 'https://api.producthunt.com/v2/api/graphql',
  },
  PRODUCT_HUNT_FEED_URL: {
    doc: "Product Hunt's public feed, read instead of the API when `PRODUCT_HUNT_TOKEN` is unset",
    default: 'https://www.producthunt.com/feed',
  },
  GOOGLE_API_BASE_URL: { doc: 'Google APIs (Calendar API v3)', default: 'https://www.googleapis.com' },
  TWITTER_API_BASE_URL: { doc: 'X/Twitter API v2', default: 'https://api.x.com/2' },
  STRIPE_API_BASE_URL: { doc: 'Stripe API', default: 'https://api.stripe.com' },
  FEED_MIRROR_URL: {
    doc: "development and benchmarks only: a feed on another host is read from `<FEED_MIRROR_URL>/<host>/<path>` (the fake providers' offline copies)",
    default: 'unset',
  },
  STRIPE_CONNECT_BASE_URL: {
    doc: 'Stripe Connect OAuth (`/oauth/authorize`, `/oauth/token`, `/oauth/deauthorize`)',
    default: 'https://connect.stripe.com',
  },
  STRIPE_CLIENT_ID: {
    doc: 'Stripe Connect client id; with `STRIPE_SECRET_KEY` it turns the Stripe source on',
    default: 'unset',
  },
  STRIPE_SECRET_KEY: { doc: 'Stripe platform secret key', default: 'unset', secret: true },
  PRODUCT_HUNT_TOKEN: {
    doc: 'Product Hunt API developer token (optional): launches best ranked, with votes, comments, descriptions and thumbnails; without it the public feed is read',
    default: 'unset',
    secret: true,
  },
  YOUTUBE_API_KEY: {
    doc: 'YouTube Data API key for channel search (channel feeds work without it)',
    default: 'unset',
    secret: true,
  },
  REDDIT_CLIENT_ID: {
    doc: 'Reddit OAuth app id; with `REDDIT_CLIENT_SECRET` Reddit is read with an app token instead of the public endpoints',
    default: 'unset',
  },
  REDDIT_CLIENT_SECRET: { doc: 'Reddit OAuth app secret', default: 'unset', secret: true },
} as const;

export type ConfigVariable = keyof typeof CONFIG_VARIABLES;

// Values that can hold passwords are never repeated in error messages (they end up in logs).
const isSecret = (name: string) => 'secret' in (CONFIG_VARIABLES[name as ConfigVariable] ?? {});

const port = z.coerce
  .number({ message: 'must be a number' })
  .int('must be a whole number')
  .min(0, 'must be between 0 and 65535')
  .max(65535, 'must be between 0 and 65535');

const httpUrl = z.url({
  protocol: /^https?$/,
  message: 'must be an http(s) URL such as http://localhost:3000',
});

const postgresUrl = z.url({
  protocol: /^postgres(ql)?$/,
  message: 'must be a PostgreSQL URL such as postgres://user:pass@host:5432/db',
});

const smtpUrl = z.url({
  protocol: /^smtps?$/,
  message: 'must be an SMTP URL such as smtp://user:pass@host:587',
});

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An endpoint of a sign-in provider: https, or plain http on this machine only (tests, local servers). */
const oauthUrl = z
  .url({
    protocol: /^https?$/,
    message: 'must be an https URL such as https://accounts.google.com',
    abort: true,
  })
  .refine((value) => {
    const url = new URL(value);
    return url.protocol === 'https:' || LOOPBACK_HOSTS.has(url.hostname);
  }, 'must use https (plain http only for localhost or 127.0.0.1)');

/** A provider's API root, without a trailing slash. */
const baseUrl = httpUrl.transform((value) => value.replace(/\/+$/, ''));

const clientCredential = z.string().min(1, 'must not be empty').optional();

const roles = z
  .string()
  .transform((value) => value.split(',').map((role) => role.trim()))
  .pipe(
    z
      .array(z.enum(ROLE_NAMES, { message: `each role must be one of ${ROLE_NAMES.join(', ')}` }))
      .min(1, 'name at least one role'),
  )
  .transform((list) => [...new Set(list)]);

/** Fastify's `trustProxy`: whether (and which) proxies' `X-Forwarded-For` names the client. */
export type TrustProxy = boolean | number | string[];

// proxy-addr's names for whole ranges, accepted beside addresses and CIDRs.
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string) {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  // A prefix length, or (IPv4) a netmask such as 255.255.255.0.
  if (/^\d{1,3}$/.test(prefix)) return Number(prefix) <= (version === 4 ? 32 : 128);
  return version === 4 && isIP(prefix) === 4;
}

const trustProxy = z.string().transform((value, context): TrustProxy => {
  const text = value.trim().toLowerCase();
  if (text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !isProxyAddress(entry));
  if (entries.length === 0 || bad.length > 0) {
    context.addIssue({
      code: 'custom',
      message:
        'must be false, true, a number of hops, or a comma list of addresses or CIDRs such as 10.0.0.0/8,127.0.0.1',
    });
    return z.NEVER;
  }
  return entries;
});

const mailbox = z
  .string()
  .regex(
    /^(.*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/,
    'must be an address such as Digest <digest@example.com>',
  );

const emailAddress = z
  .string()
  .regex(/^[^<>\s@]+@[^<>\s@]+$/, 'must be an e-mail address such as help@example.com');

/** Kept short: the links go into every e-mail footer, whose room is bounded (RECIPIENT_FOOTER_MAX_BYTES). */
const DOCUMENT_URL_MAX_LENGTH = 300;
const documentUrl = httpUrl.refine(
  (value) => value.length <= DOCUMENT_URL_MAX_LENGTH,
  `must be at most ${DOCUMENT_URL_MAX_LENGTH} characters`,
);

/** A DNS label list such as `digest2026` or `mail.digest2026`. */
const dnsName = z
  .string()
  .regex(
    /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i,
    'must be a DNS name such as digest2026',
  );

const documentFile = z
  .string()
  .regex(/\.(md|markdown|html?)$/i, 'must name a Markdown (.md) or HTML (.html) file');

const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  APP_URL: httpUrl.optional(),
  DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  DATABASE_URL: postgresUrl.optional(),
  ROLES: roles.optional(),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SMTP_URL: smtpUrl.optional(),
  MAIL_FROM: mailbox
    .refine((value) => localPartOf(addressOf(value)).length <= VERP_LOCAL_PART_MAX_LENGTH, {
      message: `its address's local part (before the @) must be at most ${VERP_LOCAL_PART_MAX_LENGTH} characters: bounce addresses add "+b-" and a 32-character token to it, and a local part may have 64`,
    })
    .default('Digest <digest@localhost>'),
  MAIL_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, 'must be a domain name such as example.com')
    .optional(),
  DKIM_SELECTOR: dnsName.optional(),
  DKIM_DOMAIN: dnsName.optional(),
  DKIM_PRIVATE_KEY: z.string().optional(),
  DKIM_PRIVATE_KEY_FILE: z.string().optional(),
  SUPPORT_EMAIL: emailAddress.optional(),
  CHANGELOG_URL: documentUrl.optional(),
  TERMS_URL: documentUrl.optional(),
  TERMS_FILE: documentFile.optional(),
  PRIVACY_URL: documentUrl.optional(),
  PRIVACY_FILE: documentFile.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number({ message: 'must be a number' }).int().positive().default(10_000),
  SESSION_CHECK_CACHE_MS: z.coerce
    .number({ message: 'must be a number of milliseconds' })
    .int({ message: 'must be a whole number of milliseconds' })
    .min(0, { message: 'must be 0 or more' })
    .max(60_000, { message: 'must be at most 60000 (a minute)' })
    .default(1000),
  DIGEST_LIST_CACHE_USERS: z.coerce
    .number({ message: 'must be a number of users' })
    .int({ message: 'must be a whole number of users' })
    .min(0, { message: 'must be 0 or more' })
    .max(1_000_000, { message: 'must be at most 1000000' })
    .default(2000),
  MAX_REQUESTS_IN_FLIGHT: z.coerce
    .number({ message: 'must be a number' })
    .int({ message: 'must be a whole number' })
    .min(1, { message: 'must be at least 1' })
    .default(256),
  SCHEDULE_MAX_LATENESS_MINUTES: z.coerce
    .number({ message: 'must be a number of minutes' })
    .int({ message: 'must be a whole number of minutes' })
    .min(1, { message: 'must be at least 1 minute' })
    .max(10_080, { message: 'must be at most 10080 minutes (7 days)' })
    .default(60),
  ISSUE_STORAGE_QUOTA_MB: z.coerce
    .number({ message: 'must be a number of megabytes' })
    .int({ message: 'must be a whole number of megabytes' })
    .min(1, { message: 'must be at least 1 megabyte' })
    .default(100),
  NEWSLETTER_QUOTA_MB: z.coerce
    .number({ message: 'must be a number of megabytes' })
    .int({ message: 'must be a whole number of megabytes' })
    .min(1, { message: 'must be at least 1 megabyte' })
    .default(NEWSLETTER_QUOTA_DEFAULT_MB),
  INBOUND_SMTP_PORT: z.coerce
    .number({ message: 'must be a port number' })
    .int({ message: 'must be a port number' })
    .min(1, { message: 'must be a port number from 1 to 65535' })
    .max(65_535, { message: 'must be a port number from 1 to 65535' })
    .optional(),
  INBOUND_SMTP_HOST: z.string().min(1, 'must not be empty').default('0.0.0.0'),
  INBOUND_TLS_CERT_FILE: z.string().optional(),
  INBOUND_TLS_KEY_FILE: z.string().optional(),
  INBOUND_MAX_MESSAGE_MB: z.coerce
    .number({ message: 'must be a number of megabytes' })
    .int({ message: 'must be a whole number of megabytes' })
    .min(1, { message: 'must be at least 1 megabyte' })
    .max(1024, { message: 'must be at most 1024 megabytes' })
    .default(25),
  INBOUND_MAX_CLIENTS: z.coerce
    .number({ message: 'must be a number of sessions' })
    .int({ message: 'must be a whole number' })
    .min(1, { message: 'must be at least 1' })
    .default(100),
  INBOUND_CONNECTIONS_PER_MINUTE: z.coerce
    .number({ message: 'must be a number of connections' })
    .int({ message: 'must be a whole number' })
    .min(1, { message: 'must be at least 1' })
    .default(60),
  MAIL_RECIPIENTS_PER_DAY: z.coerce
    .number({ message: 'must be a number of recipients' })
    .int({ message: 'must be a whole number' })
    .min(1, { message: 'must be at least 1' })
    .default(200),
  TRUST_PROXY: trustProxy.default(false),
  API_DOCS: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  GOOGLE_CLIENT_ID: clientCredential,
  GOOGLE_CLIENT_SECRET: clientCredential,
  GOOGLE_ISSUER: oauthUrl.default('https://accounts.google.com'),
  TWITTER_CLIENT_ID: clientCredential,
  TWITTER_CLIENT_SECRET: clientCredential,
  TWITTER_AUTHORIZATION_URL: oauthUrl.default('https://x.com/i/oauth2/authorize'),
  TWITTER_TOKEN_URL: oauthUrl.default('https://api.x.com/2/oauth2/token'),
  TWITTER_USERINFO_URL: oauthUrl.default('https://api.x.com/2/users/me'),
  FACEBOOK_CLIENT_ID: clientCredential,
  FACEBOOK_CLIENT_SECRET: clientCredential,
  FACEBOOK_AUTHORIZATION_URL: oauthUrl.default('https://www.facebook.com/v23.0/dialog/oauth'),
  FACEBOOK_TOKEN_URL: oauthUrl.default('https://graph.facebook.com/v23.0/oauth/access_token'),
  FACEBOOK_USERINFO_URL: oauthUrl.default('https://graph.facebook.com/v23.0/me'),
  FETCH_ALLOW_PRIVATE_HOSTS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .default([]),
  OPEN_METEO_BASE_URL: baseUrl.default('https://api.open-meteo.com'),
  OPEN_METEO_GEOCODING_BASE_URL: baseUrl.default('https://geocoding-api.open-meteo.com'),
  HN_BASE_URL: baseUrl.default('https://hn.algolia.com/api'),
  REDDIT_BASE_URL: baseUrl.default('https://www.reddit.com'),
  REDDIT_OAUTH_BASE_URL: baseUrl.default('https://oauth.reddit.com'),
  YOUTUBE_BASE_URL: baseUrl.default('https://www.googleapis.com/youtube/v3'),
  YOUTUBE_FEEDS_BASE_URL: baseUrl.default('https://www.youtube.com/feeds'),
  YOUTUBE_WEB_BASE_URL: baseUrl.default('https://www.youtube.com'),
  PRODUCT_HUNT_BASE_URL: baseUrl.default('https://api.producthunt.com/v2/api/graphql'),
  PRODUCT_HUNT_FEED_URL: baseUrl.default('https://www.producthunt.com/feed'),
  GOOGLE_API_BASE_URL: baseUrl.default('https://www.googleapis.com'),
  TWITTER_API_BASE_URL: baseUrl.default('https://api.x.com/2'),
  STRIPE_API_BASE_URL: baseUrl.default('https://api.stripe.com'),
  FEED_MIRROR_URL: baseUrl.optional(),
  STRIPE_CONNECT_BASE_URL: oauthUrl.default('https://connect.stripe.com'),
  STRIPE_CLIENT_ID: clientCredential,
  STRIPE_SECRET_KEY: clientCredential,
  PRODUCT_HUNT_TOKEN: clientCredential,
  YOUTUBE_API_KEY: clientCredential,
  REDDIT_CLIENT_ID: clientCredential,
  REDDIT_CLIENT_SECRET: clientCredential,
});

// A client id without its secret (or the reverse) is a half-done setup: say so instead of hiding the button.
const OAUTH_CREDENTIAL_PAIRS = [
  ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
  ['TWITTER_CLIENT_ID', 'TWITTER_CLIENT_SECRET'],
  ['FACEBOOK_CLIENT_ID', 'FACEBOOK_CLIENT_SECRET'],
  ['STRIPE_CLIENT_ID', 'STRIPE_SECRET_KEY'],
  ['REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET'],
] as const;

// A legal text is replaced in one way only: a file and a URL together would leave the links unclear.
const LEGAL_URL_FILE_PAIRS = [
  ['TERMS_URL', 'TERMS_FILE'],
  ['PRIVACY_URL', 'PRIVACY_FILE'],
] as const;

const configSchema = envSchema.superRefine((values, context) => {
  const dkimKeys = ['DKIM_PRIVATE_KEY', 'DKIM_PRIVATE_KEY_FILE'] as const;
  if (values.DKIM_SELECTOR && !values.DKIM_PRIVATE_KEY && !values.DKIM_PRIVATE_KEY_FILE) {
    context.addIssue({
      code: 'custom',
      path: ['DKIM_SELECTOR'],
      message: 'needs a key: set DKIM_PRIVATE_KEY or DKIM_PRIVATE_KEY_FILE',
    });
  }
  for (const name of [...dkimKeys, 'DKIM_DOMAIN'] as const) {
    if (values[name] && !values.DKIM_SELECTOR) {
      context.addIssue({
        code: 'custom',
        path: ['DKIM_SELECTOR'],
        message: `must be set when ${name} is set`,
      });
    }
  }
  if (values.DKIM_PRIVATE_KEY && values.DKIM_PRIVATE_KEY_FILE) {
    context.addIssue({
      code: 'custom',
      path: ['DKIM_PRIVATE_KEY_FILE'],
      message: 'must not be set with DKIM_PRIVATE_KEY: set one of them',
    });
  }
  for (const [id, secret] of OAUTH_CREDENTIAL_PAIRS) {
    if (values[id] && !values[secret]) {
      context.addIssue({ code: 'custom', path: [secret], message: `must be set when ${id} is set` });
    }
    if (values[secret] && !values[id]) {
      context.addIssue({ code: 'custom', path: [id], message: `must be set when ${secret} is set` });
    }
  }
  if (values.ROLES?.includes('inbound') && values.INBOUND_SMTP_PORT === undefined) {
    context.addIssue({
      code: 'custom',
      path: ['INBOUND_SMTP_PORT'],
      message: 'must be set when ROLES names inbound (the port the newsletter SMTP server listens on)',
    });
  }
  if (values.INBOUND_TLS_CERT_FILE && !values.INBOUND_TLS_KEY_FILE) {
    context.addIssue({
      code: 'custom',
      path: ['INBOUND_TLS_KEY_FILE'],
      message: 'must be set when INBOUND_TLS_CERT_FILE is set',
    });
  }
  if (values.INBOUND_TLS_KEY_FILE && !values.INBOUND_TLS_CERT_FILE) {
    context.addIssue({
      code: 'custom',
      path: ['INBOUND_TLS_CERT_FILE'],
      message: 'must be set when INBOUND_TLS_KEY_FILE is set',
    });
  }
  for (const [url, file] of LEGAL_URL_FILE_PAIRS) {
    if (values[url] && values[file]) {
      context.addIssue({
        code: 'custom',
        path: [file],
        message: `must not be set with ${url}: set one of them`,
      });
    }
  }
});

/** Far more than any terms or policy; a bigger file is a wrong path, not a legal text. */
const DOCUMENT_FILE_MAX_BYTES = 512 * 1024;

const FILE_ERRORS: Record<string, string> = {
  ENOENT: 'names no file',
  EACCES: 'cannot be read (permission denied)',
  EISDIR: 'is a folder, not a file',
};

/** A legal text's source from its two variables; a file is read now, so a bad one stops the start. */
function legalSource(
  name: string,
  url: string | undefined,
  file: string | undefined,
  cwd: string,
  problems: string[],
): LegalSource {
  if (url) return { kind: 'url', url };
  if (!file) return { kind: 'built-in' };
  const shown = `${name}=${JSON.stringify(file)}`;
  let content: Buffer;
  try {
    content = readFileSync(path.resolve(cwd, file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    problems.push(`${shown} ${FILE_ERRORS[code] ?? `cannot be read (${code || 'unknown error'})`}`);
    return { kind: 'built-in' };
  }
  if (content.length === 0) problems.push(`${shown} is empty`);
  if (content.length > DOCUMENT_FILE_MAX_BYTES) problems.push(`${shown} must be at most 512 KB`);
  const format = /\.html?$/i.test(file) ? 'html' : 'markdown';
  return { kind: 'file', format, text: content.toString('utf8') };
}

/** Below this an RSA key is breakable and receivers ignore (or distrust) its signatures. */
const DKIM_MIN_KEY_BITS = 1024;

/**
 * The DKIM key from DKIM_PRIVATE_KEY or DKIM_PRIVATE_KEY_FILE, checked now so a bad one stops the start.
 * Problems name the variable and never repeat the key.
 */
function dkimConfig(
  values: { selector?: string; domain?: string; key?: string; keyFile?: string; mailFrom: string },
  cwd: string,
  problems: string[],
): MailerDkim | undefined {
  if (!values.selector) return undefined;
  let pem = values.key?.replace(/\\n/g, '\n');
  let source = 'DKIM_PRIVATE_KEY (value hidden)';
  if (values.keyFile) {
    source = `DKIM_PRIVATE_KEY_FILE=${JSON.stringify(values.keyFile)}`;
    try {
      pem = readFileSync(path.resolve(cwd, values.keyFile), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      problems.push(`${source} ${FILE_ERRORS[code] ?? `cannot be read (${code || 'unknown error'})`}`);
      return undefined;
    }
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pem ?? '');
  } catch {
    problems.push(`${source} is not a PEM private key`);
    return undefined;
  }
  // nodemailer signs with rsa-sha256 only.
  if (key.asymmetricKeyType !== 'rsa') {
    problems.push(`${source} must be an RSA key, not ${key.asymmetricKeyType ?? 'another kind'}`);
    return undefined;
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < DKIM_MIN_KEY_BITS) {
    problems.push(`${source} must have at least ${DKIM_MIN_KEY_BITS} bits (2048 recommended), not ${bits}`);
    return undefined;
  }
  // DMARC passes on DKIM only when the signing domain is From's domain or a parent of it (relaxed alignment).
  const fromDomain = (addressOf(values.mailFrom).split('@').pop() ?? '').toLowerCase();
  const domainName = values.domain?.toLowerCase() ?? fromDomain;
  if (fromDomain !== domainName && !fromDomain.endsWith(`.${domainName}`)) {
    problems.push(
      `DKIM_DOMAIN=${JSON.stringify(values.domain)} must be the domain of MAIL_FROM (${fromDomain}) or a parent of it, or DMARC fails`,
    );
    return undefined;
  }
  return {
    domainName,
    keySelector: values.selector,
    privateKey: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/**
 * The inbound server's STARTTLS certificate and key, read and checked now so a bad file stops the start
 * (a server that offered STARTTLS and then failed every handshake would lose mail). Problems never repeat the key.
 */
function inboundTls(
  certFile: string | undefined,
  keyFile: string | undefined,
  cwd: string,
  problems: string[],
): InboundTls | undefined {
  if (!certFile || !keyFile) return undefined;
  const read = (name: string, file: string) => {
    try {
      return readFileSync(path.resolve(cwd, file));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      problems.push(
        `${name}=${JSON.stringify(file)} ${FILE_ERRORS[code] ?? `cannot be read (${code || 'unknown error'})`}`,
      );
      return undefined;
    }
  };
  const cert = read('INBOUND_TLS_CERT_FILE', certFile);
  const key = read('INBOUND_TLS_KEY_FILE', keyFile);
  if (!cert || !key) return undefined;
  try {
    createSecureContext({ cert, key });
  } catch {
    problems.push(
      `INBOUND_TLS_CERT_FILE=${JSON.stringify(certFile)} and INBOUND_TLS_KEY_FILE=${JSON.stringify(keyFile)} are not a PEM certificate and its private key`,
    );
    return undefined;
  }
  return { cert, key };
}

const credentials = (clientId: string | undefined, clientSecret: string | undefined) =>
  clientId && clientSecret ? { clientId, clientSecret } : undefined;

export interface InboundTls {
  cert: Buffer;
  key: Buffer;
}

export interface InboundConfig {
  host: string;
  /** INBOUND_MAX_MESSAGE_MB, in bytes. */
  maxMessageBytes: number;
  maxClients: number;
  connectionsPerMinute: number;
  /** STARTTLS, when both files are set. */
  tls: InboundTls | undefined;
}

export interface Config {
  port: number;
  host: string;
  appUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  roles: Role[];
  appSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** DKIM signing of every mail; unset without DKIM_SELECTOR. */
  dkim: MailerDkim | undefined;
  mailDomain: string;
  logLevel: string;
  shutdownTimeoutMs: number;
  /** MAX_REQUESTS_IN_FLIGHT. */
  maxRequestsInFlight: number;
  /** SESSION_CHECK_CACHE_MS. */
  sessionCheckCacheMs: number;
  /** DIGEST_LIST_CACHE_USERS. */
  digestListCacheUsers: number;
  /** TRUST_PROXY, as Fastify's `trustProxy`. */
  trustProxy: TrustProxy;
  /** API_DOCS: serve the OpenAPI document and its explorer. */
  apiDocs: boolean;
  /** SCHEDULE_MAX_LATENESS_MINUTES, in milliseconds. */
  scheduleMaxLatenessMs: number;
  /** ISSUE_STORAGE_QUOTA_MB, in bytes. */
  issueStorageQuotaBytes: number;
  /** NEWSLETTER_QUOTA_MB, in bytes. */
  newsletterQuotaBytes: number;
  /** INBOUND_SMTP_PORT: where the inbound role's SMTP server listens; unset, nothing receives newsletters. */
  inboundSmtpPort: number | undefined;
  /** The inbound role's other settings (INBOUND_…). */
  inbound: InboundConfig;
  /** MAIL_RECIPIENTS_PER_DAY. */
  recipientsPerDay: number;
  oauth: OAuthConfig;
  /** Hosts, IPs and CIDRs outbound fetches may reach although they are private. */
  fetchAllowPrivateHosts: string[];
  providers: ProviderConfig;
  site: SiteConfig;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

/** Reads the configuration from the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): Config {
  const present = Object.fromEntries(
    Object.keys(CONFIG_VARIABLES)
      .map((name) => [name, env[name]?.trim()])
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        const shown = isSecret(name) ? '(value hidden)' : JSON.stringify(present[name] ?? '');
        return `${name}=${shown} ${issue.message}`;
      }),
    );
  }
  const values = parsed.data;
  const fileProblems: string[] = [];
  const site: SiteConfig = {
    supportEmail: values.SUPPORT_EMAIL ?? addressOf(values.MAIL_FROM),
    changelogUrl: values.CHANGELOG_URL,
    terms: legalSource('TERMS_FILE', values.TERMS_URL, values.TERMS_FILE, cwd, fileProblems),
    privacy: legalSource('PRIVACY_FILE', values.PRIVACY_URL, values.PRIVACY_FILE, cwd, fileProblems),
  };
  const dkim = dkimConfig(
    {
      selector: values.DKIM_SELECTOR,
      domain: values.DKIM_DOMAIN,
      key: values.DKIM_PRIVATE_KEY,
      keyFile: values.DKIM_PRIVATE_KEY_FILE,
      mailFrom: values.MAIL_FROM,
    },
    cwd,
    fileProblems,
  );
  const tls = inboundTls(values.INBOUND_TLS_CERT_FILE, values.INBOUND_TLS_KEY_FILE, cwd, fileProblems);
  if (fileProblems.length > 0) throw new ConfigError(fileProblems);
  const appUrl = (values.APP_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '');
  return {
    port: values.PORT,
    host: values.HOST,
    appUrl,
    dataDir: path.resolve(cwd, values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    // The inbound role runs by default exactly when its port is set.
    roles:
      values.ROLES ??
      (values.INBOUND_SMTP_PORT === undefined
        ? ['api', 'worker', 'scheduler']
        : ['api', 'worker', 'scheduler', 'inbound']),
    appSecret: values.APP_SECRET,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    dkim,
    mailDomain: values.MAIL_DOMAIN ?? new URL(appUrl).hostname,
    logLevel: values.LOG_LEVEL,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    maxRequestsInFlight: values.MAX_REQUESTS_IN_FLIGHT,
    sessionCheckCacheMs: values.SESSION_CHECK_CACHE_MS,
    digestListCacheUsers: values.DIGEST_LIST_CACHE_USERS,
    trustProxy: values.TRUST_PROXY,
    apiDocs: values.API_DOCS,
    scheduleMaxLatenessMs: values.SCHEDULE_MAX_LATENESS_MINUTES * 60_000,
    issueStorageQuotaBytes: values.ISSUE_STORAGE_QUOTA_MB * 1024 * 1024,
    newsletterQuotaBytes: values.NEWSLETTER_QUOTA_MB * 1024 * 1024,
    inboundSmtpPort: values.INBOUND_SMTP_PORT,
    inbound: {
      host: values.INBOUND_SMTP_HOST,
      maxMessageBytes: values.INBOUND_MAX_MESSAGE_MB * 1024 * 1024,
      maxClients: values.INBOUND_MAX_CLIENTS,
      connectionsPerMinute: values.INBOUND_CONNECTIONS_PER_MINUTE,
      tls,
    },
    recipientsPerDay: values.MAIL_RECIPIENTS_PER_DAY,
    oauth: {
      google: {
        credentials: credentials(values.GOOGLE_CLIENT_ID, values.GOOGLE_CLIENT_SECRET),
        issuer: values.GOOGLE_ISSUER,
      },
      twitter: {
        credentials: credentials(values.TWITTER_CLIENT_ID, values.TWITTER_CLIENT_SECRET),
        authorizationUrl: values.TWITTER_AUTHORIZATION_URL,
        tokenUrl: values.TWITTER_TOKEN_URL,
        userinfoUrl: values.TWITTER_USERINFO_URL,
      },
      facebook: {
        credentials: credentials(values.FACEBOOK_CLIENT_ID, values.FACEBOOK_CLIENT_SECRET),
        authorizationUrl: values.FACEBOOK_AUTHORIZATION_URL,
        tokenUrl: values.FACEBOOK_TOKEN_URL,
        userinfoUrl: values.FACEBOOK_USERINFO_URL,
      },
      stripe: {
        credentials: credentials(values.STRIPE_CLIENT_ID, values.STRIPE_SECRET_KEY),
        connectUrl: values.STRIPE_CONNECT_BASE_URL,
      },
    },
    fetchAllowPrivateHosts: values.FETCH_ALLOW_PRIVATE_HOSTS,
    providers: {
      baseUrls: {
        openMeteo: values.OPEN_METEO_BASE_URL,
        openMeteoGeocoding: values.OPEN_METEO_GEOCODING_BASE_URL,
        hn: values.HN_BASE_URL,
        reddit: values.REDDIT_BASE_URL,
        redditOAuth: values.REDDIT_OAUTH_BASE_URL,
        youtube: values.YOUTUBE_BASE_URL,
        youtubeFeeds: values.YOUTUBE_FEEDS_BASE_URL,
        youtubeWeb: values.YOUTUBE_WEB_BASE_URL,
        productHunt: values.PRODUCT_HUNT_BASE_URL,
        productHuntFeed: values.PRODUCT_HUNT_FEED_URL,
        googleApi: values.GOOGLE_API_BASE_URL,
        twitterApi: values.TWITTER_API_BASE_URL,
        stripeApi: values.STRIPE_API_BASE_URL,
        feedMirror: values.FEED_MIRROR_URL,
      },
      credentials: {
        youtubeApiKey: values.YOUTUBE_API_KEY,
        productHuntToken: values.PRODUCT_HUNT_TOKEN,
        reddit: credentials(values.REDDIT_CLIENT_ID, values.REDDIT_CLIENT_SECRET),
      },
    },
    site,
  };
}
