import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from './config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, '/srv/digest');
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('configuration', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({}, '/srv/digest');
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      appUrl: 'http://localhost:3000',
      dataDir: '/srv/digest/data',
      databaseUrl: undefined,
      roles: ['api', 'worker', 'scheduler'],
      smtpUrl: undefined,
      mailFrom: 'Digest <digest@localhost>',
      mailDomain: 'localhost',
    });
  });

  it('derives APP_URL from PORT and MAIL_DOMAIN from APP_URL', () => {
    expect(loadConfig({ PORT: '8080' }).appUrl).toBe('http://localhost:8080');
    const config = loadConfig({ APP_URL: 'https://digest.example.com/' });
    expect(config.appUrl).toBe('https://digest.example.com');
    expect(config.mailDomain).toBe('digest.example.com');
  });

  it('reads a subset of roles and ignores repeats and spaces', () => {
    expect(loadConfig({ ROLES: 'worker, scheduler,worker' }).roles).toEqual(['worker', 'scheduler']);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['APP_URL', 'localhost:3000'],
    ['DATABASE_URL', 'nonsense'],
    ['DATABASE_URL', 'mysql://root@localhost/db'],
    ['ROLES', 'api,web'],
    ['APP_SECRET', 'too-short'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['MAIL_FROM', 'not an address'],
    ['LOG_LEVEL', 'loud'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name}=`));
  });

  it('refuses a MAIL_FROM whose local part leaves no room for a bounce token (64 characters at most)', () => {
    const [problem] = problemsOf({ MAIL_FROM: `Digest <${'n'.repeat(30)}@example.com>` });
    expect(problem).toMatch(/^MAIL_FROM=.*at most 29 characters/);
    expect(loadConfig({ MAIL_FROM: `Digest <${'n'.repeat(29)}@example.com>` }).mailFrom).toContain(
      'n'.repeat(29),
    );
  });

  it('names every bad variable at once', () => {
    const problems = problemsOf({ PORT: 'abc', DATABASE_URL: 'nonsense' });
    expect(problems.map((problem) => problem.split('=')[0])).toEqual(['PORT', 'DATABASE_URL']);
  });

  it('never repeats a secret in its message', () => {
    const [problem] = problemsOf({ APP_SECRET: 'short-secret-value' });
    expect(problem).not.toContain('short-secret-value');
  });

  it('reads ISSUE_STORAGE_QUOTA_MB in megabytes, 100 by default', () => {
    expect(loadConfig({}, '/srv/digest').issueStorageQuotaBytes).toBe(100 * 1024 * 1024);
    expect(loadConfig({ ISSUE_STORAGE_QUOTA_MB: '5' }, '/srv/digest').issueStorageQuotaBytes).toBe(
      5 * 1024 * 1024,
    );
    expect(problemsOf({ ISSUE_STORAGE_QUOTA_MB: '0' })).toEqual([
      'ISSUE_STORAGE_QUOTA_MB="0" must be at least 1 megabyte',
    ]);
    expect(problemsOf({ ISSUE_STORAGE_QUOTA_MB: 'lots' })).toEqual([
      'ISSUE_STORAGE_QUOTA_MB="lots" must be a number of megabytes',
    ]);
  });

  it('serves no API documentation unless API_DOCS is true', () => {
    expect(loadConfig({}, '/srv/digest').apiDocs).toBe(false);
    expect(loadConfig({ API_DOCS: 'false' }, '/srv/digest').apiDocs).toBe(false);
    expect(loadConfig({ API_DOCS: 'true' }, '/srv/digest').apiDocs).toBe(true);
    expect(problemsOf({ API_DOCS: 'yes' })).toEqual(['API_DOCS="yes" must be true or false']);
  });

  it('trusts no proxy by default: the socket address is the client', () => {
    expect(loadConfig({}, '/srv/digest').trustProxy).toBe(false);
  });

  it.each([
    ['false', false],
    ['FALSE', false],
    ['true', true],
    ['1', 1],
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8, 127.0.0.1 ,::1,fd00::/8', ['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']],
    ['loopback,192.168.0.0/255.255.0.0', ['loopback', '192.168.0.0/255.255.0.0']],
  ])('reads TRUST_PROXY=%j as %j', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }, '/srv/digest').trustProxy).toEqual(expected);
  });

  it.each(['yes', 'proxy.example.com', '10.0.0.0/33', '1.2.3.4/8/8', '-1', '1.5', ','])(
    'refuses TRUST_PROXY=%j',
    (value) => {
      const [problem] = problemsOf({ TRUST_PROXY: value });
      expect(problem).toMatch(/^TRUST_PROXY=.* must be false, true, a number of hops, or a comma list/);
    },
  );

  it('reads SCHEDULE_MAX_LATENESS_MINUTES in minutes, 60 by default', () => {
    expect(loadConfig({}, '/srv/digest').scheduleMaxLatenessMs).toBe(60 * 60_000);
    expect(loadConfig({ SCHEDULE_MAX_LATENESS_MINUTES: '5' }, '/srv/digest').scheduleMaxLatenessMs).toBe(
      300_000,
    );
  });

  it.each([
    ['soon', 'must be a number of minutes'],
    ['1.5', 'must be a whole number of minutes'],
    ['0', 'must be at least 1 minute'],
    ['10081', 'must be at most 10080 minutes (7 days)'],
  ])('refuses SCHEDULE_MAX_LATENESS_MINUTES=%j: %s', (value, message) => {
    const [problem] = problemsOf({ SCHEDULE_MAX_LATENESS_MINUTES: value });
    expect(problem).toMatch(/^SCHEDULE_MAX_LATENESS_MINUTES=/);
    expect(problem).toContain(message);
  });

  describe('site: support address, changelog and legal texts', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'digest-config-'));
    writeFileSync(path.join(folder, 'terms.md'), '# Our terms\n');
    writeFileSync(path.join(folder, 'privacy.html'), '<h1>Our policy</h1>');
    writeFileSync(path.join(folder, 'empty.md'), '');
    mkdirSync(path.join(folder, 'folder.md'));

    it('defaults: support at the address of MAIL_FROM, the in-app changelog and built-in texts', () => {
      expect(loadConfig({ MAIL_FROM: 'Digest News <news@digest.example>' }, folder).site).toEqual({
        supportEmail: 'news@digest.example',
        changelogUrl: undefined,
        terms: { kind: 'built-in' },
        privacy: { kind: 'built-in' },
      });
      expect(loadConfig({ MAIL_FROM: 'plain@digest.example' }, folder).site.supportEmail).toBe(
        'plain@digest.example',
      );
    });

    it('reads SUPPORT_EMAIL, CHANGELOG_URL, a URL for one text and a file (relative to the folder) for the other', () => {
      const site = loadConfig(
        {
          SUPPORT_EMAIL: 'help@digest.example',
          CHANGELOG_URL: 'https://digest.example/news',
          TERMS_FILE: 'terms.md',
          PRIVACY_URL: 'https://digest.example/privacy',
        },
        folder,
      ).site;
      expect(site).toEqual({
        supportEmail: 'help@digest.example',
        changelogUrl: 'https://digest.example/news',
        terms: { kind: 'file', format: 'markdown', text: '# Our terms\n' },
        privacy: { kind: 'url', url: 'https://digest.example/privacy' },
      });
      expect(loadConfig({ PRIVACY_FILE: path.join(folder, 'privacy.html') }, '/').site.privacy).toEqual({
        kind: 'file',
        format: 'html',
        text: '<h1>Our policy</h1>',
      });
    });

    it.each([
      [
        { SUPPORT_EMAIL: 'Help <help@example.com>' },
        'SUPPORT_EMAIL="Help <help@example.com>" must be an e-mail address',
      ],
      [{ CHANGELOG_URL: '/changelog' }, 'CHANGELOG_URL="/changelog" must be an http(s) URL'],
      [{ TERMS_URL: 'javascript:alert(1)' }, 'TERMS_URL="javascript:alert(1)" must be an http(s) URL'],
      [{ PRIVACY_URL: `https://example.com/${'a'.repeat(300)}` }, 'must be at most 300 characters'],
      [{ TERMS_FILE: 'terms.txt' }, 'TERMS_FILE="terms.txt" must name a Markdown (.md) or HTML (.html) file'],
      [{ TERMS_FILE: 'missing.md' }, 'TERMS_FILE="missing.md" names no file'],
      [{ PRIVACY_FILE: 'folder.md' }, 'PRIVACY_FILE="folder.md" is a folder, not a file'],
      [{ PRIVACY_FILE: 'empty.md' }, 'PRIVACY_FILE="empty.md" is empty'],
      [
        { TERMS_URL: 'https://example.com/terms', TERMS_FILE: 'terms.md' },
        'TERMS_FILE="terms.md" must not be set with TERMS_URL: set one of them',
      ],
    ])('refuses %j, naming the variable', (env, message) => {
      let problems: string[] = [];
      try {
        loadConfig(env, folder);
      } catch (error) {
        if (error instanceof ConfigError) problems = error.problems;
      }
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(message);
    });
  });

  describe('DKIM: selector, domain and key', () => {
    const pemOf = (type: 'rsa' | 'ed25519', bits = 2048) =>
      (type === 'rsa'
        ? generateKeyPairSync('rsa', { modulusLength: bits })
        : generateKeyPairSync('ed25519')
      ).privateKey
        .export({ type: 'pkcs8', format: 'pem' })
        .toString();
    const pem = pemOf('rsa');
    const folder = mkdtempSync(path.join(os.tmpdir(), 'digest-config-dkim-'));
    writeFileSync(path.join(folder, 'dkim.pem'), pem);
    writeFileSync(path.join(folder, 'ed25519.pem'), pemOf('ed25519'));
    writeFileSync(path.join(folder, 'short.pem'), pemOf('rsa', 512));

    it('is off without DKIM_SELECTOR', () => {
      expect(loadConfig({}).dkim).toBeUndefined();
    });

    it('signs for the domain of MAIL_FROM with the key as PEM text, its line breaks written as \\n or not', () => {
      const expected = { domainName: 'digest.example', keySelector: 'digest2026', privateKey: pem };
      const env = { MAIL_FROM: 'Digest <news@digest.example>', DKIM_SELECTOR: 'digest2026' };
      expect(loadConfig({ ...env, DKIM_PRIVATE_KEY: pem }).dkim).toEqual(expected);
      expect(loadConfig({ ...env, DKIM_PRIVATE_KEY: pem.replace(/\n/g, '\\n') }).dkim).toEqual(expected);
    });

    it('reads DKIM_PRIVATE_KEY_FILE relative to the folder, and DKIM_DOMAIN when set', () => {
      expect(
        loadConfig(
          {
            MAIL_FROM: 'news@mail.example.org',
            DKIM_SELECTOR: 's1',
            DKIM_DOMAIN: 'Example.org',
            DKIM_PRIVATE_KEY_FILE: 'dkim.pem',
          },
          folder,
        ).dkim?.domainName,
      ).toBe('example.org');
      expect(
        loadConfig(
          {
            MAIL_FROM: 'news@mail.example.org',
            DKIM_SELECTOR: 's1',
            DKIM_DOMAIN: 'mail.example.org',
            DKIM_PRIVATE_KEY_FILE: 'dkim.pem',
          },
          folder,
        ).dkim,
      ).toEqual({ domainName: 'mail.example.org', keySelector: 's1', privateKey: pem });
    });

    it.each([
      [
        'a selector without a key',
        { DKIM_SELECTOR: 's1' },
        'DKIM_SELECTOR="s1" needs a key: set DKIM_PRIVATE_KEY or DKIM_PRIVATE_KEY_FILE',
      ],
      [
        'a key without a selector',
        { DKIM_PRIVATE_KEY: pem },
        'DKIM_SELECTOR="" must be set when DKIM_PRIVATE_KEY is set',
      ],
      [
        'a key file without a selector',
        { DKIM_PRIVATE_KEY_FILE: 'dkim.pem' },
        'DKIM_SELECTOR="" must be set when DKIM_PRIVATE_KEY_FILE is set',
      ],
      [
        'both a key and a key file',
        { DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: pem, DKIM_PRIVATE_KEY_FILE: 'dkim.pem' },
        'DKIM_PRIVATE_KEY_FILE="dkim.pem" must not be set with DKIM_PRIVATE_KEY: set one of them',
      ],
      [
        'a selector with a space',
        { DKIM_SELECTOR: 'bad selector', DKIM_PRIVATE_KEY: pem },
        'DKIM_SELECTOR="bad selector" must be a DNS name',
      ],
      [
        'a key that is not PEM',
        { DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: 'not-a-key-but-a-secret' },
        'DKIM_PRIVATE_KEY (value hidden) is not a PEM private key',
      ],
      [
        'a cut-off key',
        { DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: `${pem.slice(0, 300)}\n-----END PRIVATE KEY-----` },
        'DKIM_PRIVATE_KEY (value hidden) is not a PEM private key',
      ],
      [
        'a missing key file',
        { DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY_FILE: 'missing.pem' },
        'DKIM_PRIVATE_KEY_FILE="missing.pem" names no file',
      ],
      [
        'an Ed25519 key',
        { DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY_FILE: 'ed25519.pem' },
        'DKIM_PRIVATE_KEY_FILE="ed25519.pem" must be an RSA key, not ed25519',
      ],
      [
        'a signing domain DMARC would not align with From',
        {
          MAIL_FROM: 'Digest <news@example.org>',
          DKIM_SELECTOR: 's1',
          DKIM_DOMAIN: 'other.example',
          DKIM_PRIVATE_KEY: pem,
        },
        'DKIM_DOMAIN="other.example" must be the domain of MAIL_FROM (example.org) or a parent of it, or DMARC fails',
      ],
      [
        'a 512-bit key',
        { DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY_FILE: 'short.pem' },
        'DKIM_PRIVATE_KEY_FILE="short.pem" must have at least 1024 bits (2048 recommended), not 512',
      ],
    ])('refuses %s with a message naming the variable, never the key', (_case, env, message) => {
      let problems: string[] = [];
      try {
        loadConfig(env, folder);
      } catch (error) {
        if (error instanceof ConfigError) problems = error.problems;
      }
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(message);
      expect(problems[0]).not.toMatch(/not-a-key-but-a-secret|BEGIN|MII/);
    });
  });

  describe('the inbound role', () => {
    it('runs by default exactly when INBOUND_SMTP_PORT is set, on all interfaces with bounded sessions', () => {
      expect(loadConfig({}).roles).not.toContain('inbound');
      const config = loadConfig({ INBOUND_SMTP_PORT: '2525' });
      expect(config.roles).toEqual(['api', 'worker', 'scheduler', 'inbound']);
      expect(config.inboundSmtpPort).toBe(2525);
      expect(config.inbound).toEqual({
        host: '0.0.0.0',
        maxMessageBytes: 25 * 1024 * 1024,
        maxClients: 100,
        connectionsPerMinute: 60,
        tls: undefined,
      });
      // Named roles are the operator's choice: the port alone adds nothing to them.
      expect(loadConfig({ INBOUND_SMTP_PORT: '2525', ROLES: 'api' }).roles).toEqual(['api']);
      expect(loadConfig({ INBOUND_SMTP_PORT: '2525', ROLES: 'inbound' }).roles).toEqual(['inbound']);
    });

    it('refuses ROLES naming inbound without INBOUND_SMTP_PORT, naming the variable', () => {
      expect(problemsOf({ ROLES: 'api,inbound' })).toEqual([
        'INBOUND_SMTP_PORT="" must be set when ROLES names inbound (the port the newsletter SMTP server listens on)',
      ]);
    });

    it.each([
      ['INBOUND_MAX_MESSAGE_MB', '0'],
      ['INBOUND_MAX_CLIENTS', 'many'],
      ['INBOUND_CONNECTIONS_PER_MINUTE', '-1'],
      ['INBOUND_SMTP_PORT', '0'],
    ])('refuses %s=%s with a message naming the variable', (name, value) => {
      expect(problemsOf({ [name]: value })[0]).toMatch(new RegExp(`^${name}=`));
    });

    it('reads the STARTTLS certificate and key at start; a missing, unreadable or wrong file stops it', () => {
      const folder = mkdtempSync(path.join(os.tmpdir(), 'digest-inbound-tls-'));
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      writeFileSync(path.join(folder, 'key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
      writeFileSync(path.join(folder, 'cert.pem'), 'not a certificate');
      const load = (env: Record<string, string>) => {
        try {
          loadConfig({ INBOUND_SMTP_PORT: '2525', ...env }, folder);
        } catch (error) {
          if (error instanceof ConfigError) return error.problems;
          throw error;
        }
        return [];
      };
      expect(load({ INBOUND_TLS_CERT_FILE: 'cert.pem' })).toEqual([
        'INBOUND_TLS_KEY_FILE="" must be set when INBOUND_TLS_CERT_FILE is set',
      ]);
      expect(load({ INBOUND_TLS_CERT_FILE: 'missing.pem', INBOUND_TLS_KEY_FILE: 'key.pem' })).toEqual([
        'INBOUND_TLS_CERT_FILE="missing.pem" names no file',
      ]);
      const [wrong] = load({ INBOUND_TLS_CERT_FILE: 'cert.pem', INBOUND_TLS_KEY_FILE: 'key.pem' });
      expect(wrong).toContain('are not a PEM certificate and its private key');
      expect(wrong).not.toMatch(/BEGIN|MII/);
    });
  });

  it('is documented in the README configuration table, variable by variable', () => {
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
    for (const name of Object.keys(CONFIG_VARIABLES)) expect(readme).toContain(`| \`${name}\``);
  });
});
