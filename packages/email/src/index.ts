export { EmailButton, type EmailButtonProps } from './components/EmailButton';
export { EmailLayout, type EmailLayoutProps } from './components/EmailLayout';
export { emailClass, emailTheme } from './components/theme';
export { ActionEmail, type ActionEmailProps, type EmailAction } from './components/transactional/ActionEmail';
export { type RenderedEmail, renderEmail } from './render';
