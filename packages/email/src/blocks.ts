/**
 * What a browser needs to show a block exactly as the e-mail shows it (the builder's live preview): the
 * block components and their CSS, without the server-side renderer.
 */
export { SourceBlock, type SourceBlockProps } from './digest/SourceBlock';
export { CONTENT_WIDTH, digestCss } from './digest/styles';
export { sourceTitle } from './digest/titles';
export type { BlockContext, BlockInputOf, DigestBlockInput } from './digest/types';
