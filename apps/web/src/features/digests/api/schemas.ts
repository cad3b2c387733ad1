/** The digest shapes the screens use, from the shared contracts (docs/design.md §5). */
export type {
  Build,
  Digest,
  DigestSummary,
  Draft,
  Subscriber,
} from '@digest/contracts';

/** A source as the server answers it (every setting filled in). */
export type Source = import('@digest/contracts').Draft['sources'][number];
