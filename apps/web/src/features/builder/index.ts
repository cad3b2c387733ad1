/**
 * The builder (/digestCreator). What other features need to open it (the store's entry points, the guided
 * sequence's path, the catalogue of kinds) is small and loads with the app; the builder itself loads only
 * when it is opened.
 */
export { catalogueKeys, useCatalogue } from './api/catalogue-api';
export { guidedKinds } from './lib/guided';
// For the tests of other features that show the catalogue.
export { testCatalogue } from './sidebar/test-support';
export { resetBuilder } from './store';
export { useOpenBuilder } from './use-open-builder';

/**
 * The route's `lazy`: the builder's header (progress, Complete, the schedule popup) in a chunk of its own.
 */
export const lazyBuilderLayout = async () => ({
  Component: (await import('./pages/BuilderLayout')).BuilderLayout,
});

/** The route's `lazy`: the builder's drag and drop and the e-mail's block components, in their own chunk. */
export const lazyDigestCreatorPage = async () => ({
  Component: (await import('./pages/DigestCreatorPage')).DigestCreatorPage,
});
