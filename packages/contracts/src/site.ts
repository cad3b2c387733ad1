import * as z from 'zod/mini';

/** The pages the server renders for the app from Markdown or HTML (docs/product.md §2). */
export const SITE_PAGES = ['terms', 'privacy', 'changelog'] as const;
export type SitePage = (typeof SITE_PAGES)[number];

/** Each page's heading, shown by the app and named by every link to it. */
export const SITE_PAGE_TITLES = {
  terms: 'Terms of Service',
  privacy: 'Privacy Policy',
  changelog: 'Changelog',
} as const satisfies Record<SitePage, string>;

/** A link of the site: an in-app path such as `/terms`, or the operator's http(s) page elsewhere. */
const siteLink = z
  .string()
  .register(z.globalRegistry, { description: 'an in-app path (starting with /) or an absolute http(s) URL' });

/** `GET /api/site`: whom to write to and where the site's documents are, from the server's configuration. */
export const siteInfoSchema = z.object({
  supportEmail: z.string().register(z.globalRegistry, {
    description: 'SUPPORT_EMAIL: every "Contact us" and Support link writes to it',
  }),
  changelogUrl: siteLink,
  termsUrl: siteLink,
  privacyUrl: siteLink,
  mailTransport: z.enum(['smtp', 'outbox']).register(z.globalRegistry, {
    description: 'outbox: no SMTP_URL is set, so mail is written to files in DATA_DIR/outbox, not sent',
  }),
});
export type SiteInfo = z.infer<typeof siteInfoSchema>;

/** `GET /api/site/pages/{page}`: a document as HTML, already reduced to the server's sanitiser allow-list. */
export const sitePageSchema = z.object({ title: z.string(), html: z.string() });
export type SitePageContent = z.infer<typeof sitePageSchema>;

/** True when `href` is a page of this app rather than the operator's page elsewhere. */
export function isInAppLink(href: string): boolean {
  return href.startsWith('/') && !href.startsWith('//');
}
