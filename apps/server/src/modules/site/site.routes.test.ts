import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SITE_PAGE_TITLES } from '@digest/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/app/config';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { createSite, legalLinksOf } from './site';
import type { SiteConfig } from './site-config';

const started: TestApi[] = [];
afterAll(async () => {
  for (const api of started) await api.close();
});

async function appWith(siteEnv: Record<string, string>) {
  const api = await startTestApi({ siteEnv });
  started.push(api);
  return api.app;
}

describe('GET /api/site: the support address and the documents’ links, from the configuration, without sign-in', () => {
  it('by default: the address of MAIL_FROM and the in-app pages', async () => {
    const app = await appWith({});
    const response = await app.inject('/api/site');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      supportEmail: 'digest@localhost',
      changelogUrl: '/changelog',
      termsUrl: '/terms',
      privacyUrl: '/privacy',
      mailTransport: 'outbox',
    });
  });

  it('gives the operator’s SUPPORT_EMAIL, CHANGELOG_URL, TERMS_URL and PRIVACY_URL', async () => {
    const app = await appWith({
      SUPPORT_EMAIL: 'help@digest.example',
      CHANGELOG_URL: 'https://digest.example/news',
      TERMS_URL: 'https://digest.example/terms.html',
      PRIVACY_URL: 'https://digest.example/privacy.html',
    });
    expect((await app.inject('/api/site')).json()).toEqual({
      supportEmail: 'help@digest.example',
      changelogUrl: 'https://digest.example/news',
      termsUrl: 'https://digest.example/terms.html',
      privacyUrl: 'https://digest.example/privacy.html',
      mailTransport: 'outbox',
    });
    for (const page of ['terms', 'privacy', 'changelog'] as const) {
      const response = await app.inject(`/api/site/pages/${page}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        code: 'SITE_PAGE_ELSEWHERE',
        message: `This server publishes its ${SITE_PAGE_TITLES[page]} elsewhere.`,
      });
    }
  });

  it('is described in the OpenAPI document, as public', async () => {
    const app = await appWith({});
    const document = (await app.inject('/api/openapi.json')).json();
    expect(document.paths['/api/site'].get.security).toBeUndefined();
    expect(document.paths['/api/site/pages/{page}'].get).toBeDefined();
  });
});

describe('GET /api/site/pages/{page}: the built-in texts, the operator’s files and the changelog, as safe HTML', () => {
  it('renders the built-in Terms of Service and Privacy Policy', async () => {
    const app = await appWith({});
    const terms = (await app.inject('/api/site/pages/terms')).json();
    expect(terms.title).toBe('Terms of Service');
    expect(terms.html).toContain('<h2>Your account</h2>');
    const privacy = (await app.inject('/api/site/pages/privacy')).json();
    expect(privacy.title).toBe('Privacy Policy');
    for (const heading of [
      'What Digest stores',
      'What Digest sends, and to whom',
      'How long Digest keeps it',
      'How to delete it',
    ]) {
      expect(privacy.html).toContain(`<h2>${heading}</h2>`);
    }
    expect(privacy.html).toContain('Open-Meteo');
  });

  it('the Privacy Policy says digests are private until the owner turns the public link on, and what a public page shows', async () => {
    const app = await appWith({});
    const { html } = (await app.inject('/api/site/pages/privacy')).json();
    const text = html.replace(/\s+/g, ' ');
    expect(text).toMatch(
      /<strong>Digests are private<\/strong> unless you turn on a digest(’|'|&#39;|&#x27;)s public link/,
    );
    expect(text).toContain('can read every issue of the digest in that public copy');
    expect(text).toMatch(/which show only their title and the word (&quot;|")Private(&quot;|")/);
    expect(text).not.toContain('Anyone who has the link');
  });

  it('renders the repository’s CHANGELOG.md, and says so when the server has none', async () => {
    const app = await appWith({});
    const changelog = (await app.inject('/api/site/pages/changelog')).json();
    expect(changelog.title).toBe('Changelog');
    expect(changelog.html).toContain('<h1>Changelog</h1>');
    expect(changelog.html).toContain('<h2>Unreleased</h2>');
    const without = createSite({
      site: loadConfig({}).site,
      appUrl: 'http://app.test',
      changelogMarkdown: undefined,
      mailTransport: 'outbox',
    });
    expect(() => without.page('changelog')).toThrow('This server has no Changelog.');
  });

  it('shows the operator’s Markdown and HTML files, with raw HTML and scripts taken out', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'digest-site-'));
    await writeFile(path.join(folder, 'terms.md'), '# Our terms\n\n<script>alert(1)</script>\n');
    await writeFile(
      path.join(folder, 'privacy.html'),
      '<h1 style="color:red">Our policy</h1><script>alert(1)</script><a href="javascript:alert(1)">x</a>',
    );
    const app = await appWith({
      TERMS_FILE: path.join(folder, 'terms.md'),
      PRIVACY_FILE: path.join(folder, 'privacy.html'),
    });
    const terms = (await app.inject('/api/site/pages/terms')).json();
    expect(terms.html).toContain('<h1>Our terms</h1>');
    expect(terms.html).not.toContain('<script');
    const privacy = (await app.inject('/api/site/pages/privacy')).json();
    expect(privacy.html).toContain('<h1>Our policy</h1>');
    expect(privacy.html).not.toMatch(/<script|style=|javascript:/);
    expect((await app.inject('/api/site')).json()).toMatchObject({
      termsUrl: '/terms',
      privacyUrl: '/privacy',
    });
  });

  it('answers 400 naming the parameter for a page it does not have', async () => {
    const app = await appWith({});
    const response = await app.inject('/api/site/pages/secrets');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/page/);
  });
});

describe('legalLinksOf: the absolute links every e-mail carries', () => {
  const site = (terms: SiteConfig['terms'], privacy: SiteConfig['privacy']): SiteConfig => ({
    supportEmail: 'help@example.com',
    changelogUrl: undefined,
    terms,
    privacy,
  });

  it('points to the app’s pages under APP_URL, or to the operator’s URL', () => {
    expect(
      legalLinksOf(
        site({ kind: 'built-in' }, { kind: 'file', format: 'markdown', text: 'x' }),
        'https://d.example',
      ),
    ).toEqual({
      termsUrl: 'https://d.example/terms',
      privacyUrl: 'https://d.example/privacy',
    });
    expect(
      legalLinksOf(
        site({ kind: 'url', url: 'https://legal.example/t' }, { kind: 'built-in' }),
        'https://d.example',
      ),
    ).toEqual({
      termsUrl: 'https://legal.example/t',
      privacyUrl: 'https://d.example/privacy',
    });
  });
});
