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

  it('is documented in the README configuration table, variable by variable', () => {
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
    for (const name of Object.keys(CONFIG_VARIABLES)) expect(readme).toContain(`| \`${name}\``);
  });
});
