import { useSiteLinks } from '#web/lib/site';
import { PlaceholderPage } from './PlaceholderPage';

/** docs/product.md §2 /support: a page titled Support page with a link that writes to SUPPORT_EMAIL. */
export function SupportPage() {
  const { supportMailto } = useSiteLinks();
  return (
    <PlaceholderPage title="Support page">
      <p>
        Need help? <a href={supportMailto}>Write to us</a>.
      </p>
    </PlaceholderPage>
  );
}
