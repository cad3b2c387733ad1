import { isInAppLink, SITE_PAGE_TITLES, type SitePage } from '@digest/contracts';
import { Alert } from '#web/components/ui/Alert';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { errorMessage } from '#web/lib/api-client';
import { type SiteLinks, useSiteLinks } from '#web/lib/site';
import { useSitePage } from '../api/site-page';
import styles from './DocumentPage.module.css';

const LINK_OF: Record<SitePage, keyof Omit<SiteLinks, 'supportMailto'>> = {
  terms: 'termsUrl',
  privacy: 'privacyUrl',
  changelog: 'changelogUrl',
};

/**
 * docs/product.md §2 "Legal and help pages": /terms, /privacy and /changelog, signed in or not. The text is
 * the server's (built in, the operator's file, or CHANGELOG.md); when the operator publishes it elsewhere,
 * the page says where.
 */
export function DocumentPage({ page }: { page: SitePage }) {
  const links = useSiteLinks();
  const title = SITE_PAGE_TITLES[page];
  const href = links[LINK_OF[page]];
  const elsewhere = !isInAppLink(href);
  const document = useSitePage(page, !elsewhere);
  return (
    <article className={styles.page}>
      <title>{`${title} · Digest`}</title>
      {elsewhere ? (
        <>
          <h1 className={styles.title}>{title}</h1>
          <p>
            This server publishes its {title} at{' '}
            <a href={href} rel="noopener noreferrer">
              {href}
            </a>
            .
          </p>
        </>
      ) : document.isPending ? (
        <PageSpinner label={`Loading the ${title}`} />
      ) : document.isError ? (
        <>
          <h1 className={styles.title}>{title}</h1>
          <Alert tone="error">{errorMessage(document.error)}</Alert>
        </>
      ) : (
        <div
          className={styles.document}
          // The server renders the document through its one sanitiser allow-list
          // (platform/sanitize-html.ts): no script, style or event attribute can be in it.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: see above
          dangerouslySetInnerHTML={{ __html: documentHtml(document.data.html, title) }}
        />
      )}
      {links.supportMailto ? (
        <p className={styles.contact}>
          Questions? Write to <a href={links.supportMailto}>{links.supportMailto.slice('mailto:'.length)}</a>.
        </p>
      ) : null}
    </article>
  );
}

/** The document with a heading of its own when it starts without one (the built-in texts, most files). */
function documentHtml(html: string, title: string): string {
  return /^\s*<h1[\s>]/.test(html) ? html : `<h1>${title}</h1>${html}`;
}
