import path from 'node:path';
import { z } from 'zod';

export const ROLE_NAMES = ['api', 'worker', 'scheduler'] as const;
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
    doc: 'comma list of the roles this process runs: `api`, `worker`, `scheduler`',
    default: 'api,worker,scheduler',
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
  LOG_LEVEL: { doc: '`fatal`, `error`, `warn`, `info`, `debug` or `trace`', default: 'info' },
  SHUTDOWN_TIMEOUT_MS: {
    doc: 'how long a stop waits for running requests and jobs before it exits anyway',
    default: '10000',
  },
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

const roles = z
  .string()
  .transform((value) => value.split(',').map((role) => role.trim()))
  .pipe(
    z
      .array(z.enum(ROLE_NAMES, { message: `each role must be one of ${ROLE_NAMES.join(', ')}` }))
      .min(1, 'name at least one role'),
  )
  .transform((list) => [...new Set(list)]);

const mailbox = z
  .string()
  .regex(
    /^(.*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/,
    'must be an address such as Digest <digest@example.com>',
  );

const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  APP_URL: httpUrl.optional(),
  DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  DATABASE_URL: postgresUrl.optional(),
  ROLES: roles.default(['api', 'worker', 'scheduler']),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SMTP_URL: smtpUrl.optional(),
  MAIL_FROM: mailbox.default('Digest <digest@localhost>'),
  MAIL_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, 'must be a domain name such as example.com')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number({ message: 'must be a number' }).int().positive().default(10_000),
});

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
  mailDomain: string;
  logLevel: string;
  shutdownTimeoutMs: number;
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
  const parsed = envSchema.safeParse(present);
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
  const appUrl = (values.APP_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '');
  return {
    port: values.PORT,
    host: values.HOST,
    appUrl,
    dataDir: path.resolve(cwd, values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    roles: values.ROLES,
    appSecret: values.APP_SECRET,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    mailDomain: values.MAIL_DOMAIN ?? new URL(appUrl).hostname,
    logLevel: values.LOG_LEVEL,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
  };
}
