import {
  type DataSource,
  SOURCE_CATEGORIES,
  type SourceCategory,
  TEMPLATE_CATEGORIES,
  TEMPLATE_CATEGORY_LABELS,
  type TemplateCategory,
} from '@digest/contracts';
import type { Device } from '#web/lib/breakpoints';

/**
 * docs/product.md §2 entry tabs: the template categories, in the order the builder shows them; 'popular' is the
 * default view. Each shows its kinds of source, then its templates.
 */
export const ENTRY_TABS = TEMPLATE_CATEGORIES;
export type EntryTab = TemplateCategory;
export const ENTRY_TAB_LABELS: Record<EntryTab, string> = TEMPLATE_CATEGORY_LABELS;

const isSourceCategory = (tab: EntryTab): tab is SourceCategory =>
  (SOURCE_CATEGORIES as readonly string[]).includes(tab);

/** Whether a tab lists kinds of source: 'hand-crafted' is not a kind's category, it has templates only. */
export function tabHasKinds(tab: EntryTab): boolean {
  return tab === 'popular' || isSourceCategory(tab);
}

/** docs/product.md §2: the grouped view shows 4 kinds per view on desktop and tablet, 5 on mobile. */
export const KINDS_PER_VIEW: Record<Device, number> = { mobile: 5, tablet: 4, desktop: 4 };

export function kindsOfTab(catalogue: readonly DataSource[], tab: EntryTab): DataSource[] {
  return catalogue.filter((kind) => (tab === 'popular' ? kind.popular : kind.category === tab));
}

/** The kinds whose name contains the search text, whatever the case. */
export function searchKinds(catalogue: readonly DataSource[], text: string): DataSource[] {
  const wanted = text.trim().toLocaleLowerCase();
  return catalogue.filter((kind) => kind.name.toLocaleLowerCase().includes(wanted));
}

/** How many views (carousel pages) `total` kinds take; an empty list still has one (empty) view. */
export function viewCount(total: number, perView: number): number {
  return Math.max(1, Math.ceil(total / perView));
}

/** The kinds of view `view` (0-based), which is kept within the views there are. */
export function kindsOfView<T>(kinds: readonly T[], view: number, perView: number): T[] {
  const last = viewCount(kinds.length, perView) - 1;
  const at = Math.min(Math.max(view, 0), last);
  return kinds.slice(at * perView, (at + 1) * perView);
}
