import { EmptyState } from '#web/components/ui/EmptyState';
import { PageHeader } from '#web/components/ui/PageHeader';

/** docs/product.md §2 /changelog ('Changelog') and /support ('Support page'): placeholders with their titles. */
export function PlaceholderPage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <>
      <title>{`${title} · Digest`}</title>
      <PageHeader title={title} />
      <EmptyState title={title}>{children}</EmptyState>
    </>
  );
}
