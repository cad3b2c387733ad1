import { SITE_PAGE_TITLES, type SiteInfo, type SitePage, type SitePageContent } from '@digest/contracts';
import type { LegalLinks } from '@digest/email';
import { markdownToSafeHtml } from '#server/platform/markdown';
import { sanitizeHtml } from '#server/platform/sanitize-html';
import { BUILT_IN_PRIVACY, BUILT_IN_TERMS } from './legal-texts';
import { siteErrors } from './site.errors';
import type { LegalSource, SiteConfig } from './site-config';

export interface SiteDeps {
  site: SiteConfig;
  appUrl: string;
  /** The repository's CHANGELOG.md, read at start; undefined when the server was deployed without it. */
  changelogMarkdown: string | undefined;
  /** Whether mail is sent (SMTP_URL) or written to the outbox: the sign-up tells a developer where to look. */
  mailTransport: SiteInfo['mailTransport'];
}

/** The in-app path of each page (the web app's routes, docs/product.md §2). */
export const SITE_PAGE_PATHS = {
  terms: '/terms',
  privacy: '/privacy',
  changelog: '/changelog',
} as const satisfies Record<SitePage, string>;

/** A page's HTML, or why the app has none: the operator's page is elsewhere, or there is no document. */
type PageBody = { html: string } | { elsewhere: true } | undefined;

function legalBody(source: LegalSource, builtIn: string): PageBody {
  if (source.kind === 'url') return { elsewhere: true };
  if (source.kind === 'built-in') return { html: markdownToSafeHtml(builtIn) };
  return { html: source.format === 'html' ? sanitizeHtml(source.text) : markdownToSafeHtml(source.text) };
}

const linkOf = (source: LegalSource, page: SitePage) =>
  source.kind === 'url' ? source.url : SITE_PAGE_PATHS[page];

/** The links e-mails carry to the legal texts: the operator's pages, or the app's, as absolute URLs. */
export function legalLinksOf(site: SiteConfig, appUrl: string): LegalLinks {
  const absolute = (href: string) => (href.startsWith('/') ? `${appUrl}${href}` : href);
  return {
    termsUrl: absolute(linkOf(site.terms, 'terms')),
    privacyUrl: absolute(linkOf(site.privacy, 'privacy')),
  };
}

/** `make` called at the first call only; its answer kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

/**
 * What the app shows of the site itself, computed once: the configuration cannot change while the
 * server runs, and rendering Markdown on every request would be work for nothing.
 */
export function createSite(deps: SiteDeps) {
  const { site } = deps;
  const info: SiteInfo = {
    supportEmail: site.supportEmail,
    changelogUrl: site.changelogUrl ?? SITE_PAGE_PATHS.changelog,
    termsUrl: linkOf(site.terms, 'terms'),
    privacyUrl: linkOf(site.privacy, 'privacy'),
    mailTransport: deps.mailTransport,
  };
  const terms = legalBody(site.terms, BUILT_IN_TERMS);
  const privacy = legalBody(site.privacy, BUILT_IN_PRIVACY);
  const bodies: Record<SitePage, () => PageBody> = {
    terms: () => terms,
    privacy: () => privacy,
    // Rendered at its first request, not at start: the changelog grows with every release, and every
    // process (and every test app) would render it whether or not anyone opens it.
    changelog: once(() =>
      site.changelogUrl
        ? { elsewhere: true }
        : deps.changelogMarkdown === undefined
          ? undefined
          : { html: markdownToSafeHtml(deps.changelogMarkdown) },
    ),
  };
  return {
    info,
    page(page: SitePage): SitePageContent {
      const title = SITE_PAGE_TITLES[page];
      const body = bodies[page]();
      if (!body) throw siteErrors.pageMissing(title);
      if ('elsewhere' in body) throw siteErrors.pageElsewhere(title);
      return { title, html: body.html };
    },
  };
}

export type Site = ReturnType<typeof createSite>;
