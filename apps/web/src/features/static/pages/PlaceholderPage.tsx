import { EmptyState } from '#web/components/ui/EmptyState';
import { PageHeader } from '#web/components/ui/PageHeader';

/** docs/product.md §2 /support ('Support page'): a placeholder with its title. */
export function PlaceholderPage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <>
      <title>{`${title} · Digest`}</title>
      <PageHeader title={title} />
      <EmptyState title={title}>{children}</EmptyState>
    </>
  );
}
