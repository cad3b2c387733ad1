import type { SourceType } from '@digest/contracts';
import { QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { BuilderStep } from '#web/features/builder/lib/steps';
import { createQueryClient } from '#web/lib/query-client';
import type { SourcePanelProps } from '../panel';

/**
 * For tests: the markup of a panel (or any part of one) with a QueryClient seeded with answers, so
 * nothing is fetched. White space is collapsed to single spaces.
 */
export function renderWithData(element: ReactElement, seed: [QueryKey, unknown][] = []): string {
  const queryClient = createQueryClient();
  for (const [key, data] of seed) queryClient.setQueryData(key, data);
  return renderToStaticMarkup(
    <QueryClientProvider client={queryClient}>{element}</QueryClientProvider>,
  ).replace(/\s+/g, ' ');
}

/** For tests: a panel's props at `step`, with callbacks that do nothing unless given. */
export function panelProps<T extends SourceType>(
  type: T,
  step: BuilderStep,
  overrides: Partial<SourcePanelProps<T>> = {},
): SourcePanelProps<T> {
  return { type, step, goTo: () => {}, initial: null, onChange: () => {}, onSave: () => {}, ...overrides };
}

/** For tests: the opening tag of the button whose text is `label`, or undefined. */
export function buttonTag(html: string, label: string): string | undefined {
  const buttons = html.match(/<button[^>]*>.*?<\/button>/g) ?? [];
  return buttons
    .find((button) => button.replace(/<[^>]+>/g, '').trim() === label)
    ?.match(/^<button[^>]*>/)?.[0];
}
