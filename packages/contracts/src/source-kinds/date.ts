import * as z from 'zod/mini';
import { common, inputSchema } from './fields';
import { oneItem, type SourceKind } from './source-kind';

/** Today's date in the owner's zone and locale, computed when the issue is built. */
export interface DateContent {
  /** ISO date (YYYY-MM-DD). */
  date: string;
  /** e.g. 'Sunday, November 22, 2026' in the owner's locale. */
  formatted: string;
  weekday: string;
  timezone: string;
}

const LABEL = "Today's Date";

const dateShape = {
  type: z.literal('DATE'),
  ...common(LABEL),
};

export const dateSourceSchema = inputSchema(dateShape);
export type DateSource = z.output<typeof dateSourceSchema>;

export const dateKind = {
  type: 'DATE',
  label: LABEL,
  schema: dateSourceSchema,
  storedSchema: z.object(dateShape),
  category: 'everyday',
  popular: false,
  dataPath: null,
  accountProvider: null,
  readsPrivateData: false,
  searched: false,
  count: null,
  icon: { key: 'date', label: "Today's date" },
  title: () => LABEL,
  // Today's date alone is not news: it never makes an issue worth sending.
  hasNews: () => false,
  items: oneItem<DateContent>(),
} as const satisfies SourceKind<DateContent, DateSource>;
