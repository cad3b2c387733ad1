/**
 * Where a legal text comes from: the built-in one, an operator's file (read once at start, rendered in the
 * app), or an operator's page elsewhere (the app links there).
 */
export type LegalSource =
  | { kind: 'built-in' }
  | { kind: 'file'; format: 'markdown' | 'html'; text: string }
  | { kind: 'url'; url: string };

/** What the operator says about the site itself: whom to write to, and where its documents are. */
export interface SiteConfig {
  /** SUPPORT_EMAIL: the address behind every "Contact us" and Support link. */
  supportEmail: string;
  /** CHANGELOG_URL; undefined means the in-app page. */
  changelogUrl: string | undefined;
  terms: LegalSource;
  privacy: LegalSource;
}
