import { type SiteInfo, siteInfoSchema } from '@digest/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client';
import { paths } from './paths';

/**
 * Where the site's documents are until the server has answered: the app's own pages, which say where the
 * operator's are when they are elsewhere. There is no default support address: only the server knows it.
 */
const IN_APP_LINKS = {
  changelogUrl: paths.changelog,
  termsUrl: paths.terms,
  privacyUrl: paths.privacy,
} as const;

export interface SiteLinks extends Omit<SiteInfo, 'supportEmail' | 'mailTransport'> {
  /** `mailto:` SUPPORT_EMAIL, once the server has said it. */
  supportMailto: string | undefined;
}

/**
 * `GET /api/site`, asked once per page load: the support address and the documents' links come from the
 * server's configuration (docs/product.md §2 "Legal and help pages"), never from constants in the bundle.
 */
function useSiteInfo() {
  return useQuery({
    queryKey: ['site'],
    queryFn: ({ signal }) => apiRequest('/site', { auth: false, signal, schema: siteInfoSchema }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  }).data;
}

export function useSiteLinks(): SiteLinks {
  const data = useSiteInfo();
  if (!data) return { ...IN_APP_LINKS, supportMailto: undefined };
  const { supportEmail, mailTransport: _transport, ...links } = data;
  return { ...links, supportMailto: `mailto:${supportEmail}` };
}

/** Whether the server sends mail (SMTP_URL) or writes it to its outbox folder; undefined until it has said. */
export function useMailTransport(): SiteInfo['mailTransport'] | undefined {
  return useSiteInfo()?.mailTransport;
}
