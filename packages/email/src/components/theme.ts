/**
 * Colours and class names shared by every e-mail. Inline styles carry the light theme (what most clients
 * show); the `prefers-color-scheme: dark` block in `EmailLayout` overrides them through the class names
 * in clients that support it (Apple Mail, iOS, Outlook.com, …).
 */
export const emailTheme = {
  fontFamily:
    "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji'",
  maxWidth: 600,
  /** Space between the card's edge and its content, so content is `maxWidth - 2 × cardPadding` wide. */
  cardPadding: 32,
  light: {
    page: '#f4f4f5',
    card: '#ffffff',
    text: '#18181b',
    muted: '#52525b',
    border: '#e4e4e7',
    link: '#1d4ed8',
    button: '#1d4ed8',
    buttonText: '#ffffff',
    tile: '#f4f4f5',
    errorBackground: '#fef2f2',
    errorBorder: '#fecaca',
    errorText: '#991b1b',
  },
  dark: {
    page: '#09090b',
    card: '#18181b',
    text: '#f4f4f5',
    muted: '#a1a1aa',
    border: '#3f3f46',
    link: '#93c5fd',
    button: '#3b82f6',
    buttonText: '#ffffff',
    tile: '#27272a',
    errorBackground: '#450a0a',
    errorBorder: '#7f1d1d',
    errorText: '#fecaca',
  },
} as const;

/** Class names the dark-mode style block targets. */
export const emailClass = {
  body: 'dg-body',
  card: 'dg-card',
  heading: 'dg-heading',
  text: 'dg-text',
  muted: 'dg-muted',
  link: 'dg-link',
  button: 'dg-button',
  footer: 'dg-footer',
  rule: 'dg-rule',
  /** Surfaces inside the card: weather days, figures. */
  tile: 'dg-tile',
  /** A block that could not be loaded. */
  error: 'dg-error',
  /** Sanitised HTML from a source (its paragraphs and links follow the theme). */
  content: 'dg-content',
  /** The weather's row of days, which wraps three to a line under 600 px. */
  forecast: 'dg-forecast',
  /** A table of two columns that stack to one under 600 px. */
  columns: 'dg-columns',
  column: 'dg-column',
} as const;
