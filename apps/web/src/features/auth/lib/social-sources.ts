import { MAX_SOURCES, type SourceType } from '@digest/contracts';
import { guidedSourcesParam, parseGuidedSources } from '#web/lib/guided-sources';
import { SOURCES_PARAM } from '#web/lib/paths';

/**
 * A social sign-in or sign-up leaves the app for the provider and comes back to the callback page without
 * the page's query. The kinds its `?sources=` named (docs/product.md §2) wait in this tab's session storage
 * meanwhile: only known keys are written, and what is read back goes through the parser again.
 */
export const SOCIAL_SOURCES_KEY = 'digest.socialSources';

type SessionStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const sessionStore = (): SessionStore => window.sessionStorage;

/** Before leaving for the provider: keeps the kinds `search` names, or forgets any an earlier trip kept. */
export function keepSourcesForSocial(search: string, storage: SessionStore = sessionStore()): void {
  const keys = guidedSourcesParam(
    parseGuidedSources(new URLSearchParams(search).get(SOURCES_PARAM), MAX_SOURCES),
  );
  try {
    if (keys) storage.setItem(SOCIAL_SOURCES_KEY, keys);
    else storage.removeItem(SOCIAL_SOURCES_KEY);
  } catch {
    // Storage refused (private mode, full quota): the sign-in works; only the choice is lost.
  }
}

/** Back from the provider: the kinds kept for this trip, once (reading forgets them). */
export function takeSourcesFromSocial(storage: SessionStore = sessionStore()): SourceType[] {
  try {
    const keys = storage.getItem(SOCIAL_SOURCES_KEY);
    storage.removeItem(SOCIAL_SOURCES_KEY);
    return parseGuidedSources(keys, MAX_SOURCES);
  } catch {
    return [];
  }
}
