export { EmailButton, type EmailButtonProps } from './components/EmailButton';
export { EmailLayout, type EmailLayoutProps } from './components/EmailLayout';
export { LegalLine, type LegalLinks, legalLineText } from './components/LegalLinks';
export { emailClass, emailTheme } from './components/theme';
export { ActionEmail, type ActionEmailProps, type EmailAction } from './components/transactional/ActionEmail';
export { type BlockHtmlCache, blockHtmlKeyParts } from './digest/block-cache';
export { DigestEmail, type DigestEmailProps } from './digest/DigestEmail';
export {
  type FooterRecipient,
  personalizeDigest,
  RECIPIENT_FOOTER_MARKER,
  RECIPIENT_FOOTER_MAX_BYTES,
  recipientFooter,
  withoutRecipientFooter,
} from './digest/footer';
export { publicCopyOf } from './digest/items';
export {
  DIGEST_HTML_MAX_BYTES,
  type DigestEmailInput,
  type RenderedDigest,
  renderDigestEmail,
} from './digest/render-digest';
export { PRIVATE_BLOCK_TEXT, SourceBlock, type SourceBlockProps } from './digest/SourceBlock';
export { COLUMN_WIDTH, CONTENT_WIDTH, digestCss, MAX_IMAGE_WIDTH } from './digest/styles';
export {
  type BlockContext,
  type BlockInputOf,
  type BlockProps,
  type DigestBlockInput,
  isBlockOf,
} from './digest/types';
export { type RenderedEmail, renderEmail } from './render';
